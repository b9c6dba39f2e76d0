import { afterEach, describe, expect, it, vi } from 'vitest';
import { GameService } from '../../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { composeNotifications } from '../../../functions/composeNotifications';
import { startLocalService } from '../../../functions/local/localService';
import type { Channel } from '../../../functions/notify/channel';
import { discordChannel, discordEscaped } from '../../../functions/notify/chatChannels';
import type { Notice } from '../../../functions/notify/notice';
import type { NoticeSource } from '../../../functions/notify/noticeSource';
import { NotificationEngine, type EngineDeps } from '../../../functions/notify/notificationEngine';
import { RateLimit } from '../../../functions/notify/rateLimit';
import { sealTarget } from '../../../functions/notify/sealedTarget';
import { webhookChannel } from '../../../functions/notify/webhookChannel';
import type { EventStore } from '../../../functions/ports/eventStore';
import type { Digest } from '../../../functions/ports/subscriptionStore';
import { MemoryEventStore } from '../../../functions/store/memoryStore';
import { MemorySubscriptions } from '../../../functions/store/memorySubscriptions';
import { startReceiver } from '../../support/webhookReceiver';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const START = Date.parse('2026-11-27T10:00:00.000Z');
const roll = (commandId: string) => ({ commandId, type: 'Roll', payload: { dice: '2d6', purpose: commandId } });
const seqsOf = (received: { body: string }[]) => received.map((request) => (JSON.parse(request.body).data.notices as Notice[]).map((notice) => notice.seq));

async function receiver(...args: Parameters<typeof startReceiver>) {
  const started = await startReceiver(...args);
  closers.push(started.close);
  return started;
}

/** A played game with notifications, the engine reading the commits through `engineStore` (a counting one, say). */
function notifyingGame(engine: Partial<EngineDeps>, engineStore?: (store: EventStore) => EventStore) {
  const store = new MemoryEventStore();
  const vault = aesSeedVault(newSeedKey());
  const notifications = composeNotifications({
    store: engineStore ? engineStore(store) : store,
    subscriptions: new MemorySubscriptions(),
    vault,
    publicUrl: () => 'https://arbiter.example.org',
    allowLoopback: true,
    engine: { nowMs: () => START, log: () => undefined, ...engine },
  });
  const service = new GameService({ store, signer: signerFromKey(generateSigningKey()), seedVault: vault, now: () => new Date(START).toISOString(), subscriptions: notifications.subscriptions });
  service.onCommit((commit) => notifications.engine.stored(commit.gameId));
  closers.push(() => notifications.engine.close());
  return { service, engine: notifications.engine };
}

describe('each subscription of a game', () => {
  it('catches up on its own: a receiver that keeps failing holds back neither the next commit to a healthy one nor its rate budget', async () => {
    // The test's clock: every wait (back-off or rate) lasts until the test lets it end.
    const waits: (() => void)[] = [];
    const { service } = notifyingGame({
      wait: () => new Promise<void>((resolve) => waits.push(resolve)),
      retry: { attempts: 8, firstDelayMs: 1000, maxDelayMs: 64_000 },
      // Three deliveries a minute per game (and per host): the healthy one's and the failing one's three tries would spend it if retries counted.
      rate: new RateLimit(3, 60_000),
    });
    const game = await service.createGame({ ruleset: 'dice' });
    const failing = await receiver((_, response) => void response.writeHead(503).end());
    const healthy = await receiver();
    await service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: failing.url });
    await service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: healthy.url });

    await service.submit(game.gameId, game.tokens.organizer, roll('first'));
    await expect.poll(() => seqsOf(healthy.received)).toEqual([[2]]);
    await expect.poll(() => failing.received.length).toBe(1);
    for (let tries = 2; tries <= 3; tries++) {
      await expect.poll(() => waits.length).toBeGreaterThan(0);
      waits.shift()!();
      await expect.poll(() => failing.received.length).toBe(tries);
    }

    // The failing one is in its back-off (a wait nobody ends): the healthy one is told the next commit all the same.
    await service.submit(game.gameId, game.tokens.organizer, roll('second'));
    await expect.poll(() => seqsOf(healthy.received)).toEqual([[2], [3]]);
    expect(failing.received).toHaveLength(3);
  });

  it('read and fold the game once per new commit for all its subscriptions, not once per subscription from the start', async () => {
    const reads: number[] = [];
    const counting = (store: EventStore) =>
      new Proxy(store, {
        get(target, name) {
          if (name === 'read')
            return async (...args: Parameters<EventStore['read']>) => {
              const commits = await target.read(...args);
              reads.push(commits.length);
              return commits;
            };
          const value = Reflect.get(target, name);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    const { service } = notifyingGame({ rate: new RateLimit(10_000, 60_000) }, counting);
    const game = await service.createGame({ ruleset: 'dice' });
    const hooks = await Promise.all([receiver(), receiver(), receiver()]);
    for (const hook of hooks) await service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: hook.url });
    // A game with some history before the count starts.
    for (let i = 0; i < 20; i++) await service.submit(game.gameId, game.tokens.organizer, roll(`early-${i}`));
    for (const hook of hooks) await expect.poll(() => hook.received.length).toBe(20);

    reads.length = 0;
    const commits = 10;
    for (let i = 0; i < commits; i++) {
      await service.submit(game.gameId, game.tokens.organizer, roll(`counted-${i}`));
      for (const hook of hooks) await expect.poll(() => hook.received.length).toBe(21 + i);
    }
    expect(reads.length).toBeLessThanOrEqual(2 * commits);
    // Each read brings the commits stored since the one before, not the game from its start.
    expect(reads.reduce((sum, read) => sum + read, 0)).toBeLessThanOrEqual(2 * commits);
  });
});

