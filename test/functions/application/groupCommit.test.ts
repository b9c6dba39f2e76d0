import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBundle } from '../../../domain/verify/verifyBundle';
import { GameService } from '../../../functions/application/gameService';
import { MAX_GROUP, type CommandOutcome } from '../../../functions/application/groupCommit';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { DynamoEventStore } from '../../../functions/store/dynamoStore';
import type { EventStore } from '../../../functions/store/eventStore';
import { MemoryEventStore } from '../../../functions/store/memoryStore';
import { FaultyStore } from '../../support/faultyStore';

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

/** A service that groups, on the given store (writes counted). */
function groupingService(store: EventStore, label = 'group') {
  const writes: number[] = [];
  const counted = Object.create(store) as EventStore;
  counted.appendGroup = (commits, head) => {
    writes.push(commits.length);
    return store.appendGroup(commits, head);
  };
  const service = new GameService({
    store: counted,
    signer: signerFromKey(key),
    seedVault,
    maxGroup: MAX_GROUP,
    soleWriter: true,
    randomSeed: () => createHash('sha256').update(`${label}:${games}`).digest(),
    newGameId: () => `g-${label}-${++games}`,
  });
  return { service, writes };
}

const roll = (id: string, dice = '2d6') => ({ commandId: id, type: 'Roll', payload: { dice, purpose: id } });
const settle = (promises: Promise<CommandOutcome>[]) => Promise.allSettled(promises);
/** Until the store has been asked for `count` writes: commands submitted after that wait for the next group. */
async function writing(writes: number[], count: number): Promise<void> {
  for (let turn = 0; turn < 1000 && writes.length < count; turn++) await new Promise((resolve) => setImmediate(resolve));
  if (writes.length < count) throw new Error(`the store was asked for ${writes.length} writes, not ${count}`);
}

const stores: [string, () => EventStore][] = [
  ['memory', () => new MemoryEventStore()],
  ['dynamodb (dynalite), groups in items', () => new DynamoEventStore(dynamo.client, dynamo.tableName, { groups: true })],
];

