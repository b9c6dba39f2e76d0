import { CreateTableCommand, ScanCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameService } from '../../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { socketHandler, type SocketEvent } from '../../../functions/push/awsSocket';
import { CONNECTIONS_KEY_SCHEMA, DynamoSubscriptions } from '../../../functions/push/subscriptionStore';
import { DynamoEventStore } from '../../../functions/store/dynamoStore';

const CONNECTIONS = 'bound-connections';
let dynamo: EmbeddedDynamo;
let socket: ReturnType<typeof socketHandler>;

beforeAll(async () => {
  dynamo = await startEmbeddedDynamo({ tableName: 'bound-games' });
  await dynamo.client.send(new CreateTableCommand({ TableName: CONNECTIONS, BillingMode: 'PAY_PER_REQUEST', ...CONNECTIONS_KEY_SCHEMA }));
  await waitUntilTableExists({ client: dynamo.client, maxWaitTime: 10, minDelay: 0.05, maxDelay: 0.2 }, { TableName: CONNECTIONS });
  const store = new DynamoEventStore(dynamo.client, dynamo.tableName);
  const service = new GameService({ store, signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()) });
  socket = socketHandler({
    service: async () => service,
    subscriptions: new DynamoSubscriptions(dynamo.client, CONNECTIONS),
    gateway: { post: async () => 'sent', drop: async () => {} },
    allowedOrigins: [],
    limits: { maxConnectionsPerClient: 3 },
    report: () => {},
  });
});
afterAll(async () => {
  await dynamo?.close();
});

const route = (routeKey: string, connectionId: string, sourceIp: string): SocketEvent => ({ requestContext: { routeKey, connectionId, identity: { sourceIp } } });

describe('the AWS socket function bounds the connections of one address', () => {
  it('answers $connect 429 past the bound for that address only, and again 200 once one disconnects; the address is never stored in clear', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await socket(route('$connect', `a-${i}`, '203.0.113.7'))).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect((await socket(route('$connect', 'b-0', '198.51.100.1'))).statusCode).toBe(200);
    expect((await socket(route('$disconnect', 'a-1', '203.0.113.7'))).statusCode).toBe(200);
    expect((await socket(route('$connect', 'a-5', '203.0.113.7'))).statusCode).toBe(200);
    const table = JSON.stringify((await dynamo.client.send(new ScanCommand({ TableName: CONNECTIONS }))).Items);
    expect(table).not.toContain('203.0.113.7');
    expect(table).not.toContain('198.51.100.1');
  });
});