/** One game's notices, as many as `purposes` says, each with a purpose that long (seq 2 onwards). */
function bulkySource(purposeLengths: number[]): NoticeSource {
  const notice = (seq: number): Notice => ({
    gameId: 'g-bulky',
    gameTitle: 'bulky',
    seq,
    commitId: `g-bulky/${seq}`,
    recordedAt: new Date(START + seq * 1000).toISOString(),
    actor: 'player1',
    type: 'Roll',
    lines: [`#${seq} player1 Roll`],
    purposes: ['x'.repeat(purposeLengths[seq - 2]!)],
    turn: '',
    toMove: null,
    timelineUrl: 'https://arbiter.example.org/#/games/g-bulky',
  });
  const last = purposeLengths.length + 1;
  return {
    tournamentOf: async () => undefined,
    read: async (_gameId, after, limit) => ({
      notices: Array.from({ length: Math.max(0, last - after) }, (_, i) => notice(after + i + 1)).slice(0, limit),
      toMoveBefore: null,
      gameTitle: 'bulky',
      granted: () => true,
    }),
  };
}

async function oneSubscription(source: NoticeSource, channel: Channel, digest: Digest, engine: Partial<EngineDeps> = {}, url = 'http://127.0.0.1:9/', kind: 'webhook' | 'discord' = 'webhook') {
  const vault = aesSeedVault(newSeedKey());
  const subscriptions = new MemorySubscriptions();
  await subscriptions.add({
    subscriptionId: 's-one',
    scope: { gameId: 'g-bulky' },
    kind,
    owner: 'organizer',
    grantedBy: 'creation',
    sealedTarget: await sealTarget(vault, 's-one', { url, secret: 'whsec_AAAA' }),
    maskedTarget: 'http://127.0.0.1/',
    digest,
    status: 'active',
    createdAt: new Date(START).toISOString(),
    afterSeq: 1,
  });
  const deps: EngineDeps = { subscriptions, vault, source, channels: { [kind]: channel }, nowMs: () => START + 3600_000, wait: async () => undefined, log: () => undefined, ...engine };
  const notifications = new NotificationEngine(deps);
  closers.push(() => notifications.close());
  return { engine: notifications, subscriptions };
}

describe('a digest larger than a delivery may be', () => {
  it('goes in parts, each the longest run of commits that fits; a commit too large alone is dead-lettered alone', async () => {
    const hook = await receiver();
    const channel = webhookChannel({ allowLoopback: true });
    const { engine, subscriptions } = await oneSubscription(bulkySource([25_000, 25_000, 25_000, 70_000, 100]), channel, { everyMinutes: 5 }, {}, hook.url);
    await engine.catchUpGame('g-bulky');
    expect(seqsOf(hook.received)).toEqual([[2, 3], [4], [6]]);
    expect(hook.received.every((request) => Buffer.byteLength(request.body) <= 64 * 1024)).toBe(true);
    expect(await subscriptions.deadLetters('s-one')).toEqual([{ seq: 5, at: expect.any(String), error: 'the notification is larger than 64 KB' }]);
  });
});

