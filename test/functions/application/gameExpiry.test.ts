import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AbandonedGames } from '../../../functions/application/abandonedGames';
import { CreationQuota } from '../../../functions/application/creationQuota';
import { abandonedAt, expiryPolicyOf, leaseEnd, leaseSpreadSeconds, rearms, SWEEP_GRACE_MS } from '../../../functions/application/gameExpiry';
import { GameService } from '../../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { ApplicationError } from '../../../functions/application/errors';
import { hmacTokenMinter } from '../../../functions/application/tokenMinter';
import { MemoryCreationCounter, MemoryEventStore, MemoryGameLeases } from '../../../functions/store/memoryStore';

const DAY = 24 * 60 * 60 * 1000;
const START = Date.parse('2026-11-23T10:00:00.000Z');

/** A service whose clock the test moves, with games that expire after 30 days. */
function expiringService(options: { quotaPerHour?: number } = {}) {
  let clock = START;
  let games = 0;
  const store = new MemoryEventStore();
  const leases = new MemoryGameLeases(store);
  const counter = new MemoryCreationCounter();
  const now = () => new Date(clock).toISOString();
  const policy = { afterDays: 30 };
  const service = new GameService({
    store,
    signer: signerFromKey(generateSigningKey()),
    seedVault: aesSeedVault(newSeedKey()),
    randomSeed: () => createHash('sha256').update(`expiry:${games}`).digest(),
    newGameId: () => `g-expiry-${++games}`,
    now,
    tokenMinter: hmacTokenMinter(Buffer.alloc(32, 7)),
    expiry: policy,
    leases,
    creationQuota: options.quotaPerHour ? new CreationQuota(counter, { perHour: options.quotaPerHour }, now, async (address) => `key:${address}`) : undefined,
  });
  const forgotten: string[] = [];
  const sweeper = new AbandonedGames(leases, policy, now, (gameId) => {
    forgotten.push(gameId);
    service.forgetGame(gameId);
  });
  return {
    service,
    store,
    leases,
    counter,
    sweeper,
    forgotten,
    advance: (ms: number) => (clock += ms),
    roll: (gameId: string, token: string, n: number) => service.submit(gameId, token, { commandId: `c${n}`, type: 'Roll', payload: { dice: 'd6', purpose: `roll ${n}` } }),
  };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ApplicationError);
  return error as ApplicationError;
};

describe('the expiry policy', () => {
  it('reads days from the environment, 0 or nothing meaning never, and refuses anything else', () => {
    expect(expiryPolicyOf(undefined, 'X')).toBeUndefined();
    expect(expiryPolicyOf('0', 'X')).toBeUndefined();
    expect(expiryPolicyOf('90', 'X')).toEqual({ afterDays: 90 });
    for (const bad of ['-1', '1.5', 'ninety', '9999']) expect(() => expiryPolicyOf(bad, 'ARBITER_ABANDONED_GAME_DAYS')).toThrow(/ARBITER_ABANDONED_GAME_DAYS/);
  });

  it('arms a lease that never ends before the game is abandoned, the same for every command of a day', () => {
    const policy = { afterDays: 30 };
    for (const at of ['2026-11-23T00:00:00.000Z', '2026-11-23T10:00:00.000Z', '2026-11-23T23:59:59.999Z']) {
      expect(leaseEnd(policy, at, 'g-1') * 1000).toBeGreaterThanOrEqual(abandonedAt(policy, at) + SWEEP_GRACE_MS);
      expect(leaseEnd(policy, at, 'g-1')).toBe(leaseEnd(policy, '2026-11-23T05:00:00.000Z', 'g-1'));
    }
    expect(rearms('2026-11-23T23:59:59.999Z', '2026-11-24T00:00:00.000Z')).toBe(true);
    expect(rearms('2026-11-23T00:00:00.000Z', '2026-11-23T23:59:59.999Z')).toBe(false);
  });

  it('spreads the leases of the games of one day over the day after, by game id, so that they do not all end in one hour', () => {
    const policy = { afterDays: 30 };
    const at = '2026-11-23T10:00:00.000Z';
    const ends = Array.from({ length: 2400 }, (_, i) => leaseEnd(policy, at, `g-${i.toString(36)}-${(i * 7919).toString(36)}`));
    const first = Math.min(...ends);
    expect(first * 1000).toBeGreaterThanOrEqual(abandonedAt(policy, at) + SWEEP_GRACE_MS);
    expect(Math.max(...ends) - first).toBeLessThan(24 * 60 * 60);
    const perHour = new Array(24).fill(0);
    for (const end of ends) perHour[Math.floor((end - first) / 3600)] += 1;
    // 100 an hour on average: every hour of the day gets some, none more than twice its share.
    expect(Math.min(...perHour)).toBeGreaterThan(50);
    expect(Math.max(...perHour)).toBeLessThan(200);
    expect(leaseSpreadSeconds('g-same')).toBe(leaseSpreadSeconds('g-same'));
  });
});

