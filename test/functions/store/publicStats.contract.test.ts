import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import type { PublicStatsStore } from '../../../functions/ports/publicStatsStore';
import { DynamoPublicStats } from '../../../functions/store/dynamoPublicStats';
import { MemoryPublicStats } from '../../../functions/store/memoryStore';

let dynamo: EmbeddedDynamo;

beforeAll(async () => {
  dynamo = await startEmbeddedDynamo();
});
afterAll(async () => {
  await dynamo?.close();
});

const adapters: [string, () => PublicStatsStore][] = [
  ['memory', () => new MemoryPublicStats()],
  ['dynamodb (dynalite)', () => new DynamoPublicStats(dynamo.client, dynamo.tableName)],
];

const sorted = async (store: PublicStatsStore) => (await store.readAll()).sort((a, b) => a.sides - b.sides);

describe.each(adapters)('public statistics store contract: %s', (_name, makeStore) => {
  it('adds each game once per die size, exactly, also when the same game is added again or many at once', async () => {
    const store = makeStore();
    const before = await sorted(store);
    const d6 = (n: number) => [n, 0, 0, 0, 0, n];
    await store.addGame('g-a', new Map([[6, d6(1)], [20, new Array(20).fill(1)]]));
    await store.addGame('g-a', new Map([[6, d6(1)], [20, new Array(20).fill(1)]]));
    // 40 at once: more than the DynamoDB adapter's 32 shards, so some race for the same item.
    const many = Array.from({ length: 40 }, (_, i) => `g-many-${i}`);
    await Promise.all(many.map((id) => store.addGame(id, new Map([[6, d6(2)]]))));
    await store.addGame('g-many-7', new Map([[6, d6(2)]]));
    const after = await sorted(store);
    const six = after.find((a) => a.sides === 6)!;
    const sixBefore = before.find((a) => a.sides === 6);
    expect(six.games - (sixBefore?.games ?? 0)).toBe(41);
    expect(six.counts.map((n, i) => n - (sixBefore?.counts[i] ?? 0))).toEqual([81, 0, 0, 0, 0, 81]);
    const twenty = after.find((a) => a.sides === 20)!;
    expect(twenty.counts.every((n, i) => n - (before.find((a) => a.sides === 20)?.counts[i] ?? 0) === 1)).toBe(true);
  });
});