describe('a digest larger than a chat message may be', () => {
  it('reaches Discord in several messages, each within 2000 characters once escaped, none cut, every commit there', async () => {
    const hook = await receiver();
    const source = bulkySource(Array(20).fill(1));
    const read = source.read.bind(source);
    // '_' doubles when escaped: the length measured must be the escaped one.
    source.read = async (...args) => {
      const page = (await read(...args))!;
      return { ...page, notices: page.notices.map((notice) => ({ ...notice, lines: [`#${notice.seq} ${'_'.repeat(300)}`] })) };
    };
    const { engine } = await oneSubscription(source, discordChannel({ allowLoopback: true }), { everyMinutes: 5 }, {}, hook.url, 'discord');
    await engine.catchUpGame('g-bulky');
    const contents = hook.received.map((request) => JSON.parse(request.body).content as string);
    expect(contents.length).toBeGreaterThan(1);
    expect(contents.every((content) => content.length <= 2000)).toBe(true);
    expect(contents.join('\n')).toBe(Array.from({ length: 20 }, (_, i) => discordEscaped(`#${i + 2} ${'_'.repeat(300)}`)).join('\n'));
  });
});

describe('a turn digest of a subscription whose cursor is later than another\'s', () => {
  it('reads its own page, so it sees where its turn ends', async () => {
    // Seqs 2–130; north to move until #120, south from #121 on.
    const toMove = (seq: number) => (seq < 121 ? 'north' : 'south');
    const notice = (seq: number): Notice => ({
      gameId: 'g-turns', gameTitle: 'turns', seq, commitId: `g-turns/${seq}`, recordedAt: new Date(START + seq * 1000).toISOString(),
      actor: 'north', type: 'Roll', lines: [`#${seq}`], purposes: [], turn: '', toMove: toMove(seq), timelineUrl: 'https://arbiter.example.org/#/games/g-turns',
    });
    const source: NoticeSource = {
      tournamentOf: async () => undefined,
      read: async (_gameId, after, limit) => ({
        notices: Array.from({ length: Math.max(0, 130 - after) }, (_, i) => notice(after + i + 1)).slice(0, limit),
        toMoveBefore: after >= 2 ? toMove(after) : null,
        gameTitle: 'turns',
        granted: () => true,
      }),
    };
    const vault = aesSeedVault(newSeedKey());
    const subscriptions = new MemorySubscriptions();
    for (const [subscriptionId, afterSeq] of [['s-early', 1], ['s-late', 90]] as const) {
      await subscriptions.add({
        subscriptionId, scope: { gameId: 'g-turns' }, kind: 'webhook', owner: 'organizer', grantedBy: 'creation',
        sealedTarget: await sealTarget(vault, subscriptionId, { url: 'http://127.0.0.1:9/', secret: 'whsec_AAAA' }), maskedTarget: 'http://127.0.0.1/',
        digest: 'turn', status: 'active', createdAt: new Date(START).toISOString(), afterSeq,
      });
    }
    const late: number[][] = [];
    const channel: Channel = { deliver: async (target, notices) => void (target.subscriptionId === 's-late' && late.push(notices.map((n) => n.seq))) };
    const engine = new NotificationEngine({ subscriptions, vault, source, channels: { webhook: channel }, nowMs: () => START + 3600_000, wait: async () => undefined, log: () => undefined });
    closers.push(() => engine.close());
    await engine.catchUpGame('g-turns');
    expect(late).toEqual([Array.from({ length: 31 }, (_, i) => 91 + i)]);
  });
});

