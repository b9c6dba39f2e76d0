import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { pendingRoundFor, roundTimeMs } from '../../../domain/beacon/chain';
import { beaconDice } from '../../../domain/beacon/randomness';
import { gameKeyOf } from '../../../domain/fairness/gameKey';
import type { Commit } from '../../../domain/fairness/hashChain';
import { ApplicationError } from '../../../functions/application/errors';
import type { GameService } from '../../../functions/application/gameService';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { compose, type Adapters } from '../../../functions/compose';
import { composeWithReveals, type RevealAdapters } from '../../../functions/composeReveals';
import { UNSTORED_GRACE_MS, type BeaconReveals } from '../../../functions/application/beaconReveals';
import { MemoryEventStore } from '../../../functions/store/memoryStore';
import { MemoryPendingReveals } from '../../../functions/store/memoryPendingReveals';
import { FAKE_CHAIN, FakeBeaconSource, fakeSignature, shortWait, TestClock } from '../../support/beaconFakes';

const seedOf = (n: number) => createHash('sha256').update(`beacon:${n}`).digest();

function beaconService(extra: Partial<Adapters & RevealAdapters> & { revealsHere?: false } = {}, shared?: { store: MemoryEventStore; clock: TestClock; pendingReveals: MemoryPendingReveals; seedKey: Buffer; games: { n: number } }) {
  const clock = shared?.clock ?? new TestClock();
  const store = shared?.store ?? new MemoryEventStore();
  const pendingReveals = shared?.pendingReveals ?? new MemoryPendingReveals();
  const seedKey = shared?.seedKey ?? newSeedKey();
  const games = shared?.games ?? { n: 0 };
  const source = new FakeBeaconSource(clock);
  const late: unknown[] = [];
  const logged: string[] = [];
  const { revealsHere, ...more } = extra;
  const adapters: Adapters = {
    store,
    signer: signerFromKey(generateSigningKey()),
    seedVault: aesSeedVault(seedKey),
    randomSeed: () => seedOf(games.n),
    newGameId: () => `g-beacon-${++games.n}`,
    now: () => clock.now(),
    soleWriter: true,
    beaconChains: new Map([[FAKE_CHAIN.chain, FAKE_CHAIN]]),
    pendingReveals,
  };
  const { service, reveals } =
    revealsHere === false
      ? { service: compose({}, { ...adapters, ...more }), reveals: undefined }
      : composeWithReveals({}, { ...adapters, beaconSource: source, revealWait: shortWait, onLateReveal: (report) => late.push(report), revealLog: (line) => logged.push(line), ...more });
  if (reveals) open.push(reveals);
  return { service, reveals, store, clock, source, pendingReveals, late, logged, shared: { store, clock, pendingReveals, seedKey, games } };
}

const open: BeaconReveals[] = [];
afterEach(async () => {
  for (const reveals of open.splice(0)) await reveals.close();
});

async function newBeaconGame(service: GameService) {
  const created = await service.createGame({ ruleset: 'dice', randomness: { beacon: 'fake' } });
  return { ...created, p1: created.tokens.players.player1, p2: created.tokens.players.player2, organizer: created.tokens.organizer };
}

const roll = (commandId: string, dice = '3d6') => ({ commandId, type: 'Roll', payload: { dice, purpose: `roll ${commandId}` } });

async function commits(service: GameService, gameId: string, token: string): Promise<Commit[]> {
  return (await service.events(gameId, token, 0, 1000)).commits;
}

async function refusal(promise: Promise<unknown>): Promise<ApplicationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApplicationError);
  return error as ApplicationError;
}

