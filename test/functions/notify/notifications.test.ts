import { afterEach, describe, expect, it } from 'vitest';
import { GameService } from '../../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { composeNotifications } from '../../../functions/composeNotifications';
import type { NotificationEngine } from '../../../functions/notify/notificationEngine';
import { MemoryEventStore } from '../../../functions/store/memoryStore';
import { MemorySubscriptions } from '../../../functions/store/memorySubscriptions';
import { signatureValid, startReceiver } from '../../support/webhookReceiver';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const roll = (commandId: string, purpose = commandId) => ({ commandId, type: 'Roll', payload: { dice: '2d6', purpose } });

/** A service with notifications on memory stores; `clock` moves when the engine waits, so back-off costs no real time. */
function notifyingService(options: { store?: MemoryEventStore; subscriptions?: MemorySubscriptions; vaultKey?: Buffer; attempts?: number } = {}) {
  const store = options.store ?? new MemoryEventStore();
  const subscriptionStore = options.subscriptions ?? new MemorySubscriptions();
  const vault = aesSeedVault(options.vaultKey ?? newSeedKey());
  const clock = { ms: Date.parse('2026-11-27T10:00:00.000Z'), waited: [] as number[] };
  const now = () => new Date(clock.ms).toISOString();
  const { engine, subscriptions } = composeNotifications({
    store,
    subscriptions: subscriptionStore,
    vault,
    publicUrl: () => 'https://arbiter.example.org',
    allowLoopback: true,
    engine: {
      nowMs: () => clock.ms,
      wait: async (ms) => {
        clock.waited.push(ms);
        clock.ms += ms;
      },
      retry: { attempts: options.attempts ?? 4, firstDelayMs: 1000, maxDelayMs: 8000 },
      log: () => undefined,
    },
  });
  const service = new GameService({ store, signer: signerFromKey(generateSigningKey()), seedVault: vault, now, subscriptions });
  service.onCommit((commit) => engine.stored(commit.gameId));
  closers.push(() => engine.close());
  return { service, engine, clock, store, subscriptionStore, vault };
}

async function receiver(...args: Parameters<typeof startReceiver>) {
  const started = await startReceiver(...args);
  closers.push(started.close);
  return started;
}

const settled = (engine: NotificationEngine, gameId: string) => engine.catchUpGame(gameId);

