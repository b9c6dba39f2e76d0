import { createHash } from 'node:crypto';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { compose, type Adapters } from '../../../functions/compose';
import { beaconRevealHandler, type RevealHandlerDeps } from '../../../functions/lambda/beaconRevealHandler';
import { MemoryEventStore } from '../../../functions/store/memoryStore';
import { MemoryPendingReveals } from '../../../functions/store/memoryPendingReveals';
import { PENDING_REVEALS_KEY, pendingRevealSk, type EntryKeys } from '../../../functions/store/dynamoPendingReveals';
import { FAKE_CHAIN, FakeBeaconSource, fakeSignature, shortWait, TestClock } from '../../support/beaconFakes';

/**
 * The reveal function of AWS (functions/lambda/revealBeacons.ts) on in-memory adapters: the
 * commands side accepts a roll and leaves its entry; the handler, given the stream record of
 * that entry or the schedule's event, reveals it with its own service on the same store.
 */
function setUp(deps: Partial<RevealHandlerDeps> = {}) {
  const clock = new TestClock();
  const store = new MemoryEventStore();
  const pendingReveals = new MemoryPendingReveals();
  const seedKey = newSeedKey();
  const signingKey = generateSigningKey();
  let games = 0;
  const adapters = (): Adapters => ({
    store,
    signer: signerFromKey(signingKey),
    seedVault: aesSeedVault(seedKey),
    randomSeed: () => createHash('sha256').update(`reveal-handler:${games}`).digest(),
    newGameId: () => `g-reveal-${++games}`,
    now: () => clock.now(),
    beaconChains: new Map([[FAKE_CHAIN.chain, FAKE_CHAIN]]),
    revealsBeacons: true,
    pendingReveals,
  });
  const commands = compose({}, adapters());
  const revealSide = compose({}, adapters());
  const source = new FakeBeaconSource(clock);
  const late: unknown[] = [];
  // The entry a stream record's keys name, read from the in-memory store as DynamoPendingReveals.entryAt reads the table.
  const entryAt = async (keys: EntryKeys) =>
    keys.pk?.S === PENDING_REVEALS_KEY ? (await pendingReveals.due(Number.MAX_SAFE_INTEGER, 1000)).find((e) => String(pendingRevealSk(e.gameId, e.seq)) === keys.sk?.N) : undefined;
  const handler = beaconRevealHandler({
    service: async () => revealSide,
    pendingReveals: () => pendingReveals,
    entryAt,
    source: () => source,
    now: () => clock.ms,
    wait: shortWait,
    onLate: (report) => late.push(report),
    log: () => undefined,
    ...deps,
  });
  return { clock, commands, pendingReveals, source, late, handler };
}

const context = (remainingMs = 60_000) => ({ getRemainingTimeInMillis: () => remainingMs });
const schedule = { source: 'aws.events', 'detail-type': 'Scheduled Event' };
/** The stream record of the entry of a game's pending commit. */
const entryRecord = (eventName: 'INSERT' | 'REMOVE', gameId: string, seq: number) => ({ eventName, pk: PENDING_REVEALS_KEY, sk: pendingRevealSk(gameId, seq) });
const streamOf = (...records: { eventName: 'INSERT' | 'MODIFY' | 'REMOVE'; pk: string; sk: number }[]): DynamoDBStreamEvent => ({
  Records: records.map(({ eventName, pk, sk }, i) => ({
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: { Keys: { pk: { S: pk }, sk: { N: String(sk) } }, SequenceNumber: String(i + 1), StreamViewType: 'KEYS_ONLY' },
  })),
});

async function pendingRoll(commands: ReturnType<typeof compose>) {
  const game = await commands.createGame({ ruleset: 'dice', randomness: { beacon: 'fake' } });
  const token = game.tokens.players.player1;
  const pending = await commands.submit(game.gameId, token, { commandId: 'r1', type: 'Roll', payload: { dice: '2d6', purpose: 'attack' } });
  expect(pending.commit.events[0].type).toBe('BeaconRollPending');
  const commits = async () => (await commands.events(game.gameId, token, 0, 100)).commits;
  return { gameId: game.gameId, seq: pending.commit.seq, round: pending.beacon!.round, commits };
}

