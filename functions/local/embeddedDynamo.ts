import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import dynalite from 'dynalite';
import { createRequire } from 'node:module';
import { TABLE_KEY_SCHEMA } from '../store/dynamoStore';
import { InProcessRequestHandler, type RequestListener } from './inProcessHandler';

export interface EmbeddedDynamo {
  client: DynamoDBClient;
  tableName: string;
  close(): Promise<void>;
}

interface DynaliteStore {
  lifecycleManager?: { gracefulClose(callback: (error?: Error) => void): void };
  db: { close(callback: (error?: Error) => void): void };
}

/**
 * dynalite, the local DynamoDB, inside this process: persisted under `path` (LevelDB),
 * or in memory when no path is given. It listens on no port and no socket; the SDK
 * client calls its request handler directly, so no other process can reach the store
 * (it holds unsealed seeds and token hashes).
 */
export async function startEmbeddedDynamo(options: { path?: string; tableName?: string } = {}): Promise<EmbeddedDynamo> {
  const { listener, store } = openDynalite(options.path);
  const handler = new InProcessRequestHandler(listener);
  const client = new DynamoDBClient({
    endpoint: 'http://embedded.invalid',
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    requestHandler: handler as never,
    maxAttempts: 3,
  });
  const tableName = options.tableName ?? 'arbiter-commits';
  try {
    await client.send(new CreateTableCommand({ TableName: tableName, BillingMode: 'PAY_PER_REQUEST', ...TABLE_KEY_SCHEMA }));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await untilActive(client, tableName);
  let closing: Promise<void> | undefined;
  return {
    client,
    tableName,
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        client.destroy();
        handler.destroy();
        const done = (error?: Error) => (error ? reject(error) : resolve());
        if (store.lifecycleManager) store.lifecycleManager.gracefulClose(done);
        else store.db.close(done);
      })),
  };
}

/** dynalite turns a new table ACTIVE on a timer, after CreateTable has answered. */
async function untilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') return;
    await sleep(10);
  }
  throw new Error(`table ${tableName} did not become active`);
}

/**
 * dynalite builds an http.Server around its request handler and closes its LevelDB
 * only through server.close() of a listening server. Its database module is caught as
 * it is created, so that the store can be closed without ever listening.
 */
function openDynalite(path: string | undefined): { listener: RequestListener; store: DynaliteStore } {
  const db = createRequire(import.meta.url)('dynalite/db') as { create: (options: unknown) => DynaliteStore };
  const create = db.create;
  let store: DynaliteStore | undefined;
  db.create = (options) => (store = create(options));
  try {
    const server = dynalite({ ...(path ? { path } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
    const [listener] = server.listeners('request') as RequestListener[];
    if (!store || !listener) throw new Error('dynalite did not create its store');
    return { listener, store };
  } finally {
    db.create = create;
  }
}