describe('notifications of a game', () => {
  it('reach a webhook (signed), a Discord and a Slack receiver, each commit once, in order', async () => {
    const { service, engine } = notifyingService();
    const game = await service.createGame({ ruleset: 'dice', title: 'Bastogne, round 2', options: { sides: ['allies', 'axis'] } });
    const hook = await receiver();
    const discord = await receiver();
    const slack = await receiver();
    const organizer = game.tokens.organizer;
    const webhook = await service.subscriptions.subscribe(game.gameId, organizer, { kind: 'webhook', url: `${hook.url}/arbiter` });
    expect(webhook).toMatchObject({ status: 'active', secret: expect.stringMatching(/^whsec_/) });
    await service.subscriptions.subscribe(game.gameId, organizer, { kind: 'discord', url: `${discord.url}/api/webhooks/1/abc` });
    await service.subscriptions.subscribe(game.gameId, organizer, { kind: 'slack', url: `${slack.url}/services/T0/B0/x` });
    await service.submit(game.gameId, game.tokens.players.allies!, roll('a1', 'artillery on Foy'));
    await service.submit(game.gameId, game.tokens.players.axis!, roll('b1', '@everyone counter-attack'));
    await expect.poll(() => hook.received.length + discord.received.length + slack.received.length).toBe(6);
    await settled(engine, game.gameId);

    expect(hook.received.map((r) => r.headers['webhook-id'])).toEqual([`msg_${webhook.subscriptionId}_2_2`, `msg_${webhook.subscriptionId}_3_3`]);
    for (const request of hook.received) expect(signatureValid(webhook.secret!, request)).toBe(true);
    const first = JSON.parse(hook.received[0]!.body);
    expect(first).toMatchObject({ type: 'arbiter.commits', data: { notices: [{ gameId: game.gameId, gameTitle: 'Bastogne, round 2', seq: 2, commitId: `${game.gameId}/2`, actor: 'allies', type: 'Roll', purposes: ['artillery on Foy'], timelineUrl: `https://arbiter.example.org/#/games/${game.gameId}` }] } });
    expect(first.data.notices[0].lines[0]).toMatch(/^#2 allies Roll "artillery on Foy": 2d6 = /);

    const discordBody = JSON.parse(discord.received[1]!.body);
    expect(discordBody.content).toMatch(/^\\#3 axis Roll "@everyone counter-attack"/);
    expect(discordBody.allowed_mentions).toEqual({ parse: [] });
    expect(discordBody.embeds[0]).toMatchObject({
      title: `Bastogne, round 2 (${game.gameId}): allies to move`,
      url: `https://arbiter.example.org/#/games/${game.gameId}`,
      fields: [{ name: 'Turn', value: 'allies to move' }, { name: 'Purpose', value: '@everyone counter-attack' }],
    });
    const slackBody = JSON.parse(slack.received[0]!.body);
    expect(slackBody.text).toContain('#2 allies Roll');
    expect(slackBody.blocks[1]).toEqual({ type: 'section', text: { type: 'plain_text', text: expect.stringContaining('artillery on Foy'), emoji: false } });
    // The paths of Discord and Slack URLs are their credentials: a receiver sees them, the listing does not.
    expect(discord.received[0]!.path).toBe('/api/webhooks/1/abc');
  });

  it('tells a new subscription what happens from then on, not the game before it', async () => {
    const { service, engine, clock } = notifyingService();
    const game = await service.createGame({ ruleset: 'dice' });
    await service.submit(game.gameId, game.tokens.organizer, roll('before'));
    clock.ms += 1000;
    const hook = await receiver();
    await service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: hook.url });
    await service.submit(game.gameId, game.tokens.organizer, roll('after'));
    await settled(engine, game.gameId);
    await expect.poll(() => hook.received.length).toBe(1);
    expect(JSON.parse(hook.received[0]!.body).data.notices[0].purposes).toEqual(['after']);
  });

  it('retries with back-off, then records a dead letter the organizer sees, and goes on with the next commit', async () => {
    const { service, engine, clock } = notifyingService({ attempts: 4 });
    const game = await service.createGame({ ruleset: 'dice' });
    let failing = true;
    const hook = await receiver((_, response) => {
      if (failing) response.writeHead(503).end();
    });
    const { subscriptionId } = await service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: `${hook.url}/hook` });
    await service.submit(game.gameId, game.tokens.organizer, roll('lost'));
    await settled(engine, game.gameId);
    expect(hook.received).toHaveLength(4);
    // All four tries carry the same message id: a receiver that got one drops the others.
    expect(new Set(hook.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([`msg_${subscriptionId}_2_2`]));
    expect(clock.waited).toEqual([1000, 2000, 4000]);
    const listing = await service.subscriptions.list(game.gameId, game.tokens.organizer);
    expect(listing.subscriptions[0]!.deadLetters).toEqual([{ seq: 2, at: expect.any(String), error: `${hook.url} answered 503` }]);

    failing = false;
    await service.submit(game.gameId, game.tokens.organizer, roll('next'));
    await settled(engine, game.gameId);
    expect(hook.received.at(-1)!.headers['webhook-id']).toBe(`msg_${subscriptionId}_3_3`);
    expect(hook.received).toHaveLength(5);
  });

  it('does not retry a refusal (a 404), and dead-letters it at once', async () => {
    const { service, engine, clock } = notifyingService();
    const game = await service.createGame({ ruleset: 'dice' });
    const hook = await receiver((_, response) => void response.writeHead(404).end());
    await service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: hook.url });
    await service.submit(game.gameId, game.tokens.organizer, roll('x'));
    await settled(engine, game.gameId);
    expect(hook.received).toHaveLength(1);
    expect(clock.waited).toEqual([]);
    expect((await service.subscriptions.list(game.gameId, game.tokens.organizer)).subscriptions[0]!.deadLetters).toHaveLength(1);
  });

  it('delivers after a restart what was stored but not delivered, once', async () => {
    const store = new MemoryEventStore();
    const subscriptions = new MemorySubscriptions();
    const vaultKey = newSeedKey();
    const first = notifyingService({ store, subscriptions, vaultKey });
    const game = await first.service.createGame({ ruleset: 'dice' });
    const hook = await receiver();
    const { subscriptionId } = await first.service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: hook.url });
    // The first process stops before it delivers: its engine is closed as a crash would leave it.
    await first.engine.close();
    await first.service.submit(game.gameId, game.tokens.organizer, roll('while-down'));
    expect(hook.received).toHaveLength(0);

    const second = notifyingService({ store, subscriptions, vaultKey });
    await Promise.all([second.engine.catchUpGame(game.gameId), second.engine.catchUpGame(game.gameId)]);
    await second.engine.catchUpGame(game.gameId);
    expect(hook.received.map((r) => r.headers['webhook-id'])).toEqual([`msg_${subscriptionId}_2_2`]);
  });

  it("holds a digest of every N minutes until the first commit's N minutes are over, then sends one", async () => {
    const { service, engine, clock } = notifyingService();
    const game = await service.createGame({ ruleset: 'dice' });
    const hook = await receiver();
    await service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: hook.url, digest: { everyMinutes: 5 } });
    await service.submit(game.gameId, game.tokens.organizer, roll('one'));
    clock.ms += 60_000;
    await service.submit(game.gameId, game.tokens.organizer, roll('two'));
    await settled(engine, game.gameId);
    expect(hook.received).toHaveLength(0);
    clock.ms += 4 * 60_000;
    await settled(engine, game.gameId);
    expect(hook.received).toHaveLength(1);
    expect(JSON.parse(hook.received[0]!.body).data.notices.map((n: { seq: number }) => n.seq)).toEqual([2, 3]);
  });
});