describe('a beacon game in the service (beacon.md §2)', () => {
  it('records the chain at creation and makes a rolling command a pending commit, then reveals it with the dice of §3', async () => {
    const { service, clock } = beaconService();
    const game = await newBeaconGame(service);
    const [create] = await commits(service, game.gameId, game.organizer);
    expect(create.events[0].data.beacon).toEqual(FAKE_CHAIN);

    const acceptedAt = clock.ms;
    const pending = await service.submit(game.gameId, game.p1, roll('r1'));
    expect(pending.created).toBe(true);
    expect(pending.commit.dice).toEqual([]);
    const round = pending.commit.events[0].data.round as number;
    expect(pending.commit.events).toEqual([{ type: 'BeaconRollPending', data: { round, roundAt: new Date(roundTimeMs(FAKE_CHAIN, round)).toISOString() } }]);
    // The first round at least one whole period after the acceptance, recorded at the clock's time.
    expect(pending.commit.recordedAt).toBe(new Date(acceptedAt).toISOString());
    expect(roundTimeMs(FAKE_CHAIN, round)).toBeGreaterThanOrEqual(acceptedAt + 3000);
    expect(roundTimeMs(FAKE_CHAIN, round - 1)).toBeLessThan(acceptedAt + 3000);
    expect(pending.beacon).toEqual({ chain: 'fake', round, roundAt: pending.commit.events[0].data.roundAt });

    clock.advance(4000);
    await expect.poll(async () => (await commits(service, game.gameId, game.p1)).length).toBe(3);
    const reveal = (await commits(service, game.gameId, game.p1))[2];
    expect(reveal).toMatchObject({ seq: 3, actor: 'server', commandId: 'beacon/2', command: { type: 'RevealBeacon', payload: { pending: 2, round, signature: fakeSignature(round) } } });
    expect(reveal.events[0].type).toBe('DiceRolled');
    const dice = beaconDice(gameKeyOf(seedOf(0), game.gameId, []), FAKE_CHAIN, round, fakeSignature(round), 2);
    expect(reveal.dice).toEqual(reveal.dice.map((d) => ({ sides: d.sides, value: dice.roll(d.sides) })));
    expect(reveal.dice).toHaveLength(3);
  });

  it('names the round from the recordedAt the commit carries, even on a clock that moves between two readings', async () => {
    const { service, clock } = beaconService();
    const game = await newBeaconGame(service);
    const reading = clock.now;
    // Each reading one period later: a round chosen from another reading than the commit's would be off by one.
    (clock as { now: () => string }).now = () => {
      clock.advance(3000);
      return reading();
    };
    const pending = await service.submit(game.gameId, game.p1, roll('r1'));
    expect(pending.beacon!.round).toBe(pendingRoundFor(FAKE_CHAIN, pending.commit.recordedAt));
  });

  it('wakes a long poll and the commit listeners with the reveal, as with any commit', async () => {
    const { service, clock } = beaconService();
    const game = await newBeaconGame(service);
    const heard: string[] = [];
    service.onCommit((commit) => heard.push(commit.commandId));
    await service.submit(game.gameId, game.p1, roll('r1'));
    const poll = service.events(game.gameId, game.p2, 2, 10, 20);
    clock.advance(4000);
    expect((await poll).commits.map((c) => c.commandId)).toEqual(['beacon/2']);
    expect(heard).toEqual(['r1', 'beacon/2']);
  });

  it('commits a command that draws no die at once, as in any game', async () => {
    const { service } = beaconService();
    const game = await newBeaconGame(service);
    const outcome = await service.submit(game.gameId, game.p1, { commandId: 'e1', type: 'ContributeEntropy', payload: { entropy: 'mine' } });
    expect(outcome.created).toBe(true);
    expect(outcome.beacon).toBeUndefined();
    expect(outcome.commit.events[0].type).toBe('EntropyContributed');
  });

  it('answers every other append 409 beacon_pending with Retry-After while a roll waits: a command, Seal and ContributeEntropy alike', async () => {
    const { service, clock } = beaconService();
    const game = await newBeaconGame(service);
    const pending = await service.submit(game.gameId, game.p1, roll('r1'));
    const roundAtMs = Date.parse(pending.beacon!.roundAt);
    const attempts = [
      service.submit(game.gameId, game.p2, roll('r2')),
      service.submit(game.gameId, game.organizer, { commandId: 's', type: 'Seal', payload: {} }),
      service.submit(game.gameId, game.p2, { commandId: 'e', type: 'ContributeEntropy', payload: { entropy: 'late' } }),
      service.revokeToken(game.gameId, game.organizer, 'player2'),
    ];
    for (const attempt of attempts) {
      const error = await refusal(attempt);
      expect(error).toMatchObject({ status: 409, code: 'beacon_pending', details: { round: pending.beacon!.round, roundAt: pending.beacon!.roundAt } });
      expect(error.headers['retry-after']).toBe(String(Math.ceil((roundAtMs - clock.ms) / 1000) + 3));
    }
    expect(await commits(service, game.gameId, game.p1)).toHaveLength(2);
  });

  it('refuses a command behind a pending one in the same group, and takes it once revealed', async () => {
    const { service, clock } = beaconService({ maxGroup: 16 });
    const game = await newBeaconGame(service);
    const [first, second] = await Promise.allSettled([service.submit(game.gameId, game.p1, roll('a')), service.submit(game.gameId, game.p2, roll('b'))]);
    expect(first.status).toBe('fulfilled');
    expect(second.status === 'rejected' && (second.reason as ApplicationError).code).toBe('beacon_pending');
    clock.advance(4000);
    await expect.poll(async () => (await commits(service, game.gameId, game.p1)).length).toBe(3);
    const next = await service.submit(game.gameId, game.p2, roll('b'));
    expect(next.commit.seq).toBe(4);
    expect(next.beacon).toBeDefined();
  });

  it('answers a retried commandId with the pending commit while it waits, then with the pair', async () => {
    const { service, clock } = beaconService();
    const game = await newBeaconGame(service);
    const pending = await service.submit(game.gameId, game.p1, roll('r1'));
    const again = await service.submit(game.gameId, game.p1, roll('r1'));
    expect(again).toMatchObject({ created: false, commit: pending.commit, beacon: pending.beacon });
    expect(again.reveal).toBeUndefined();
    clock.advance(4000);
    await expect.poll(async () => (await commits(service, game.gameId, game.p1)).length).toBe(3);
    const after = await service.submit(game.gameId, game.p1, roll('r1'));
    expect(after.created).toBe(false);
    expect(after.commit).toEqual(pending.commit);
    expect(after.reveal).toEqual((await commits(service, game.gameId, game.p1))[2]);
  });

  it('reveals once, and not before its round: the same reveal again answers the stored one, and a reveal of no pending commit is refused', async () => {
    const { service, source, clock } = beaconService();
    source.down = true;
    const game = await newBeaconGame(service);
    const pending = await service.submit(game.gameId, game.p1, roll('r1'));
    const payload = { pending: 2, round: pending.beacon!.round, signature: fakeSignature(pending.beacon!.round) };
    // Not before its round's time by the server's clock (review: a reveal recorded early fails every verifier).
    await expect(service.reveal(game.gameId, payload)).rejects.toThrow(/is not due until/);
    expect(await commits(service, game.gameId, game.p1)).toHaveLength(2);
    clock.ms = Date.parse(pending.beacon!.roundAt);
    const [one, two] = await Promise.all([service.reveal(game.gameId, payload), service.reveal(game.gameId, payload)]);
    const three = await service.reveal(game.gameId, payload);
    expect([one.created, two.created, three.created]).toEqual([true, false, false]);
    expect(two.commit).toEqual(one.commit);
    expect(three.commit).toEqual(one.commit);
    expect(await commits(service, game.gameId, game.p1)).toHaveLength(3);
    await expect(service.reveal(game.gameId, { ...payload, pending: 3 })).rejects.toThrow(/no commit is pending/);
  });

  it('keeps an entry whose pending commit is not stored yet (a slow signer or store), and drops it only long after its round', async () => {
    const { service, reveals, clock, pendingReveals } = beaconService();
    const game = await newBeaconGame(service);
    // The entry is written before its commit: here the commit of seq 2 has not landed.
    await pendingReveals.add(game.gameId, 2, 5, clock.ms);
    await reveals!.revealDue(clock.ms);
    expect(await pendingReveals.due(clock.ms, 10)).toEqual([expect.objectContaining({ gameId: game.gameId, seq: 2 })]);
    clock.advance(UNSTORED_GRACE_MS + 1000);
    await reveals!.revealDue(clock.ms);
    expect(await pendingReveals.due(clock.ms, 10)).toEqual([]);
  });

  it('stores one reveal when two processes reveal the same pending commit at once', async () => {
    const one = beaconService({ soleWriter: false });
    one.source.down = true;
    const game = await newBeaconGame(one.service);
    const pending = await one.service.submit(game.gameId, game.p1, roll('r1'));
    const two = beaconService({ soleWriter: false }, one.shared);
    two.source.down = true;
    const payload = { pending: 2, round: pending.beacon!.round, signature: fakeSignature(pending.beacon!.round) };
    one.clock.ms = Date.parse(pending.beacon!.roundAt);
    const outcomes = await Promise.all([one.service.reveal(game.gameId, payload), two.service.reveal(game.gameId, payload)]);
    expect(outcomes.map((o) => o.created).sort()).toEqual([false, true]);
    expect(outcomes[0].commit).toEqual(outcomes[1].commit);
    expect((await commits(two.service, game.gameId, game.p1)).map((c) => c.commandId)).toEqual(['create', 'r1', 'beacon/2']);
  });

  it('keeps asking a source that is down, reveals once it is up, reports the late reveal once and loses nothing', async () => {
    const { service, clock, source, late, logged, pendingReveals } = beaconService();
    source.down = true;
    const game = await newBeaconGame(service);
    const pending = await service.submit(game.gameId, game.p1, roll('r1'));
    clock.advance(4000);
    await expect.poll(() => source.asked.length).toBeGreaterThan(2);
    expect(late).toEqual([]);
    expect((await service.view(game.gameId, game.p1)).beacon).toEqual({ chain: 'fake', chainHash: FAKE_CHAIN.chainHash, pending: { seq: 2, round: pending.beacon!.round, roundAt: pending.beacon!.roundAt, late: false } });
    clock.advance(20_000);
    await expect.poll(() => late.length).toBe(1);
    const asked = source.asked.length;
    await expect.poll(() => source.asked.length).toBeGreaterThan(asked + 1);
    expect(late).toEqual([{ gameId: game.gameId, seq: 2, round: pending.beacon!.round, roundAt: pending.beacon!.roundAt }]);
    expect(logged.filter((line) => line.includes('beacon_reveal_late'))).toEqual([
      JSON.stringify({ level: 'warn', message: 'beacon_reveal_late', gameId: game.gameId, seq: 2, round: pending.beacon!.round, roundAt: pending.beacon!.roundAt }),
    ]);
    expect((await service.view(game.gameId, game.p1)).beacon?.pending?.late).toBe(true);
    source.down = false;
    await expect.poll(async () => (await commits(service, game.gameId, game.p1)).length).toBe(3);
    expect((await service.view(game.gameId, game.p1)).beacon).toEqual({ chain: 'fake', chainHash: FAKE_CHAIN.chainHash });
    expect(await pendingReveals.due(clock.ms, 10)).toEqual([]);
    expect(late).toHaveLength(1);
  });

  it('finds a pending commit after a restart in PendingReveals and reveals it', async () => {
    // The first process accepts and stops before revealing (as the commands function on AWS, which reveals nothing).
    const first = beaconService({ revealsHere: false, revealsBeacons: true });
    const game = await newBeaconGame(first.service);
    const pending = await first.service.submit(game.gameId, game.p1, roll('r1'));
    expect(await first.pendingReveals.due(Number.MAX_SAFE_INTEGER, 10)).toEqual([{ gameId: game.gameId, seq: 2, round: pending.beacon!.round, dueAtMs: Date.parse(pending.beacon!.roundAt) }]);
    const second = beaconService({}, first.shared);
    expect(await second.reveals!.revealDue(first.clock.ms)).toEqual({ due: 0, revealed: 0 });
    first.clock.advance(4000);
    expect(await second.reveals!.revealDue(first.clock.ms)).toEqual({ due: 1, revealed: 1 });
    const stored = await commits(second.service, game.gameId, game.p1);
    expect(stored.map((c) => c.commandId)).toEqual(['create', 'r1', 'beacon/2']);
    expect(await first.pendingReveals.due(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
    // Due again (a schedule that ran twice): found revealed, nothing appended.
    await first.pendingReveals.add(game.gameId, 2, pending.beacon!.round, 0);
    expect(await second.reveals!.revealDue(first.clock.ms)).toEqual({ due: 1, revealed: 0 });
    expect(await commits(second.service, game.gameId, game.p1)).toHaveLength(3);
    expect(await first.pendingReveals.due(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
  });

  it('follows, when it starts, a pending commit whose round has not come yet, and reveals it when it comes', async () => {
    const first = beaconService({ revealsHere: false, revealsBeacons: true });
    const game = await newBeaconGame(first.service);
    await first.service.submit(game.gameId, game.p1, roll('r1'));
    const second = beaconService({}, first.shared);
    expect(await second.reveals!.resume()).toBe(1);
    expect(await commits(second.service, game.gameId, game.p1)).toHaveLength(2);
    first.clock.advance(4000);
    await expect.poll(async () => (await commits(second.service, game.gameId, game.p1)).map((c) => c.commandId)).toEqual(['create', 'r1', 'beacon/2']);
  });
});

describe('creating beacon games', () => {
  it('refuses a chain the server does not offer with 400 naming randomness.beacon and the chains it offers', async () => {
    const { service } = beaconService();
    const error = await refusal(service.createGame({ ruleset: 'dice', randomness: { beacon: 'mainnet' } }));
    expect(error).toMatchObject({ status: 400, code: 'invalid_request', details: { issues: [{ field: 'randomness.beacon', valid: ['fake'] }] } });
    expect(error.message).toContain('"mainnet"');
    for (const name of ['__proto__', 'constructor', 'toString']) {
      expect(await refusal(service.createGame({ ruleset: 'dice', randomness: { beacon: name } }))).toMatchObject({ status: 400, details: { issues: [{ field: 'randomness.beacon' }] } });
    }
  });

  it('refuses beacon games with 422 where nothing reveals them, naming the setting', async () => {
    const { service } = beaconService({ revealsHere: false });
    const error = await refusal(service.createGame({ ruleset: 'dice', randomness: { beacon: 'fake' } }));
    expect(error).toMatchObject({ status: 422, code: 'beacon_unavailable' });
    expect(error.message).toContain('ARBITER_DRAND_RELAYS');
    expect((await service.createGame({ ruleset: 'dice' })).version).toBe(1);
  });

  it('refuses a roll in a beacon game with 422 on a server that no longer reveals, and takes commands that draw no die', async () => {
    const first = beaconService();
    const game = await newBeaconGame(first.service);
    const after = beaconService({ revealsHere: false, beaconChains: undefined }, first.shared);
    const error = await refusal(after.service.submit(game.gameId, game.p1, roll('r1')));
    expect(error).toMatchObject({ status: 422, code: 'beacon_unavailable' });
    expect(await after.pendingReveals.due(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
    const entropy = await after.service.submit(game.gameId, game.p1, { commandId: 'e', type: 'ContributeEntropy', payload: { entropy: 'still' } });
    expect(entropy.commit.seq).toBe(2);
  });

  it("makes every game of a beacon tournament a beacon game of its chain, and refuses a game naming another", async () => {
    const { service } = beaconService({ beaconChains: new Map([['fake', FAKE_CHAIN], ['other', { ...FAKE_CHAIN, chain: 'other' }]]) });
    const tournament = await service.tournaments.create({ name: 'beacon cup', randomness: { beacon: 'fake' } });
    expect(tournament.randomness).toEqual({ beacon: 'fake' });
    const game = await service.tournaments.createGame({ ruleset: 'dice' }, tournament.token);
    const [create] = (await service.events(game.gameId, game.tokens.organizer, 0, 10)).commits;
    expect(create.events[0].data.beacon).toEqual(FAKE_CHAIN);
    expect(create.command.payload).toMatchObject({ randomness: { beacon: 'fake' } });
    const other = await refusal(service.tournaments.createGame({ ruleset: 'dice', randomness: { beacon: 'other' } }, tournament.token));
    expect(other).toMatchObject({ status: 400, details: { issues: [{ field: 'randomness.beacon', valid: ['fake'] }] } });
    const unknown = await refusal(service.tournaments.create({ randomness: { beacon: 'nope' } }));
    expect(unknown).toMatchObject({ status: 400, details: { issues: [{ field: 'randomness.beacon' }] } });
  });

  it('leaves a game without randomness as it was: dice at once, no beacon in its view', async () => {
    const { service } = beaconService();
    const game = await service.createGame({ ruleset: 'dice' });
    const outcome = await service.submit(game.gameId, game.tokens.players.player1, roll('r1'));
    expect(outcome.commit.dice).toHaveLength(3);
    expect(outcome.beacon).toBeUndefined();
    expect(await service.view(game.gameId, game.tokens.players.player1)).not.toHaveProperty('beacon');
  });
});
