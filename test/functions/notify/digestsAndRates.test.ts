import { describe, expect, it } from 'vitest';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import type { Channel } from '../../../functions/notify/channel';
import type { Notice } from '../../../functions/notify/notice';
import type { NoticeSource } from '../../../functions/notify/noticeSource';
import { NotificationEngine } from '../../../functions/notify/notificationEngine';
import { RateLimit } from '../../../functions/notify/rateLimit';
import { sealTarget } from '../../../functions/notify/sealedTarget';
import type { Digest } from '../../../functions/ports/subscriptionStore';
import { MemorySubscriptions } from '../../../functions/store/memorySubscriptions';

const START = Date.parse('2026-11-27T10:00:00.000Z');

/** A game whose commits say whose move it is after each (as rulesets with a turn model will). */
function gameSource(toMoveAfter: (string | null)[]): NoticeSource {
  const notice = (seq: number): Notice => ({
    gameId: 'g-turns',
    gameTitle: 'turns',
    seq,
    commitId: `g-turns/${seq}`,
    recordedAt: new Date(START + seq * 1000).toISOString(),
    actor: 'a',
    type: 'Roll',
    lines: [`#${seq}`],
    purposes: [],
    turn: '',
    toMove: toMoveAfter[seq - 1] ?? null,
    timelineUrl: 'https://arbiter.example.org/#/games/g-turns',
  });
  return {
    tournamentOf: async () => undefined,
    read: async (_gameId, after, limit) => ({
      notices: Array.from({ length: toMoveAfter.length - after }, (_, i) => notice(after + i + 1)).slice(0, limit),
      toMoveBefore: after === 0 ? null : (toMoveAfter[after - 1] ?? null),
      gameTitle: 'turns',
      granted: () => true,
    }),
  };
}

async function engineFor(source: NoticeSource, digest: Digest, options: { rate?: RateLimit } = {}) {
  const vault = aesSeedVault(newSeedKey());
  const subscriptions = new MemorySubscriptions();
  const clock = { ms: START + 3600_000, waited: [] as number[] };
  const batches: number[][] = [];
  const channel: Channel = { deliver: async (_target, notices) => void batches.push(notices.map((n) => n.seq)) };
  await subscriptions.add({
    subscriptionId: 's-digest',
    scope: { gameId: 'g-turns' },
    kind: 'webhook',
    owner: 'organizer',
    grantedBy: 'creation',
    sealedTarget: await sealTarget(vault, 's-digest', { url: 'https://hooks.example.org/', secret: 'whsec_AAAA' }),
    maskedTarget: 'https://hooks.example.org/',
    digest,
    status: 'active',
    createdAt: new Date(START).toISOString(),
    afterSeq: 1,
  });
  const engine = new NotificationEngine({
    subscriptions,
    vault,
    source,
    channels: { webhook: channel },
    nowMs: () => clock.ms,
    wait: async (ms) => {
      clock.waited.push(ms);
      clock.ms += ms;
    },
    rate: options.rate,
    log: () => undefined,
  });
  return { engine, batches, clock };
}

describe('digests by turn', () => {
  it('send the commits of a turn together once another side is to move, and hold the turn still open', async () => {
    // After #1 (the creation) a is to move; #2 and #3 are a's, after #3 b is; #4 is b's, and b is still to move.
    const { engine, batches } = await engineFor(gameSource(['a', 'a', 'b', 'b']), 'turn');
    await engine.catchUpGame('g-turns');
    expect(batches).toEqual([[2, 3]]);
    await engine.close();
  });

  it('hold an open turn no longer than 24 hours', async () => {
    const { engine, batches, clock } = await engineFor(gameSource(['a', 'a', 'a']), 'turn');
    await engine.catchUpGame('g-turns');
    expect(batches).toEqual([]);
    clock.ms = START + 2000 + 24 * 3600_000;
    await engine.catchUpGame('g-turns');
    expect(batches).toEqual([[2, 3]]);
    await engine.close();
  });

  it('treat each commit as its own turn where the ruleset does not say whose move it is', async () => {
    const { engine, batches } = await engineFor(gameSource([null, null, null]), 'turn');
    await engine.catchUpGame('g-turns');
    expect(batches).toEqual([[2], [3]]);
    await engine.close();
  });
});

describe('rate limits', () => {
  it('make deliveries past the limit wait their turn, none dropped', async () => {
    const { engine, batches, clock } = await engineFor(gameSource(['a', 'b', 'a', 'b', 'a']), 'commit', { rate: new RateLimit(2, 60_000) });
    await engine.catchUpGame('g-turns');
    expect(batches).toEqual([[2], [3], [4], [5]]);
    // Two go at once, then one each time the oldest of the minute leaves it.
    expect(clock.waited.length).toBeGreaterThan(0);
    expect(clock.waited.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(60_000);
    await engine.close();
  });

  it('forget keys whose deliveries all left the window, so random host names cannot grow memory', () => {
    const rate = new RateLimit(1, 60_000);
    for (let i = 0; i <= 10_000; i++) rate.take([`host\nh${i}.example.org`], 0);
    expect(rate.size).toBe(10_001);
    expect(rate.take(['host\nlater.example.org'], 60_000)).toBe(0);
    expect(rate.size).toBe(1);
    expect(rate.take(['host\nlater.example.org'], 60_001)).toBe(59_999);
  });

  it('count per key: another game or host is not held back', () => {
    const rate = new RateLimit(1, 60_000);
    expect(rate.take(['game\ng-1', 'host\na.example.org'], 0)).toBe(0);
    expect(rate.take(['game\ng-1', 'host\nb.example.org'], 1000)).toBe(59_000);
    expect(rate.take(['game\ng-2', 'host\nb.example.org'], 1000)).toBe(0);
    expect(rate.take(['game\ng-3', 'host\na.example.org'], 30_000)).toBe(30_000);
    expect(rate.take(['game\ng-3', 'host\na.example.org'], 60_000)).toBe(0);
  });
});
