import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { TABLE_KEY_SCHEMA } from '../store/dynamoStore';
import { directClient, openDynalite } from './dynaliteStore';
import { StoreThread } from './storeThreadClient';

export interface EmbeddedDynamo {
  client: DynamoDBClient;
  tableName: string;
  /** The seeds' table, apart from the game table as on AWS (infra/seedTable.ts). */
  seedTableName: string;
  close(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Where LevelDB keeps the store; none: in memory. */
  path?: string;
  tableName?: string;
  /** The store on a thread of its own, as the local server runs it. */
  thread?: boolean;
  /** With `thread`: told when the store's thread ends other than by close(); calls fail (503) from then on. */
  onLost?: (error: Error) => void;
}

/**
 * dynalite, the local DynamoDB, inside this process: persisted under `path` (LevelDB),
 * or in memory when no path is given. It listens on no port and no socket; the SDK
 * client hands it each request, so no other process can reach the store (it holds
 * unsealed seeds and token hashes). With `thread`, as the local server runs it, the store
 * answers on a worker thread of its own (storeThreadClient.ts), as DynamoDB answers
 * from elsewhere on AWS; without, on the caller's thread, which is quicker to start.
 */
export async function startEmbeddedDynamo(options: EmbeddedOptions = {}): Promise<EmbeddedDynamo> {
  const store = options.thread ? await StoreThread.start(options.path, options.onLost) : directClient(openDynalite(options.path));
  const client = store.client;
  const tableName = options.tableName ?? 'arbiter-commits';
  const seedTableName = `${tableName}-seeds`;
  for (const name of [tableName, seedTableName]) {
    try {
      await client.send(new CreateTableCommand({ TableName: name, BillingMode: 'PAY_PER_REQUEST', ...TABLE_KEY_SCHEMA }));
    } catch (error) {
      if (!(error instanceof ResourceInUseException)) throw error;
    }
    await untilActive(client, name);
  }
  let closing: Promise<void> | undefined;
  return {
    client,
    tableName,
    seedTableName,
    close: () => (closing ??= store.close()),
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