describe("a tournament's subscription", () => {
  it("tells the commits of every game of the tournament, one created after it too; only the tournament's token subscribes", async () => {
    const { service, engine, clock } = notifyingService();
    const tournament = await service.tournaments.create({ name: 'Club league' });
    const before = await service.tournaments.createGame({ ruleset: 'dice', title: 'game A' }, tournament.token);
    clock.ms += 1000;
    const hook = await receiver();
    await expect(service.subscriptions.subscribeTournament(tournament.tournamentId, before.tokens.organizer, { kind: 'webhook', url: hook.url })).rejects.toMatchObject({ status: 401 });
    const { subscriptionId } = await service.subscriptions.subscribeTournament(tournament.tournamentId, tournament.token, { kind: 'webhook', url: hook.url });
    clock.ms += 1000;
    const after = await service.tournaments.createGame({ ruleset: 'dice', title: 'game B' }, tournament.token);
    await service.submit(before.gameId, before.tokens.organizer, roll('in-a'));
    await service.submit(after.gameId, after.tokens.organizer, roll('in-b'));
    await Promise.all([settled(engine, before.gameId), settled(engine, after.gameId)]);
    const told = hook.received.map((r) => JSON.parse(r.body).data.notices[0]).map((n: { gameTitle: string; type: string }) => `${n.gameTitle} ${n.type}`);
    expect(told.sort()).toEqual(['game A Roll', 'game B CreateGame', 'game B Roll']);
    expect((await service.subscriptions.listTournament(tournament.tournamentId, tournament.token)).subscriptions.map((s) => s.subscriptionId)).toEqual([subscriptionId]);
    await service.subscriptions.unsubscribeTournament(tournament.tournamentId, tournament.token, subscriptionId);
    expect((await service.subscriptions.listTournament(tournament.tournamentId, tournament.token)).subscriptions).toEqual([]);
  });
});

