import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import type { AddressInfo } from 'node:net';
import { TABLE_KEY_SCHEMA } from '../../functions/store/dynamoStore';

/**
 * For tests that run a Lambda bundle in another process: dynalite in memory on a
 * loopback port, as DynamoDB's endpoint. The server itself never listens like this.
 */
export async function startLoopbackDynamo(tableName: string) {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  // The seeds' table beside it, as the stack has one (infra/seedTable.ts).
  const seedTableName = `${tableName}-seeds`;
  for (const name of [tableName, seedTableName]) await client.send(new CreateTableCommand({ TableName: name, BillingMode: 'PAY_PER_REQUEST', ...TABLE_KEY_SCHEMA }));
  return {
    endpoint,
    tableName,
    seedTableName,
    close: async () => {
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
