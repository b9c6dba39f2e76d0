import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import type { SubscriptionRecord, SubscriptionStore } from '../../../functions/ports/subscriptionStore';
import { DynamoSubscriptions } from '../../../functions/store/dynamoSubscriptions';
import { MemorySubscriptions } from '../../../functions/store/memorySubscriptions';

let dynamo: EmbeddedDynamo;
beforeAll(async () => {
  dynamo = await startEmbeddedDynamo({});
});
afterAll(() => dynamo.close());

let counter = 0;
const record = (overrides: Partial<SubscriptionRecord> = {}): SubscriptionRecord => ({
  subscriptionId: `s-test${++counter}`,
  scope: { gameId: 'g-one' },
  kind: 'webhook',
  owner: 'organizer',
  sealedTarget: 'aes256gcm-v1.x.y.z',
  maskedTarget: 'https://hooks.example.org/…',
  digest: { everyMinutes: 15 },
  status: 'active',
  createdAt: `2026-11-27T10:00:${String(counter).padStart(2, '0')}.000Z`,
  afterSeq: 3,
  ...overrides,
});

describe.each([
  ['memory', () => new MemorySubscriptions() as SubscriptionStore],
  ['DynamoDB', () => new DynamoSubscriptions(dynamo.client, dynamo.tableName) as SubscriptionStore],
])('the %s subscription store', (_, make) => {
  it('keeps records by scope, as written, and removes them with their cursors and dead letters', async () => {
    const store = make();
    const game = `g-${counter}-${Math.random()}`;
    const first = record({ scope: { gameId: game }, owner: 'player "1"\n<b>', grantedBy: { tokenId: 'k-reissued' }, codeHash: 'ab'.repeat(32), status: 'confirming' });
    const second = record({ scope: { gameId: game }, digest: 'turn', grantedBy: 'creation' });
    const elsewhere = record({ scope: { tournamentId: 't-x' } });
    for (const r of [second, first, elsewhere]) await store.add(r);
    expect(await store.inScope({ gameId: game })).toEqual([first, second]);
    expect(await store.inScope({ tournamentId: 't-x' })).toEqual([elsewhere]);
    expect(await store.get(first.subscriptionId)).toEqual(first);
    expect(await store.confirm(first.subscriptionId)).toBe(true);
    expect((await store.get(first.subscriptionId))!.status).toBe('active');
    await store.advance(first.subscriptionId, game, undefined, 4);
    await store.addDeadLetter(first.subscriptionId, { seq: 4, at: '2026-11-27T10:01:00.000Z', error: 'x answered 500' });
    expect(await store.remove(first.subscriptionId)).toBe(true);
    expect(await store.remove(first.subscriptionId)).toBe(false);
    expect(await store.get(first.subscriptionId)).toBeUndefined();
    expect(await store.cursor(first.subscriptionId, game)).toBeUndefined();
    expect(await store.deadLetters(first.subscriptionId)).toEqual([]);
    expect(await store.inScope({ gameId: game })).toEqual([second]);
  });

  it('moves a cursor only from the value read: two runs at once, one wins', async () => {
    const store = make();
    const r = record();
    await store.add(r);
    expect(await store.cursor(r.subscriptionId, 'g-one')).toBeUndefined();
    const [a, b] = await Promise.all([store.advance(r.subscriptionId, 'g-one', undefined, 5), store.advance(r.subscriptionId, 'g-one', undefined, 6)]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    const now = (await store.cursor(r.subscriptionId, 'g-one'))!;
    expect(await store.advance(r.subscriptionId, 'g-one', now - 1, 9)).toBe(false);
    expect(await store.advance(r.subscriptionId, 'g-one', now, 9)).toBe(true);
    expect(await store.cursor(r.subscriptionId, 'g-one')).toBe(9);
    expect(await store.cursor(r.subscriptionId, 'g-two')).toBeUndefined();
  });

  it('remembers the latest reminder per subscription and game: a second mark of it, at once or later, is refused', async () => {
    const store = make();
    const r = record();
    await store.add(r);
    const [a, b] = await Promise.all([store.markReminded(r.subscriptionId, 'g-one', 'north 1'), store.markReminded(r.subscriptionId, 'g-one', 'north 1')]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(await store.markReminded(r.subscriptionId, 'g-one', 'north 1')).toBe(false);
    expect(await store.markReminded(r.subscriptionId, 'g-two', 'north 1')).toBe(true);
    expect(await store.markReminded(r.subscriptionId, 'g-one', 'south 2')).toBe(true);
    expect(await store.markReminded(r.subscriptionId, 'g-one', 'south 2')).toBe(false);
    // The cursor lives beside it and is not touched.
    expect(await store.cursor(r.subscriptionId, 'g-one')).toBeUndefined();
    await store.remove(r.subscriptionId);
    expect(await store.markReminded(r.subscriptionId, 'g-one', 'north 3')).toBe(false);
  });

  it('keeps the latest 50 dead letters', async () => {
    const store = make();
    const r = record();
    await store.add(r);
    for (let seq = 1; seq <= 53; seq++) await store.addDeadLetter(r.subscriptionId, { seq, at: new Date(Date.UTC(2026, 10, 27, 10, 0, seq)).toISOString(), error: `#${seq}` });
    const kept = await store.deadLetters(r.subscriptionId);
    expect(kept.map((letter) => letter.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 4));
  });
});

describe('the DynamoDB subscription store', () => {
  it('names the games and tournaments that have subscriptions (what a restart catches up)', async () => {
    const store = new DynamoSubscriptions(dynamo.client, dynamo.tableName);
    await store.add(record({ scope: { gameId: 'g-listed' } }));
    await store.add(record({ scope: { tournamentId: 't-listed' } }));
    expect(await store.subscribedGames()).toContain('g-listed');
    expect(await store.subscribedTournaments()).toContain('t-listed');
  });
});