describe.each(stores)('group commit on %s', (_name, makeStore) => {
  it('writes the commands that wait together in one write, each its own commit with its own seq and dice, and the game verifies', async () => {
    const { service, writes } = groupingService(makeStore());
    const game = await service.createGame({ ruleset: 'dice' });
    const token = game.tokens.players.player1;
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => service.submit(game.gameId, token, roll(`r${i}`))));
    expect(outcomes.every((o) => o.created)).toBe(true);
    expect(outcomes.map((o) => o.commit.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 2));
    // The first alone, the others in groups of at most MAX_GROUP.
    expect(writes.reduce((a, b) => a + b, 0)).toBe(40);
    expect(writes.length).toBeLessThan(40);
    expect(Math.max(...writes)).toBeLessThanOrEqual(MAX_GROUP);
    const bundle = await service.exportBundle(game.gameId, game.tokens.organizer);
    expect(bundle.commits.map((c) => c.seq)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    expect(verifyBundle(bundle)).toMatchObject({ ok: true });
    // Paging from inside a group, and each commit's own head of the last.
    const all = await service.events(game.gameId, token, 0, 1000);
    for (const after of [3, 7, 20]) expect((await service.events(game.gameId, token, after, 5)).commits.map((c) => c.seq)).toEqual(all.commits.slice(after, after + 5).map((c) => c.seq));
    expect((await service.head(game.gameId, token)).seq).toBe(41);
  });

  it('answers a refused command at once and holds back none of the others', async () => {
    const { service } = groupingService(makeStore());
    const game = await service.createGame({ ruleset: 'dice' });
    const token = game.tokens.players.player1;
    const first = service.submit(game.gameId, token, roll('a'));
    const rest = [service.submit(game.gameId, token, roll('b')), service.submit(game.gameId, token, roll('bad', '0d6')), service.submit(game.gameId, token, roll('c'))];
    const [a, b, bad, c] = await settle([first, ...rest]);
    expect([a.status, b.status, bad.status, c.status]).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect([(b as PromiseFulfilledResult<CommandOutcome>).value.commit.seq, (c as PromiseFulfilledResult<CommandOutcome>).value.commit.seq]).toEqual([3, 4]);
    expect((await service.exportBundle(game.gameId, game.tokens.organizer)).commits.map((x) => x.commandId)).toEqual(['create', 'a', 'b', 'c']);
  });

  it('answers the same commandId sent twice in one group with one commit, and another command under it with 409', async () => {
    const { service } = groupingService(makeStore());
    const game = await service.createGame({ ruleset: 'dice' });
    const token = game.tokens.players.player1;
    const results = await settle([
      service.submit(game.gameId, token, roll('first')),
      service.submit(game.gameId, token, roll('twice')),
      service.submit(game.gameId, token, roll('twice')),
      service.submit(game.gameId, token, { ...roll('twice'), payload: { dice: '3d6', purpose: 'other' } }),
    ]);
    const [, one, two, other] = results as PromiseFulfilledResult<CommandOutcome>[];
    expect(one.value.created).toBe(true);
    expect(two.value).toMatchObject({ created: false });
    expect(two.value.commit).toEqual(one.value.commit);
    expect(other.status).toBe('rejected');
    expect((other as unknown as PromiseRejectedResult).reason).toMatchObject({ code: 'command_id_reused' });
    expect((await service.exportBundle(game.gameId, game.tokens.organizer)).commits).toHaveLength(3);
  });

  it('rolls with the entropy contributed earlier in the same group, as the verifier re-derives it', async () => {
    const { service, writes } = groupingService(makeStore());
    const game = await service.createGame({ ruleset: 'dice' });
    const [p1, p2] = [game.tokens.players.player1, game.tokens.players.player2];
    const hold = service.submit(game.gameId, game.tokens.organizer, { commandId: 'e0', type: 'ContributeEntropy', payload: { entropy: 'first' } });
    await writing(writes, 1);
    await Promise.all([
      hold,
      service.submit(game.gameId, p1, { commandId: 'e1', type: 'ContributeEntropy', payload: { entropy: 'alpha' } }),
      service.submit(game.gameId, p2, { commandId: 'e2', type: 'ContributeEntropy', payload: { entropy: 'beta' } }),
      service.submit(game.gameId, p1, roll('after-entropy', '10d6')),
    ]);
    expect(writes).toEqual([1, 3]);
    // Sealed: the seed is revealed and the verifier re-derives every die.
    await service.submit(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    const report = verifyBundle(await service.exportBundle(game.gameId, game.tokens.organizer));
    expect(report, JSON.stringify(report)).toMatchObject({ ok: true, checkedDice: 10 });
  });

  it('answers an expectedVersion beyond the game with 409 after reading the store once, whether or not the process is the only writer', async () => {
    const store = makeStore();
    const { service } = groupingService(store, 'expected');
    const game = await service.createGame({ ruleset: 'dice' });
    const token = game.tokens.players.player1;
    const notSole = new GameService({ store, signer: signerFromKey(key), seedVault, maxGroup: MAX_GROUP });
    for (const writer of [service, notSole]) {
      await expect(writer.submit(game.gameId, token, { ...roll('ahead'), expectedVersion: 10_000_000 })).rejects.toMatchObject({ code: 'version_conflict', details: { currentVersion: 1 } });
    }
    expect((await notSole.submit(game.gameId, token, { ...roll('now'), expectedVersion: 1 })).commit.seq).toBe(2);
  });

  it('never refuses a command on a cache another writer has moved past: it catches up and decides again', async () => {
    const store = makeStore();
    const { service: first } = groupingService(store, 'stale-refusal');
    const game = await first.createGame({ ruleset: 'france44' });
    const other = new GameService({ store, signer: signerFromKey(key), seedVault, maxGroup: MAX_GROUP });
    // The other writer has the game cached at version 1, before the turn starts.
    expect((await other.view(game.gameId, game.tokens.organizer)).version).toBe(1);
    await first.submit(game.gameId, game.tokens.organizer, { commandId: 'turn', type: 'StartTurn', payload: { turn: 1 } });
    // On its cache no turn has started, and the rules refuse; on the store's state they accept.
    const outcome = await other.submit(game.gameId, game.tokens.players.allied, { commandId: 'inc', type: 'BeginAttackIncrement', payload: {} });
    expect(outcome).toMatchObject({ created: true, version: 3 });
    // A token reissued through the first writer works at the other at once.
    const reissued = await first.reissueToken(game.gameId, game.tokens.organizer, 'german');
    const withNewToken = await other.submit(game.gameId, reissued.token, { commandId: 'g1', type: 'EndAttackIncrement', payload: {} }).catch((e: unknown) => e);
    // Authenticated as the German side: the rules then answer (the open increment is the Allies').
    expect(withNewToken).toMatchObject({ code: 'rule_violation', rule: expect.stringContaining('declared by the attacker of the open attack increment') });
    // A command the rules do refuse is still refused.
    await expect(other.submit(game.gameId, game.tokens.organizer, { commandId: 'turn-again', type: 'StartTurn', payload: { turn: 1 } })).rejects.toMatchObject({ code: 'rule_violation' });
  });

  it('catches up with another writer of the game and stores each command exactly once', async () => {
    const store = makeStore();
    const one = groupingService(store, 'two-writers');
    const game = await one.service.createGame({ ruleset: 'dice' });
    const token = game.tokens.players.player1;
    const other = new GameService({ store, signer: signerFromKey(key), seedVault, maxGroup: MAX_GROUP });
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? one.service : other).submit(game.gameId, token, roll(`w${i}`))),
    );
    const bundle = await other.exportBundle(game.gameId, game.tokens.organizer);
    expect(bundle.commits.map((c) => c.seq)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    expect(new Set(bundle.commits.map((c) => c.commandId)).size).toBe(31);
    for (const o of outcomes) expect(bundle.commits[o.commit.seq - 1].commandId).toBe(o.commit.commandId);
    expect(verifyBundle(bundle)).toMatchObject({ ok: true });
  });
});

