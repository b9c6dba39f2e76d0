import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { DynamoEventStore } from '../../../functions/store/dynamoStore';
import { GameIdTaken, type EventStore, type GameSecrets } from '../../../functions/store/eventStore';
import { MemoryEventStore } from '../../../functions/store/memoryStore';
import { sampleCommit } from '../../support/commits';

const secrets: GameSecrets = { serverSeed: 'ab'.repeat(32), tokenHashes: { organizer: '00'.repeat(32), players: { player1: '11'.repeat(32) } } };
let dynamo: EmbeddedDynamo;
let counter = 0;

beforeAll(async () => {
  dynamo = await startEmbeddedDynamo();
});
afterAll(async () => {
  await dynamo?.close();
});

const adapters: [string, () => EventStore][] = [
  ['memory', () => new MemoryEventStore()],
  ['dynamodb (dynalite)', () => new DynamoEventStore(dynamo.client, dynamo.tableName)],
];

describe.each(adapters)('event store contract: %s', (_name, makeStore) => {
  const newGame = async (store: EventStore) => {
    const gameId = `g-contract-${++counter}`;
    await store.createGame(sampleCommit(gameId, 1, 'create'), secrets);
    return gameId;
  };

  it('creates a game with its secrets apart from its commits', async () => {
    const store = makeStore();
    const gameId = await newGame(store);
    expect(await store.readSecrets(gameId)).toEqual(secrets);
    const commits = await store.read(gameId, 0);
    expect(commits).toEqual([sampleCommit(gameId, 1, 'create')]);
    expect(JSON.stringify(commits)).not.toContain(secrets.serverSeed);
  });

  it('refuses a second game under the same id', async () => {
    const store = makeStore();
    const gameId = await newGame(store);
    await expect(store.createGame(sampleCommit(gameId, 1, 'again'), secrets)).rejects.toBeInstanceOf(GameIdTaken);
  });

  it('appends commits and reads them back byte for byte', async () => {
    const store = makeStore();
    const gameId = await newGame(store);
    for (let seq = 2; seq <= 5; seq++) expect(await store.append(sampleCommit(gameId, seq))).toEqual({ ok: true });
    const commits = await store.read(gameId, 0);
    expect(commits.map((c) => c.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(JSON.stringify(commits[3])).toBe(JSON.stringify(sampleCommit(gameId, 4)));
  });

  it('answers a conflicting append with the commit that holds the seq, and keeps it', async () => {
    const store = makeStore();
    const gameId = await newGame(store);
    await store.append(sampleCommit(gameId, 2, 'first'));
    const result = await store.append(sampleCommit(gameId, 2, 'second'));
    expect(result).toEqual({ ok: false, existing: sampleCommit(gameId, 2, 'first') });
    expect((await store.read(gameId, 0)).map((c) => c.commandId)).toEqual(['create', 'first']);
  });

  it('lets a retried append find its own commit (idempotent retry)', async () => {
    const store = makeStore();
    const gameId = await newGame(store);
    const commit = sampleCommit(gameId, 2, 'retry-me');
    await store.append(commit);
    const again = await store.append(commit);
    expect(again.ok).toBe(false);
    expect(!again.ok && again.existing.commandId).toBe('retry-me');
    expect(await store.read(gameId, 0)).toHaveLength(2);
  });

  it('lets exactly one of many concurrent appends at one seq win', async () => {
    const store = makeStore();
    const gameId = await newGame(store);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.append(sampleCommit(gameId, 2, `racer-${i}`))));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const winner = (await store.read(gameId, 1))[0].commandId;
    for (const r of results) if (!r.ok) expect(r.existing.commandId).toBe(winner);
  });

  it('pages with after and limit', async () => {
    const store = makeStore();
    const gameId = await newGame(store);
    for (let seq = 2; seq <= 12; seq++) await store.append(sampleCommit(gameId, seq));
    expect((await store.read(gameId, 3, 4)).map((c) => c.seq)).toEqual([4, 5, 6, 7]);
    expect((await store.read(gameId, 10, 100)).map((c) => c.seq)).toEqual([11, 12]);
    expect(await store.read(gameId, 12, 5)).toEqual([]);
    expect(await store.read('g-no-such-game', 0)).toEqual([]);
    expect(await store.readSecrets('g-no-such-game')).toBeUndefined();
  });
});
