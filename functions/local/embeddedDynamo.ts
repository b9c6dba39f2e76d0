import { CreateTableCommand, DynamoDBClient, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import type { AddressInfo } from 'node:net';
import { TABLE_KEY_SCHEMA } from '../store/dynamoStore';

export interface EmbeddedDynamo {
  client: DynamoDBClient;
  tableName: string;
  endpoint: string;
  close(): Promise<void>;
}

/**
 * dynalite, the local DynamoDB, in this process on a loopback port: persisted
 * under `path` (LevelDB), or in memory when no path is given.
 */
export async function startEmbeddedDynamo(options: { path?: string; tableName?: string } = {}): Promise<EmbeddedDynamo> {
  const server = dynalite({ ...(options.path ? { path: options.path } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 3,
  });
  const tableName = options.tableName ?? 'arbiter-commits';
  try {
    await client.send(new CreateTableCommand({ TableName: tableName, BillingMode: 'PAY_PER_REQUEST', ...TABLE_KEY_SCHEMA }));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  return {
    client,
    tableName,
    endpoint,
    close: async () => {
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