describe('group commit when a write fails', () => {
  it('acknowledges none of a group whose answer is lost; the retries get the commits stored, exactly once', async () => {
    // The second write (the group after x0) lands, and its answer is lost.
    let appends = 0;
    const faulty = new FaultyStore(new DynamoEventStore(dynamo.client, dynamo.tableName, { groups: true }), (operation) => (operation === 'append' && ++appends === 2 ? 'ambiguous' : undefined));
    const { service, writes } = groupingService(faulty, 'lost');
    const game = await service.createGame({ ruleset: 'dice' });
    const token = game.tokens.players.player1;
    const blocker = service.submit(game.gameId, token, roll('x0'));
    await writing(writes, 1);
    const group = [1, 2, 3].map((i) => service.submit(game.gameId, token, roll(`x${i}`)));
    await blocker;
    const answers = await settle(group);
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(answers.map((a) => (a as PromiseRejectedResult).reason.name)).toEqual(['StoreUnavailable', 'StoreUnavailable', 'StoreUnavailable']);
    const retried = await Promise.all([1, 2, 3].map((i) => service.submit(game.gameId, token, roll(`x${i}`))));
    expect(retried.map((r) => r.created)).toEqual([false, false, false]);
    const bundle = await service.exportBundle(game.gameId, game.tokens.organizer);
    expect(bundle.commits.map((c) => c.commandId)).toEqual(['create', 'x0', 'x1', 'x2', 'x3']);
    expect(verifyBundle(bundle)).toMatchObject({ ok: true });
  });
});