describe('the reveal function (AWS)', () => {
  it('reveals the pending commit a stream record names, once its round is published, and removes its entry', async () => {
    const { clock, commands, pendingReveals, handler } = setUp();
    const roll = await pendingRoll(commands);
    expect(await pendingReveals.due(Number.MAX_SAFE_INTEGER, 10)).toHaveLength(1);

    const handled = handler(streamOf(entryRecord('INSERT', roll.gameId, roll.seq)), context());
    clock.advance(4_000);
    await expect(handled).resolves.toEqual({ followed: 1 });

    const reveal = (await roll.commits())[roll.seq];
    expect(reveal).toMatchObject({ actor: 'server', commandId: `beacon/${roll.seq}`, command: { type: 'RevealBeacon', payload: { pending: roll.seq, round: roll.round, signature: fakeSignature(roll.round) } } });
    expect(reveal.dice).toHaveLength(2);
    expect(await pendingReveals.due(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
  });

  it('leaves alone the stream records that are no new entry (commits, removed entries) and an entry already removed', async () => {
    const { clock, commands, pendingReveals, source, handler } = setUp();
    const roll = await pendingRoll(commands);
    const summary = await handler(streamOf({ eventName: 'INSERT', pk: roll.gameId, sk: roll.seq }, entryRecord('REMOVE', roll.gameId, roll.seq)), context());
    expect(summary).toEqual({ followed: 0 });
    expect(source.asked).toEqual([]);
    expect(await roll.commits()).toHaveLength(roll.seq);
    // The schedule revealed it first: the stream's record of its entry finds nothing to follow.
    clock.advance(4_000);
    expect(await handler(schedule, context())).toEqual({ due: 1, revealed: 1 });
    expect(await handler(streamOf(entryRecord('INSERT', roll.gameId, roll.seq)), context())).toEqual({ followed: 0 });
    expect(await pendingReveals.due(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
  });

  it('on the schedule, reveals the entries already due', async () => {
    const { clock, commands, handler } = setUp();
    const roll = await pendingRoll(commands);
    // Not yet published: nothing is revealed, nothing waits.
    expect(await handler(schedule, context())).toEqual({ due: 0, revealed: 0 });
    clock.advance(4_000);
    expect(await handler(schedule, context())).toEqual({ due: 1, revealed: 1 });
    expect((await roll.commits())[roll.seq].command.type).toBe('RevealBeacon');
  });

  it('returns before the function times out while every relay is down, keeping the entry for the schedule, which reveals it once a relay answers', async () => {
    const { clock, commands, pendingReveals, source, late, handler } = setUp({ marginMs: 100 });
    const roll = await pendingRoll(commands);
    source.down = true;
    clock.advance(4_000);
    // 300 ms left before the timeout, 100 kept back: the handler stops asking after about 200 ms.
    await expect(handler(streamOf(entryRecord('INSERT', roll.gameId, roll.seq)), context(300))).resolves.toEqual({ followed: 1 });
    expect(source.asked.length).toBeGreaterThan(0);
    expect(await roll.commits()).toHaveLength(roll.seq);
    expect(await pendingReveals.due(clock.ms, 10)).toHaveLength(1);

    source.down = false;
    clock.advance(60_000);
    expect(await handler(schedule, context())).toEqual({ due: 1, revealed: 1 });
    expect((await roll.commits())[roll.seq].command.type).toBe('RevealBeacon');
    expect(late).toEqual([]);
  });

  it('reports a reveal late once, when the schedule finds its round long published and no relay answering', async () => {
    const { clock, commands, source, late, handler } = setUp();
    const roll = await pendingRoll(commands);
    source.down = true;
    clock.advance(60_000);
    expect(await handler(schedule, context())).toEqual({ due: 1, revealed: 0 });
    expect(late).toEqual([{ gameId: roll.gameId, seq: roll.seq, round: roll.round, roundAt: expect.any(String) }]);
  });
});