describe('the minute\'s tick', () => {
  it('catches up at most 8 games at once', async () => {
    const games = Array.from({ length: 20 }, (_, i) => `g-${i}`);
    const engine = new NotificationEngine({
      subscriptions: new MemorySubscriptions(), vault: aesSeedVault(newSeedKey()), source: bulkySource([]), channels: {}, subscribedGames: async () => games, log: () => undefined,
    });
    closers.push(() => engine.close());
    const gates: (() => void)[] = [];
    vi.spyOn(engine, 'catchUpGame').mockImplementation(() => new Promise<void>((resolve) => gates.push(resolve)));
    const ticked = engine.tick(new Date(START).toISOString());
    for (let released = 0; released < games.length; released++) {
      await expect.poll(() => gates.length).toBe(Math.min(8, games.length - released));
      gates.shift()!();
    }
    await ticked;
    expect(engine.catchUpGame).toHaveBeenCalledTimes(20);
  });
});

describe('a run that throws', () => {
  const delivered = () => {
    const seqs: number[][] = [];
    const channel: Channel = { deliver: async (_target, notices) => void seqs.push(notices.map((notice) => notice.seq)) };
    return { seqs, channel };
  };
  const retry = { attempts: 3, firstDelayMs: 5, maxDelayMs: 20 };

  it('is tried again after a back-off when the store failed reading the commits', async () => {
    const source = bulkySource([10, 10]);
    const read = source.read.bind(source);
    let failures = 1;
    source.read = async (...args) => {
      if (failures-- > 0) throw new Error('the store is busy');
      return read(...args);
    };
    const { seqs, channel } = delivered();
    const { engine } = await oneSubscription(source, channel, 'commit', { retry });
    engine.stored('g-bulky');
    await expect.poll(() => seqs).toEqual([[2], [3]]);
  });

  it('is tried again after a back-off when the store failed moving a cursor', async () => {
    const { seqs, channel } = delivered();
    const { engine, subscriptions } = await oneSubscription(bulkySource([10, 10]), channel, 'commit', { retry });
    const advance = subscriptions.advance.bind(subscriptions);
    let failures = 1;
    subscriptions.advance = async (...args) => {
      if (failures-- > 0) throw new Error('the store is busy');
      return advance(...args);
    };
    engine.stored('g-bulky');
    // #2 was delivered, its cursor not moved: it is delivered again (same message id), then #3.
    await expect.poll(() => seqs).toEqual([[2], [2], [3]]);
  });

  it('makes catchUpGame reject once its runs settled (the queue gives the message again); the next call delivers', async () => {
    const { seqs, channel } = delivered();
    // A back-off longer than the test: only the calls below run it.
    const { engine, subscriptions } = await oneSubscription(bulkySource([10, 10]), channel, 'commit', { retry: { attempts: 3, firstDelayMs: 3600_000, maxDelayMs: 3600_000 } });
    const advance = subscriptions.advance.bind(subscriptions);
    let failures = 1;
    subscriptions.advance = async (...args) => {
      if (failures-- > 0) throw new Error('the store is busy');
      return advance(...args);
    };
    await expect(engine.catchUpGame('g-bulky')).rejects.toThrow('the store is busy');
    await engine.catchUpGame('g-bulky');
    expect(seqs).toEqual([[2], [2], [3]]);
  });
});

describe('the local server', () => {
  it('closes at once while a delivery waits in its back-off', async () => {
    const local = await startLocalService({
      notifications: { allowLoopback: true, engine: { retry: { attempts: 8, firstDelayMs: 3600_000, maxDelayMs: 3600_000 }, log: () => undefined } },
      notifyTickEveryMs: 20,
    });
    let closed = false;
    closers.push(async () => {
      if (!closed) await local.close();
    });
    const failing = await receiver((_, response) => void response.writeHead(503).end());
    const game = await local.service.createGame({ ruleset: 'dice' });
    await local.service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: failing.url });
    const tick = vi.spyOn(local.notifications, 'tick');
    await local.service.submit(game.gameId, game.tokens.organizer, roll('lost'));
    await expect.poll(() => failing.received.length).toBe(1);
    // A tick after the first try waits for that delivery, which waits an hour before its next try.
    const ticksBefore = tick.mock.calls.length;
    await expect.poll(() => tick.mock.calls.length).toBeGreaterThan(ticksBefore);
    const outcome = await Promise.race([local.close().then(() => 'closed'), new Promise((resolve) => setTimeout(resolve, 30_000, 'still waiting')).then(String)]);
    closed = true;
    expect(outcome).toBe('closed');
  });
});
