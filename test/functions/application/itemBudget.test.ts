import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Commit } from '../../../domain/fairness/hashChain';
import { europaRuleset } from '../../../domain/rulesets/europa';
import { verifyBundle } from '../../../domain/verify/verifyBundle';
import { ApplicationError } from '../../../functions/application/errors';
import { GameService } from '../../../functions/application/gameService';
import { MAX_GROUP, type CommandOutcome } from '../../../functions/application/groupCommit';
import { commandShare, ITEM_OVERHEAD } from '../../../functions/application/recordSize';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { toErrorResponse } from '../../../functions/http/middleware';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { appendItem } from '../../../functions/store/commitItems';
import { DynamoEventStore } from '../../../functions/store/dynamoStore';
import { DynamoSnapshots } from '../../../functions/store/dynamoSnapshots';
import type { EventStore } from '../../../functions/store/eventStore';
import { ITEM_BUDGET, itemBytes, ItemTooLarge } from '../../../functions/store/itemSize';
import { MemoryEventStore } from '../../../functions/store/memoryStore';
import { TEST_AA_TABLE } from '../../domain/rulesets/europa/harness';
import { largeFire } from '../../support/largeEuropaFire';

let dynamo: EmbeddedDynamo;
beforeAll(async () => {
  dynamo = await startEmbeddedDynamo();
});
afterAll(async () => {
  await dynamo?.close();
});

const key = generateSigningKey();
const seedVault = aesSeedVault(newSeedKey());
let games = 0;

/** A service that groups, on the given store; each write's commits counted and its item measured. */
function groupingService(store: EventStore, itemBudget?: number) {
  const writes: { commits: number; bytes: number }[] = [];
  const measured = Object.create(store) as EventStore;
  measured.appendGroup = (commits, head) => {
    writes.push({ commits: commits.length, bytes: itemBytes(appendItem(commits, head)) });
    return store.appendGroup(commits, head);
  };
  const service = new GameService({
    store: measured,
    signer: signerFromKey(key),
    seedVault,
    maxGroup: MAX_GROUP,
    itemBudget,
    soleWriter: true,
    randomSeed: () => createHash('sha256').update(`budget:${games}`).digest(),
    newGameId: () => `g-budget-${++games}`,
  });
  return { service, writes };
}

async function europaGame(service: GameService) {
  const game = await service.createGame({ ruleset: 'europa', options: { aaTable: TEST_AA_TABLE } });
  await service.submit(game.gameId, game.tokens.organizer, { commandId: 'entropy', type: 'ContributeEntropy', payload: { entropy: 'organizer entropy' } });
  return game;
}

const fire = (n: number, units?: number) => ({ commandId: `fire-${n}`, type: 'AAFire', payload: largeFire(n, units) });
const place = (site: string) => ({ commandId: `place-${site}`, type: 'FortificationEvent', payload: { action: 'place', site, kind: 'westwall', owner: 'axis', level: 1 } });
const version = async (service: GameService, gameId: string, token: string) => ((await service.view(gameId, token)) as { version: number }).version;

const stores: [string, () => EventStore][] = [
  ['memory', () => new MemoryEventStore()],
  ['dynamodb (dynalite), groups in items', () => new DynamoEventStore(dynamo.client, dynamo.tableName, { groups: true })],
];