describe('abandoned games', () => {
  it('arms a lease at creation and again on the first command of each new day, and tells players when the game would be abandoned', async () => {
    const { service, leases, advance, roll } = expiringService();
    const game = await service.createGame({ ruleset: 'dice' });
    const token = game.tokens.players.player1;
    expect(leases.leases.get(game.gameId)).toBe(leaseEnd({ afterDays: 30 }, new Date(START).toISOString(), game.gameId));
    const armed = leases.leases.get(game.gameId);
    advance(60 * 1000);
    await roll(game.gameId, token, 1);
    expect(leases.leases.get(game.gameId)).toBe(armed);
    advance(DAY);
    await roll(game.gameId, token, 2);
    expect(leases.leases.get(game.gameId)).toBe(armed! + 24 * 60 * 60);
    const view = await service.view(game.gameId, token);
    expect(view.abandonedAt).toBe(new Date(START + 60 * 1000 + DAY + 30 * DAY).toISOString());
  });

  it('refuses commands to a game silent for the policy\'s days with 410, but still answers a retried command', async () => {
    const { service, advance, roll } = expiringService();
    const game = await service.createGame({ ruleset: 'dice' });
    const token = game.tokens.players.player1;
    const first = await roll(game.gameId, token, 1);
    advance(30 * DAY - 1);
    await roll(game.gameId, token, 2);
    advance(30 * DAY);
    const error = await refusal(roll(game.gameId, token, 3));
    expect(error.status).toBe(410);
    expect(error.code).toBe('game_abandoned');
    expect(error.message).toContain('30 days');
    const retried = await roll(game.gameId, token, 1);
    expect(retried.created).toBe(false);
    expect(retried.commit.hash).toBe(first.commit.hash);
  });

  it('gives no lease to tournament games or sealed games, and they never expire', async () => {
    const { service, leases, advance, roll } = expiringService();
    const tournament = await service.tournaments.create({ name: 'Cup' });
    const listed = await service.tournaments.createGame({ ruleset: 'dice' }, tournament.token);
    expect(leases.leases.has(listed.gameId)).toBe(false);
    const sealed = await service.createGame({ ruleset: 'dice' });
    expect(leases.leases.has(sealed.gameId)).toBe(true);
    await service.submit(sealed.gameId, sealed.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    expect(leases.leases.has(sealed.gameId)).toBe(false);
    advance(400 * DAY);
    await roll(listed.gameId, listed.tokens.players.player1, 1);
    expect((await service.view(sealed.gameId, sealed.tokens.organizer)).abandonedAt).toBeNull();
  });

  it('deletes every item of an abandoned game when its lease ends, and nothing of another game', async () => {
    const { service, store, sweeper, forgotten, advance, roll } = expiringService();
    const abandoned = await service.createGame({ ruleset: 'dice' });
    await roll(abandoned.gameId, abandoned.tokens.players.player1, 1);
    await service.addViewer(abandoned.gameId, abandoned.tokens.organizer, { label: 'club' });
    await service.reissueToken(abandoned.gameId, abandoned.tokens.organizer, 'player2');
    advance(29 * DAY);
    const active = await service.createGame({ ruleset: 'dice' });
    expect(await sweeper.sweepDue()).toMatchObject({ deleted: 0 });
    // The lease ends within the day after the game's 30 days (its spread).
    advance(3 * DAY + SWEEP_GRACE_MS + 1);
    expect(await sweeper.sweepDue()).toEqual({ deleted: 1, 'kept-sealed': 0, 're-armed': 0, gone: 0 });
    expect(store.hasAnythingOf(abandoned.gameId)).toBe(false);
    expect(forgotten).toEqual([abandoned.gameId]);
    expect((await refusal(service.view(abandoned.gameId, abandoned.tokens.organizer))).status).toBe(404);
    expect((await service.view(active.gameId, active.tokens.organizer)).version).toBe(1);
  });

  it('keeps a game whose lease ended too soon (a re-arm lost) and arms it again; keeps a sealed game whose lease was not dropped', async () => {
    const { service, store, leases, sweeper, advance, roll } = expiringService();
    const game = await service.createGame({ ruleset: 'dice' });
    advance(5 * DAY);
    await roll(game.gameId, game.tokens.players.player1, 1);
    // As if the re-arm of that command had failed: the lease still ends 30 days after creation.
    await leases.arm(game.gameId, leaseEnd({ afterDays: 30 }, new Date(START).toISOString(), game.gameId));
    const sealed = await service.createGame({ ruleset: 'dice' });
    await service.submit(sealed.gameId, sealed.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    await leases.arm(sealed.gameId, 0);
    advance(27 * DAY + SWEEP_GRACE_MS);
    expect(await sweeper.sweepDue()).toEqual({ deleted: 0, 'kept-sealed': 1, 're-armed': 1, gone: 0 });
    expect(leases.leases.get(game.gameId)).toBe(leaseEnd({ afterDays: 30 }, new Date(START + 5 * DAY).toISOString(), game.gameId));
    expect(leases.leases.has(sealed.gameId)).toBe(false);
    expect(store.hasAnythingOf(game.gameId) && store.hasAnythingOf(sealed.gameId)).toBe(true);
  });

  it('sweeps a lease whose game was never stored as nothing', async () => {
    const { leases, sweeper } = expiringService();
    await leases.arm('g-never', 1);
    expect(await sweeper.sweepDue()).toEqual({ deleted: 0, 'kept-sealed': 0, 're-armed': 0, gone: 1 });
    expect(leases.leases.size).toBe(0);
  });
});

describe('the creation quota', () => {
  it('lets an address create its quota in an hour, then answers 429 with Retry-After until the hour ends', async () => {
    const { service, advance } = expiringService({ quotaPerHour: 3 });
    for (let i = 0; i < 3; i++) await service.createGame({ ruleset: 'dice' }, undefined, undefined, '203.0.113.7');
    const error = await refusal(service.createGame({ ruleset: 'dice' }, undefined, undefined, '203.0.113.7'));
    expect(error.status).toBe(429);
    expect(error.code).toBe('creation_quota');
    // 10:00 → the hour ends at 11:00.
    expect(error.headers['retry-after']).toBe('3600');
    expect((await refusal(service.tournaments.create({ name: 'Cup' }, '203.0.113.7'))).status).toBe(429);
    // Another address has its own quota.
    await service.createGame({ ruleset: 'dice' }, undefined, undefined, '198.51.100.1');
    advance(60 * 60 * 1000);
    await service.createGame({ ruleset: 'dice' }, undefined, undefined, '203.0.113.7');
  });

  it('counts neither a creation answered again for its Idempotency-Key nor a refused one; a tournament\'s games count for the address that created the tournament', async () => {
    const { service, store, counter } = expiringService({ quotaPerHour: 3 });
    const key = 'k3Yq8Zr1Vw0aLb9Xc2Nd4e';
    const first = await service.createGame({ ruleset: 'dice' }, undefined, key, '203.0.113.7');
    for (let i = 0; i < 3; i++) expect((await service.createGame({ ruleset: 'dice' }, undefined, key, '203.0.113.7')).gameId).toBe(first.gameId);
    expect((await refusal(service.createGame({ ruleset: 'no-such' }, undefined, undefined, '203.0.113.7'))).status).toBe(400);
    expect((await refusal(service.createGame({ ruleset: 'dice', options: { sides: ['alone'] } }, undefined, undefined, '203.0.113.7'))).status).toBe(400);
    const tournament = await service.tournaments.create({ name: 'Cup' }, '203.0.113.7');
    // Sent from elsewhere with the tournament's token, the game still counts for its creator.
    await service.tournaments.createGame({ ruleset: 'dice' }, tournament.token, undefined, '198.51.100.1');
    expect((await refusal(service.tournaments.createGame({ ruleset: 'dice' }, tournament.token, undefined, '198.51.100.1'))).status).toBe(429);
    expect(await store.listTournamentGames(tournament.tournamentId)).toHaveLength(1);
    expect((await refusal(service.createGame({ ruleset: 'dice' }, undefined, undefined, '203.0.113.7'))).status).toBe(429);
    expect([...counter.counts.values()]).toEqual([3]);
    await service.createGame({ ruleset: 'dice' }, undefined, undefined, '198.51.100.1');
  });
});