describe('subscriptions', () => {
  it('are listed without secrets or full URLs: a side sees its own, the organizer all', async () => {
    const { service } = notifyingService();
    const game = await service.createGame({ ruleset: 'dice', options: { sides: ['red', 'blue'] } });
    const red = game.tokens.players.red!;
    const mine = await service.subscriptions.subscribe(game.gameId, red, { kind: 'discord', url: 'https://discord.example.org/api/webhooks/123/very-secret-token' });
    const theirs = await service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: 'https://hooks.example.org/arbiter/secret-path', digest: 'turn' });
    const all = await service.subscriptions.list(game.gameId, game.tokens.organizer);
    expect(all.subscriptions).toEqual([
      { subscriptionId: mine.subscriptionId, kind: 'discord', owner: 'red', target: 'https://discord.example.org/…', digest: 'commit', status: 'active', createdAt: expect.any(String), deadLetters: [] },
      { subscriptionId: theirs.subscriptionId, kind: 'webhook', owner: 'organizer', target: 'https://hooks.example.org/…', digest: 'turn', status: 'active', createdAt: expect.any(String), deadLetters: [] },
    ]);
    expect(JSON.stringify(all)).not.toMatch(/secret|whsec_/);
    expect((await service.subscriptions.list(game.gameId, red)).subscriptions.map((s) => s.subscriptionId)).toEqual([mine.subscriptionId]);
    expect((await service.subscriptions.list(game.gameId, game.tokens.players.blue!)).subscriptions).toEqual([]);
    await expect(service.subscriptions.unsubscribe(game.gameId, game.tokens.players.blue!, mine.subscriptionId)).rejects.toMatchObject({ status: 404 });
    await service.subscriptions.unsubscribe(game.gameId, red, mine.subscriptionId);
    await service.subscriptions.unsubscribe(game.gameId, game.tokens.organizer, theirs.subscriptionId);
    expect((await service.subscriptions.list(game.gameId, game.tokens.organizer)).subscriptions).toEqual([]);
  });

  it('refuse bad targets with 400 naming the field, e-mail without SMTP and a 21st with 422', async () => {
    const { service } = notifyingService();
    const game = await service.createGame({ ruleset: 'dice', options: { sides: ['a', 'b', 'c', 'd'] } });
    const organizer = game.tokens.organizer;
    const refusal = (body: unknown, token = organizer) => service.subscriptions.subscribe(game.gameId, token, body).then(() => undefined, (error: { status: number; code: string; message: string }) => ({ status: error.status, code: error.code, message: error.message }));
    expect(await refusal({ kind: 'webhook', url: 'http://hooks.example.org/x' })).toMatchObject({ status: 400, message: expect.stringContaining('`url` must be https') });
    expect(await refusal({ kind: 'webhook' })).toMatchObject({ status: 400, message: expect.stringContaining('`url`') });
    expect(await refusal({ kind: 'discord', url: 'https://discord.example.org/not-a-hook' })).toMatchObject({ status: 400, message: expect.stringContaining('Discord webhook URL') });
    expect(await refusal({ kind: 'slack', url: 'https://hooks.slack.example.org/api/x' })).toMatchObject({ status: 400, message: expect.stringContaining('Slack') });
    expect(await refusal({ kind: 'pigeon', url: 'https://x.example.org/' })).toMatchObject({ status: 400, message: expect.stringContaining('`kind`') });
    expect(await refusal({ kind: 'webhook', url: 'https://x.example.org/', digest: { everyMinutes: 1 } })).toMatchObject({ status: 400, message: expect.stringContaining('digest') });
    expect(await refusal({ kind: 'email', address: 'anna@example.org' })).toMatchObject({ status: 422, code: 'subscription_refused', message: expect.stringContaining('ARBITER_SMTP_URL') });
    // 5 per owner: the organizer and three sides fill the game's 20.
    const owners = [organizer, game.tokens.players.a!, game.tokens.players.b!, game.tokens.players.c!];
    for (let i = 0; i < 20; i++) await service.subscriptions.subscribe(game.gameId, owners[i % 4], { kind: 'webhook', url: `https://x.example.org/${i}` });
    expect(await refusal({ kind: 'webhook', url: 'https://x.example.org/21' }, game.tokens.players.d)).toMatchObject({ status: 422, code: 'subscription_refused', message: expect.stringContaining('already has 20 subscriptions') });
  });
});
