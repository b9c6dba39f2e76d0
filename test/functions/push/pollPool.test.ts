import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { DynamoPollPool } from '../../../functions/push/pollPool';
import { CONNECTIONS_KEY_SCHEMA } from '../../../functions/push/subscriptionStore';

const CONNECTIONS = 'poll-pool-connections';
let dynamo: EmbeddedDynamo;

beforeAll(async () => {
  dynamo = await startEmbeddedDynamo({ tableName: 'poll-pool-games' });
  await dynamo.client.send(new CreateTableCommand({ TableName: CONNECTIONS, BillingMode: 'PAY_PER_REQUEST', ...CONNECTIONS_KEY_SCHEMA }));
  for (let tries = 0; tries < 100; tries++) {
    if ((await dynamo.client.send(new DescribeTableCommand({ TableName: CONNECTIONS }))).Table?.TableStatus === 'ACTIVE') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});
afterAll(async () => {
  await dynamo?.close();
});

describe('DynamoPollPool: long-poll slots leased in the connections table', () => {
  it('gives at most its slots at once, takes a released slot back, and frees the slot of a poll whose function died once its lease runs out', async () => {
    let now = Date.parse('2026-11-27T12:00:00Z');
    const pool = new DynamoPollPool(dynamo.client, CONNECTIONS, 2, () => now);
    const first = await pool.acquire(10);
    const second = await pool.acquire(10);
    expect(first && second).toBeTruthy();
    expect(await pool.acquire(10)).toBeUndefined();
    await first!.release();
    const third = await pool.acquire(10);
    expect(third).toBeDefined();
    expect(await pool.acquire(10)).toBeUndefined();
    // Neither `second` nor `third` is released (their functions died): 10 s and the 5 s margin later, both slots are free.
    now += 16_000;
    expect(await pool.acquire(10)).toBeDefined();
    expect(await pool.acquire(10)).toBeDefined();
    expect(await pool.acquire(10)).toBeUndefined();
    // A late release of a lease someone else holds now changes nothing.
    await second!.release();
    expect(await pool.acquire(10)).toBeUndefined();
  });
});
