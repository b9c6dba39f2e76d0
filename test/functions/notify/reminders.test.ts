import { afterEach, describe, expect, it } from 'vitest';
import { GameService } from '../../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { composeNotifications } from '../../../functions/composeNotifications';
import { emailChannel } from '../../../functions/notify/email/emailChannel';
import type { MailTransport, OutgoingMail } from '../../../functions/notify/email/outgoingMail';
import { MemoryEventStore } from '../../../functions/store/memoryStore';
import { MemorySubscriptions } from '../../../functions/store/memorySubscriptions';
import { signatureValid, startReceiver } from '../../support/webhookReceiver';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const START = Date.parse('2026-11-27T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** The game the engine's start-up and tick visit (the one each test plays). */
const gameIdOf = { value: '' };

/** A service with notifications on shared memory stores and a test clock; a second call on the same stores is a restart. */
function notifyingService(shared: { store: MemoryEventStore; subscriptions: MemorySubscriptions; vaultKey: Buffer; clock: { ms: number }; mails: OutgoingMail[] }) {
  const vault = aesSeedVault(shared.vaultKey);
  const transport: MailTransport = { from: 'arbiter@example.org', send: async (mail) => void shared.mails.push(mail), close: () => undefined };
  const channel = emailChannel(transport);
  const { engine, subscriptions } = composeNotifications({
    store: shared.store,
    subscriptions: shared.subscriptions,
    vault,
    publicUrl: () => 'https://arbiter.example.org',
    allowLoopback: true,
    email: { channel, confirmations: { send: async () => undefined } },
    subscribedGames: async () => [gameIdOf.value],
    engine: { nowMs: () => shared.clock.ms, wait: async () => undefined, log: () => undefined },
  });
  const service = new GameService({ store: shared.store, signer: signerFromKey(generateSigningKey()), seedVault: vault, now: () => iso(shared.clock.ms), subscriptions });
  service.onCommit((commit) => engine.stored(commit.gameId));
  closers.push(() => engine.close());
  return { service, engine };
}

async function receiver() {
  const started = await startReceiver();
  closers.push(started.close);
  return started;
}

describe('reminders of an overdue side', () => {
  it('go once per side and move to each subscription, again on a later move, never twice after a restart', async () => {
    const shared = { store: new MemoryEventStore(), subscriptions: new MemorySubscriptions(), vaultKey: newSeedKey(), clock: { ms: START }, mails: [] as OutgoingMail[] };
    const { service, engine } = notifyingService(shared);
    const game = await service.createGame({ ruleset: 'dice', title: 'Kursk <!channel> & <b>', options: { sides: ['north', 'south'] }, timeControl: { perMoveSeconds: 3600 } });
    gameIdOf.value = game.gameId;
    const organizer = game.tokens.organizer;
    const hook = await receiver();
    const discord = await receiver();
    const slack = await receiver();
    const webhook = await service.subscriptions.subscribe(game.gameId, organizer, { kind: 'webhook', url: `${hook.url}/arbiter` });
    const discordSub = await service.subscriptions.subscribe(game.gameId, organizer, { kind: 'discord', url: `${discord.url}/api/webhooks/1/abc` });
    await service.subscriptions.subscribe(game.gameId, organizer, { kind: 'slack', url: `${slack.url}/services/T0/B0/x` });
    const email = await service.subscriptions.subscribe(game.gameId, game.tokens.players.south!, { kind: 'email', address: 'south@example.org' });
    await shared.subscriptions.confirm(email.subscriptionId);
    const received = () => hook.received.length + discord.received.length + slack.received.length + shared.mails.length;

    // north came to move at the creation (START): within the hour, nothing.
    shared.clock.ms = START + 3599_000;
    await engine.tick(iso(shared.clock.ms));
    expect(received()).toBe(0);

    shared.clock.ms = START + 3601_000;
    await engine.tick(iso(shared.clock.ms));
    expect(received()).toBe(4);
    expect(hook.received[0]!.headers['webhook-id']).toBe(`msg_${webhook.subscriptionId}_remind_north_${START}`);
    expect(signatureValid(webhook.secret!, hook.received[0]!)).toBe(true);
    expect(JSON.parse(hook.received[0]!.body)).toEqual({
      type: 'arbiter.reminder',
      timestamp: expect.any(String),
      data: {
        gameId: game.gameId,
        gameTitle: 'Kursk <!channel> & <b>',
        side: 'north',
        since: iso(START),
        asOf: iso(START + 3601_000),
        usedSeconds: 3601,
        timeControl: { perMoveSeconds: 3600 },
        timelineUrl: `https://arbiter.example.org/#/games/${game.gameId}`,
      },
    });
    const discordBody = JSON.parse(discord.received[0]!.body);
    // Discord markdown taken literally, as in commit notices: a title cannot hide a link.
    expect(discordBody).toEqual({ content: `⏰ north is overdue in Kursk <!channel\\> & <b\\> \\(${game.gameId.replace(/_/g, '\\_')}\\): on this move since ${iso(START)}`, allowed_mentions: { parse: [] } });
    const slackBody = JSON.parse(slack.received[0]!.body);
    expect(slackBody.text).toBe(`⏰ north is overdue in Kursk &lt;!channel&gt; &amp; &lt;b&gt; (${game.gameId}): on this move since ${iso(START)}`);
    const mail = shared.mails[0]!;
    expect(mail.to).toBe('south@example.org');
    expect(mail.subject).toBe(`[Arbiter] Overdue: north in Kursk <!channel> & <b> (${game.gameId}), on this move since ${iso(START)}`);
    expect(mail.headers['List-Unsubscribe']).toMatch(new RegExp(`/subscriptions/${email.subscriptionId}/unsubscribe\\?code=`));
    expect(mail.text).toContain('used 3601 s in the whole game');

    // Another tick, later in the same move: nothing more.
    shared.clock.ms += 600_000;
    await engine.tick(iso(shared.clock.ms));
    expect(received()).toBe(4);

    // north hands the move to south: the commit is told, and south's move is reminded once it is overdue.
    const passedAt = shared.clock.ms;
    await service.submit(game.gameId, game.tokens.players.north!, { commandId: 'pass-1', type: 'PassTurn', payload: { to: 'south' } });
    await engine.catchUpGame(game.gameId);
    const told = received();
    expect(told).toBe(8);
    shared.clock.ms = passedAt + 1800_000;
    await engine.tick(iso(shared.clock.ms));
    expect(received()).toBe(told);
    shared.clock.ms = passedAt + 3601_000;
    await engine.tick(iso(shared.clock.ms));
    expect(received()).toBe(told + 4);
    expect(hook.received.at(-1)!.headers['webhook-id']).toBe(`msg_${webhook.subscriptionId}_remind_south_${passedAt}`);
    expect(JSON.parse(discord.received.at(-1)!.body).content).toMatch(/^⏰ south is overdue/);

    // A restart: a new engine on the same stores ticks and sends nothing again.
    await engine.close();
    const restarted = notifyingService(shared);
    shared.clock.ms += 60_000;
    await restarted.engine.tick(iso(shared.clock.ms));
    expect(received()).toBe(told + 4);
    expect((await service.subscriptions.list(game.gameId, organizer)).subscriptions.find((s) => s.subscriptionId === discordSub.subscriptionId)!.deadLetters).toEqual([]);
  });

  it("reach a tournament's subscription for a game with the tournament's time control", async () => {
    const shared = { store: new MemoryEventStore(), subscriptions: new MemorySubscriptions(), vaultKey: newSeedKey(), clock: { ms: START }, mails: [] as OutgoingMail[] };
    const { service, engine } = notifyingService(shared);
    const tournament = await service.tournaments.create({ name: 'Club league', timeControl: { totalSeconds: 7200 } });
    const hook = await receiver();
    const { subscriptionId } = await service.subscriptions.subscribeTournament(tournament.tournamentId, tournament.token, { kind: 'webhook', url: hook.url });
    const game = await service.tournaments.createGame({ ruleset: 'dice', title: 'round 1' }, tournament.token);
    gameIdOf.value = game.gameId;
    await engine.catchUpGame(game.gameId);
    const commits = hook.received.length;
    shared.clock.ms = START + 7201_000;
    await engine.tick(iso(shared.clock.ms));
    expect(hook.received).toHaveLength(commits + 1);
    expect(hook.received.at(-1)!.headers['webhook-id']).toBe(`msg_${subscriptionId}_remind_player1_${START}`);
    expect(JSON.parse(hook.received.at(-1)!.body).data).toMatchObject({ gameId: game.gameId, side: 'player1', usedSeconds: 7201, timeControl: { totalSeconds: 7200 } });
  });

  it("are not sent to a subscription whose side's token was revoked: the revocation's commit ends it first", async () => {
    const shared = { store: new MemoryEventStore(), subscriptions: new MemorySubscriptions(), vaultKey: newSeedKey(), clock: { ms: START }, mails: [] as OutgoingMail[] };
    const { service, engine } = notifyingService(shared);
    const game = await service.createGame({ ruleset: 'dice', timeControl: { perMoveSeconds: 600 } });
    gameIdOf.value = game.gameId;
    const hook = await receiver();
    const theirs = await receiver();
    await service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: hook.url });
    await service.subscriptions.subscribe(game.gameId, game.tokens.players.player2!, { kind: 'webhook', url: theirs.url });
    await service.revokeToken(game.gameId, game.tokens.organizer, 'player2');
    shared.clock.ms = START + 3600_000;
    await engine.tick(iso(shared.clock.ms));
    await expect.poll(() => hook.received.some((r) => JSON.parse(r.body).type === 'arbiter.reminder')).toBe(true);
    expect(theirs.received.filter((r) => JSON.parse(r.body).type === 'arbiter.reminder')).toEqual([]);
  });

  it('are not sent for a game without a time control', async () => {
    const shared = { store: new MemoryEventStore(), subscriptions: new MemorySubscriptions(), vaultKey: newSeedKey(), clock: { ms: START }, mails: [] as OutgoingMail[] };
    const { service, engine } = notifyingService(shared);
    const game = await service.createGame({ ruleset: 'dice' });
    gameIdOf.value = game.gameId;
    const hook = await receiver();
    await service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: hook.url });
    shared.clock.ms = START + 30 * 24 * 3600_000;
    await engine.tick(iso(shared.clock.ms));
    expect(hook.received).toHaveLength(0);
  });

  it("send a digest by minutes from the tick once it is due, with no timer of the engine's own", async () => {
    const shared = { store: new MemoryEventStore(), subscriptions: new MemorySubscriptions(), vaultKey: newSeedKey(), clock: { ms: START }, mails: [] as OutgoingMail[] };
    const first = notifyingService(shared);
    const game = await first.service.createGame({ ruleset: 'dice' });
    gameIdOf.value = game.gameId;
    const hook = await receiver();
    await first.service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: hook.url, digest: { everyMinutes: 5 } });
    await first.service.submit(game.gameId, game.tokens.organizer, { commandId: 'r1', type: 'Roll', payload: { dice: '1d6', purpose: 'one' } });
    await first.engine.catchUpGame(game.gameId);
    // As on AWS: the process that held the digest is gone with its timer; a fresh one only ticks.
    await first.engine.close();
    const second = notifyingService(shared);
    shared.clock.ms = START + 5 * 60_000;
    await second.engine.tick(iso(shared.clock.ms));
    expect(hook.received).toHaveLength(1);
    expect(JSON.parse(hook.received[0]!.body).data.notices.map((n: { seq: number }) => n.seq)).toEqual([2]);
  });
});