describe.each(stores)('item budget on %s', (_name, makeStore) => {
  it('splits a group whose commits would pass the budget: those that fit in one write, the rest in the next; all stored in order, and the game verifies', async () => {
    const { service, writes } = groupingService(makeStore());
    const game = await europaGame(service);
    writes.length = 0;
    // Submitted in one turn: one group of fifteen commits of about 48 KB each.
    const outcomes = await Promise.all(Array.from({ length: 15 }, (_, n) => service.submit(game.gameId, game.tokens.players.allied, fire(n))));
    expect(outcomes.map((o) => [o.created, o.version])).toEqual(Array.from({ length: 15 }, (_, n) => [true, 3 + n]));
    expect(writes.map((w) => w.commits)).toEqual([8, 7]);
    for (const write of writes) expect(write.bytes).toBeLessThanOrEqual(ITEM_BUDGET);
    const bundle = await service.exportBundle(game.gameId, game.tokens.organizer);
    expect(bundle.commits.map((c) => c.commandId).slice(2)).toEqual(Array.from({ length: 15 }, (_, n) => `fire-${n}`));
    expect(verifyBundle(bundle)).toMatchObject({ ok: true });
  });

  it('refuses a single command whose record would not fit with 413 naming its bytes and the limit, while the commands grouped with it are stored', async () => {
    const small = fire(0, 1);
    const large = fire(1, 60);
    // Room for a commit of the small fire, not for the large one's (its payload alone fits).
    const budget = ITEM_OVERHEAD + commandShare(large.commandId, large) + 4_000;
    const { service, writes } = groupingService(makeStore(), budget);
    const game = await europaGame(service);
    const before = await version(service, game.gameId, game.tokens.organizer);
    const settled = await Promise.allSettled([small, large, { ...fire(2, 1) }].map((c) => service.submit(game.gameId, game.tokens.players.allied, c)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const error = (settled[1] as PromiseRejectedResult).reason as ApplicationError;
    expect(error).toBeInstanceOf(ApplicationError);
    expect([error.status, error.code, error.details?.maxBytes]).toEqual([413, 'payload_too_large', budget]);
    expect(error.details?.bytes).toBeGreaterThan(budget);
    expect(error.message).toBe(
      `This command's record would take ${(error.details!.bytes as number).toLocaleString('en-US')} bytes, more than the ${budget.toLocaleString('en-US')} bytes one command may take, so it was not recorded and the game is unchanged. Send less in one command where the rules allow it.`,
    );
    // The two small fires took the next two seqs; the large one took none.
    expect((settled as PromiseFulfilledResult<CommandOutcome>[]).filter((s) => s.status === 'fulfilled').map((s) => s.value.version)).toEqual([before + 1, before + 2]);
    expect(await version(service, game.gameId, game.tokens.organizer)).toBe(before + 2);
    expect(writes.at(-1)!.commits).toBe(2);
    // A payload alone over the budget is refused before it is decided: the same answer, nothing stored.
    const tight = groupingService(makeStore(), ITEM_OVERHEAD + 1_000);
    const other = await europaGame(tight.service);
    const refused = await tight.service.submit(other.gameId, other.tokens.players.allied, large).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 413, code: 'payload_too_large', details: { maxBytes: ITEM_OVERHEAD + 1_000 } });
    expect(await version(tight.service, other.gameId, other.tokens.organizer)).toBe(2);
    expect(verifyBundle(await service.exportBundle(game.gameId, game.tokens.organizer))).toMatchObject({ ok: true });
  });

  it('the store itself refuses an item over the budget, and stores nothing of it', async () => {
    const store = makeStore();
    const { service } = groupingService(store);
    const game = await europaGame(service);
    const [last] = await store.read(game.gameId, 1, 1);
    const huge: Commit = { ...last, seq: 3, commandId: 'huge', events: [{ type: 'Padding', data: { text: 'x'.repeat(ITEM_BUDGET) } }] };
    const refused = await store.appendGroup([huge]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ItemTooLarge);
    expect(refused).toMatchObject({ maxBytes: ITEM_BUDGET });
    expect((refused as ItemTooLarge).bytes).toBeGreaterThan(ITEM_BUDGET);
    expect(await store.read(game.gameId, 2)).toEqual([]);
    // Should one ever reach the HTTP layer: 413, never a 500.
    const answer = toErrorResponse(refused);
    expect([answer.statusCode, JSON.parse(answer.body as string).error.code]).toEqual([413, 'payload_too_large']);
  });
});

describe('old europa games', () => {
  it('a game recorded before rulesVersion 2 (commit 1 without it) keeps one event per hex, replays and verifies', async () => {
    const current = europaRuleset.newGameOptions;
    const { service } = groupingService(new MemoryEventStore());
    let game;
    try {
      // What the code before rulesVersion 2 recorded: no rulesVersion in commit 1.
      (europaRuleset as { newGameOptions?: unknown }).newGameOptions = { aaTable: current!.aaTable, otherEuropaGames: false };
      game = await europaGame(service);
    } finally {
      (europaRuleset as { newGameOptions?: unknown }).newGameOptions = current;
    }
    const axis = game.tokens.players.axis;
    const send = (commandId: string, payload: Record<string, unknown>) => service.submit(game.gameId, axis, { commandId, type: 'FortificationEvent', payload });
    for (const site of ['Aachen', 'Trier']) await service.submit(game.gameId, axis, place(site));
    await send('turn-1', { action: 'turn', turn: 1 });
    for (const site of ['Aachen', 'Trier']) await send(`improve-${site}`, { action: 'begin-improvement', site, quickConstruction: true });
    await send('turn-2', { action: 'turn', turn: 2 });
    const turn3 = await send('turn-3', { action: 'turn', turn: 3 });
    expect(turn3.commit.events.map((e) => [e.type, e.data.site ?? null])).toEqual([
      ['TurnBegan', null],
      ['ConditionChanged', 'Aachen'],
      ['ConditionChanged', 'Trier'],
    ]);
    const bundle = await service.exportBundle(game.gameId, game.tokens.organizer);
    expect(bundle.commits[0].command.payload).not.toHaveProperty('options.rulesVersion');
    expect(verifyBundle(bundle)).toMatchObject({ ok: true });
  });
});

describe('snapshots of a large state', () => {
  it('are cut into items within the budget, and read back whole', async () => {
    const sizes: number[] = [];
    const client = Object.create(dynamo.client) as DynamoDBClient;
    client.send = ((command: unknown) => {
      if (command instanceof PutItemCommand) sizes.push(itemBytes(command.input.Item!));
      return dynamo.client.send(command as never);
    }) as DynamoDBClient['send'];
    const snapshots = new DynamoSnapshots(client, dynamo.tableName);
    // About the state of 4,000 Westwall hexes with 64-character names.
    const state = JSON.stringify({ sites: Array.from({ length: 4_000 }, (_, i) => [`Westwall ${i} `.padEnd(64, 'x'), { kind: 'westwall', owner: 'axis', condition: 'improved', level: 3 }]) });
    await snapshots.write('g-large-snapshot', { format: 1, ruleset: 'europa@3', seq: 4_000, hash: 'h'.repeat(64), state });
    expect(sizes.length).toBeGreaterThan(1);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(ITEM_BUDGET);
    expect((await snapshots.read('g-large-snapshot'))?.state).toBe(state);
  });
});
