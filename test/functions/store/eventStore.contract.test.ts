import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { DynamoEventStore } from '../../../functions/store/dynamoStore';
import { GameIdTaken, TournamentIdTaken, type EventStore, type GameSecrets } from '../../../functions/store/eventStore';
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

  it('finds the seq of a commandId anywhere in a game (pages of a game past 1 MB included), and nothing for one never used', async () => {
    const store = makeStore();
    const gameId = await newGame(store);
    const big = (seq: number) => ({ ...sampleCommit(gameId, seq), command: { type: 'Roll', payload: { dice: 'd6', purpose: 'x'.repeat(20_000) } } });
    for (let seq = 2; seq <= 70; seq++) await store.append(big(seq));
    expect(await store.findCommandId(gameId, 'c3')).toBe(3);
    expect(await store.findCommandId(gameId, 'c70')).toBe(70);
    expect(await store.findCommandId(gameId, 'c71')).toBeUndefined();
    expect(await store.findCommandId('g-no-such-game', 'c3')).toBeUndefined();
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

  it("reads the head stored with a game's last commit without its commits (a tournament head lists every game's)", async () => {
    const store = makeStore();
    const headAt = (gameId: string, seq: number) => ({ type: 'GameHead' as const, gameId, seq, lastHash: sampleCommit(gameId, seq).hash, sealed: false, at: 'now', kid: 'k', hash: `h${seq}`, signature: 's' });
    const gameId = `g-contract-${++counter}`;
    await store.createGame(sampleCommit(gameId, 1, 'create'), secrets, headAt(gameId, 1));
    expect(await store.readLastHead!(gameId)).toEqual(headAt(gameId, 1));
    for (let seq = 2; seq <= 4; seq++) await store.append(sampleCommit(gameId, seq), headAt(gameId, seq));
    expect(await store.readLastHead!(gameId)).toEqual(headAt(gameId, 4));
    await store.append(sampleCommit(gameId, 5));
    expect(await store.readLastHead!(gameId)).toBeUndefined();
    expect(await store.readLastHead!('g-contract-nobody')).toBeUndefined();
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

  it('keeps tokens issued after creation, hashed, in the order they were issued', async () => {
    const store = makeStore();
    const gameId = await newGame(store);
    const first = { tokenId: 'k-1a', role: 'player1', tokenHash: 'aa'.repeat(32), createdAt: '2026-11-23T00:00:00Z' };
    const second = { tokenId: 'k-zz9', role: 'organizer', tokenHash: 'bb'.repeat(32), createdAt: '2026-11-23T00:00:01Z' };
    await store.addIssuedToken(gameId, first);
    await store.addIssuedToken(gameId, second);
    expect(await store.readIssuedTokens(gameId)).toEqual([first, second]);
    await expect(store.addIssuedToken(gameId, { ...first, tokenHash: 'cc'.repeat(32) })).rejects.toThrow();
    expect(await store.readIssuedTokens(`${gameId}-other`)).toEqual([]);
    // Apart from the game's commits and secrets.
    expect(await store.read(gameId, 0)).toHaveLength(1);
    expect(await store.readSecrets(gameId)).toEqual(secrets);
  });

  it('keeps a tournament, finds it by its token hash, and lists every game added to it, even all at once', async () => {
    const store = makeStore();
    const tournamentId = `t-contract-${++counter}`;
    const record = { tournamentId, name: 'Round 1', createdAt: '2026-11-23T00:00:00Z', tokenHash: `${counter}`.padStart(64, 'd') };
    await store.createTournament(record);
    await expect(store.createTournament(record)).rejects.toBeInstanceOf(TournamentIdTaken);
    expect(await store.readTournament(tournamentId)).toEqual(record);
    expect(await store.readTournament(`${tournamentId}x`)).toBeUndefined();
    expect(await store.findTournamentByTokenHash(record.tokenHash)).toBe(tournamentId);
    expect(await store.findTournamentByTokenHash('ee'.repeat(32))).toBeUndefined();

    await store.addTournamentGame(tournamentId, 'g-first');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const together = Array.from({ length: 20 }, (_, i) => `g-together-${i}`);
    await Promise.all(together.map((gameId) => store.addTournamentGame(tournamentId, gameId)));
    const listed = await store.listTournamentGames(tournamentId);
    expect(listed[0]).toBe('g-first');
    expect([...listed].sort()).toEqual(['g-first', ...together].sort());
    expect(await store.listTournamentGames(`${tournamentId}x`)).toEqual([]);
  });
});

describe('the DynamoDB adapter on tournaments', () => {
  it('lists a tournament with queries and finds one by token hash with a GetItem: never a scan', async () => {
    const sent: string[] = [];
    const client = new Proxy(dynamo.client, {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return (command: { constructor: { name: string } }) => {
          sent.push(command.constructor.name);
          return target.send(command as never);
        };
      },
    });
    const store = new DynamoEventStore(client, dynamo.tableName);
    const tournamentId = `t-scanless-${++counter}`;
    await store.createTournament({ tournamentId, name: '', createdAt: '2026-11-23T00:00:00Z', tokenHash: 'f1'.repeat(32) });
    for (let i = 0; i < 3; i++) await store.addTournamentGame(tournamentId, `g-${i}`);
    sent.length = 0;
    expect(await store.listTournamentGames(tournamentId)).toEqual(['g-0', 'g-1', 'g-2']);
    expect(await store.findTournamentByTokenHash('f1'.repeat(32))).toBe(tournamentId);
    expect(sent).toEqual(['QueryCommand', 'GetItemCommand']);
  });
});
