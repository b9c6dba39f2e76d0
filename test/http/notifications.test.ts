import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../functions/local/localService';
import { TestClient } from '../support/httpClient';
import { signatureValid, startReceiver } from '../support/webhookReceiver';

describe('a game played over HTTP with notifications', () => {
  let local: LocalService;
  let client: TestClient;
  const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
  beforeAll(async () => {
    local = await startLocalService({ notifications: { allowLoopback: true }, observer: { unexpected: (error) => console.error(`unexpected in test server: ${error.stack}`) } });
    client = new TestClient(local.url);
  });
  afterAll(async () => {
    await local?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  const receiver = async () => {
    const started = await startReceiver();
    receivers.push(started);
    return started;
  };

  it('tells each commit to a signed webhook, a Discord and a Slack receiver; lists them masked; ends them', async () => {
    const game = await client.createGame({ ruleset: 'dice', title: 'League game 7', options: { sides: ['north', 'south'] } });
    const { gameId, tokens } = game;
    const [hook, discord, slack, mine] = [await receiver(), await receiver(), await receiver(), await receiver()];
    const subscribe = (token: string, body: unknown) => client.post(`/games/${gameId}/subscriptions`, body, token);

    const webhook = await subscribe(tokens.organizer, { kind: 'webhook', url: `${hook.url}/arbiter` });
    expect(webhook.status).toBe(201);
    expect(webhook.body).toEqual({ subscriptionId: expect.stringMatching(/^s-/), secret: expect.stringMatching(/^whsec_/), status: 'active' });
    expect((await subscribe(tokens.organizer, { kind: 'discord', url: `${discord.url}/api/webhooks/42/tok`, digest: 'commit' })).status).toBe(201);
    expect((await subscribe(tokens.organizer, { kind: 'slack', url: `${slack.url}/services/T/B/x` })).status).toBe(201);
    const north = await subscribe(tokens.players.north!, { kind: 'webhook', url: `${mine.url}/north` });
    expect(north.status).toBe(201);

    for (const [i, side] of ['north', 'south', 'north'].entries()) {
      const sent = await client.command(gameId, tokens.players[side]!, { commandId: `c${i}`, type: 'Roll', payload: { dice: '2d6', purpose: `attack ${i}` } });
      expect(sent.status).toBe(201);
    }
    await expect.poll(() => [hook, discord, slack, mine].map((r) => r.received.length), { timeout: 20_000 }).toEqual([3, 3, 3, 3]);
    expect(hook.received.map((r) => JSON.parse(r.body).data.notices[0].seq)).toEqual([2, 3, 4]);
    for (const request of hook.received) expect(signatureValid(webhook.body.secret, request)).toBe(true);
    for (const request of mine.received) expect(signatureValid(north.body.secret, request)).toBe(true);
    expect(JSON.parse(discord.received[2]!.body).embeds[0].title).toBe(`League game 7 (${gameId}): north to move`);
    expect(JSON.parse(slack.received[0]!.body).text).toContain('"attack 0"');

    const all = await client.get(`/games/${gameId}/subscriptions`, tokens.organizer);
    expect(all.status).toBe(200);
    expect(all.body.subscriptions.map((s: { kind: string; owner: string; target: string }) => [s.kind, s.owner, s.target])).toEqual([
      ['webhook', 'organizer', `${hook.url}/…`],
      ['discord', 'organizer', `${discord.url}/…`],
      ['slack', 'organizer', `${slack.url}/…`],
      ['webhook', 'north', `${mine.url}/…`],
    ]);
    expect(all.text).not.toMatch(/whsec_|\/api\/webhooks|\/services\/|\/north/);
    const own = await client.get(`/games/${gameId}/subscriptions`, tokens.players.north);
    expect(own.body.subscriptions.map((s: { subscriptionId: string }) => s.subscriptionId)).toEqual([north.body.subscriptionId]);
    expect((await client.get(`/games/${gameId}/subscriptions`, tokens.players.south)).body.subscriptions).toEqual([]);
    expect((await client.request('DELETE', `/games/${gameId}/subscriptions/${north.body.subscriptionId}`, { token: tokens.players.south })).status).toBe(404);
    expect((await client.request('DELETE', `/games/${gameId}/subscriptions/${north.body.subscriptionId}`, { token: tokens.players.north })).status).toBe(204);

    await client.command(gameId, tokens.players.south!, { commandId: 'c3', type: 'Roll', payload: { dice: '1d6', purpose: 'after' } });
    await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBe(4);
    expect(mine.received).toHaveLength(3);
  });

  it("ends a side's subscriptions when its token is revoked or reissued: nothing more reaches it, the new holder lists none", async () => {
    const { gameId, tokens } = await client.createGame({ ruleset: 'dice' });
    const [organizerHook, player1Hook] = [await receiver(), await receiver()];
    const seqs = (r: { received: { body: string }[] }) => r.received.map((request) => JSON.parse(request.body).data.notices[0].seq);
    expect((await client.post(`/games/${gameId}/subscriptions`, { kind: 'webhook', url: `${organizerHook.url}/org` }, tokens.organizer)).status).toBe(201);
    expect((await client.post(`/games/${gameId}/subscriptions`, { kind: 'webhook', url: `${player1Hook.url}/p1` }, tokens.players.player1)).status).toBe(201);
    await client.command(gameId, tokens.players.player1!, { commandId: 'before', type: 'Roll', payload: { dice: '1d6', purpose: 'before' } });
    await expect.poll(() => seqs(player1Hook), { timeout: 20_000 }).toEqual([2]);

    expect((await client.request('DELETE', `/games/${gameId}/tokens/player1`, { token: tokens.organizer })).status).toBe(200);
    await client.command(gameId, tokens.players.player2!, { commandId: 'after', type: 'Roll', payload: { dice: '1d6', purpose: 'after' } });
    await expect.poll(() => seqs(organizerHook), { timeout: 20_000 }).toEqual([2, 3, 4]);
    expect(seqs(player1Hook)).toEqual([2]);

    const reissued = await client.post(`/games/${gameId}/tokens/player1`, undefined, tokens.organizer);
    expect(reissued.status).toBe(201);
    expect((await client.get(`/games/${gameId}/subscriptions`, reissued.body.token)).body.subscriptions).toEqual([]);
    expect((await client.get(`/games/${gameId}/subscriptions`, tokens.organizer)).body.subscriptions.map((s: { owner: string }) => s.owner)).toEqual(['organizer']);
  });

  it('refuses bad subscriptions with 400 naming the field, 401 without a token, 422 for e-mail without SMTP', async () => {
    const { gameId, tokens } = await client.createGame({ ruleset: 'dice' });
    const post = (body: unknown, token: string | undefined = tokens.organizer) => client.post(`/games/${gameId}/subscriptions`, body, token);
    const privateUrl = await post({ kind: 'webhook', url: 'https://169.254.169.254/latest' });
    expect(privateUrl.status).toBe(400);
    expect(privateUrl.body.error.details.issues[0]).toMatchObject({ field: 'url', message: expect.stringContaining('link-local') });
    const http = await post({ kind: 'webhook', url: 'http://hooks.example.org/x' });
    expect(http.status).toBe(400);
    expect(http.body.error.details.issues).toEqual([{ field: 'url', message: 'must be https' }]);
    expect((await client.post(`/games/${gameId}/subscriptions`, { kind: 'webhook', url: 'https://x.example.org/' })).status).toBe(401);
    const mail = await post({ kind: 'email', address: 'anna@example.org' });
    expect(mail.status).toBe(422);
    expect(mail.body.error).toMatchObject({ code: 'subscription_refused', message: expect.stringContaining('ARBITER_SMTP_URL') });
  });

  it("confirms and ends an e-mail subscription by its links: a GET shows a button and changes nothing, the POST acts", async () => {
    // A stand-in for part D's mail channel: the confirmation mail's links are kept, the mails of commits counted.
    const confirmations: { address: string; confirmUrl: string; unsubscribeUrl: string }[] = [];
    const mailed: number[] = [];
    const mailing = await startLocalService({
      notifications: {
        allowLoopback: true,
        email: {
          confirmations: { send: async (address, mail) => void confirmations.push({ address, confirmUrl: mail.confirmUrl, unsubscribeUrl: mail.unsubscribeUrl }) },
          channel: { deliver: async (_target, notices) => void mailed.push(...notices.map((n) => n.seq)) },
        },
      },
    });
    try {
      const mailClient = new TestClient(mailing.url);
      const { gameId, tokens } = await mailClient.createGame({ ruleset: 'dice' });
      const subscribed = await mailClient.post(`/games/${gameId}/subscriptions`, { kind: 'email', address: 'anna@example.org' }, tokens.players.player1);
      expect(subscribed.body).toEqual({ subscriptionId: expect.any(String), status: 'confirming' });
      const [mail] = confirmations;
      expect(mail!.address).toBe('anna@example.org');
      expect(mail!.confirmUrl).toMatch(new RegExp(`^${mailing.url}/subscriptions/${subscribed.body.subscriptionId}/confirm\\?code=[A-Za-z0-9_-]+$`));
      expect(mail!.confirmUrl).not.toContain('arb_');
      const path = (url: string) => url.slice(mailing.url.length);

      await mailClient.command(gameId, tokens.players.player1!, { commandId: 'r1', type: 'Roll', payload: { dice: '1d6', purpose: 'unconfirmed' } });
      const page = await mailClient.get(path(mail!.confirmUrl));
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(page.text).toContain('<button type="submit">Confirm: send me these mails</button>');
      expect((await mailClient.get(`/games/${gameId}/subscriptions`, tokens.organizer)).body.subscriptions[0]).toMatchObject({ status: 'confirming', target: 'a***@example.org' });
      expect((await mailClient.request('POST', path(mail!.confirmUrl))).text).toContain('<h1>Confirmed</h1>');
      expect((await mailClient.get(`/games/${gameId}/subscriptions`, tokens.organizer)).body.subscriptions[0].status).toBe('active');
      await mailClient.command(gameId, tokens.players.player1!, { commandId: 'r2', type: 'Roll', payload: { dice: '1d6', purpose: 'confirmed' } });
      await expect.poll(() => mailed, { timeout: 20_000 }).toEqual([3]);

      const wrong = await mailClient.request('POST', `${path(mail!.unsubscribeUrl).split('?')[0]}?code=wrong`);
      expect(wrong.status).toBe(404);
      expect(wrong.text).toContain('This link is not valid');
      expect((await mailClient.get(`/games/${gameId}/subscriptions`, tokens.organizer)).body.subscriptions).toHaveLength(1);
      const oneClick = await mailClient.request('POST', path(mail!.unsubscribeUrl), { raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(oneClick.text).toContain('<h1>Unsubscribed</h1>');
      expect((await mailClient.get(`/games/${gameId}/subscriptions`, tokens.organizer)).body.subscriptions).toEqual([]);
      const spent = await mailClient.get(path(mail!.confirmUrl));
      expect(spent.status).toBe(404);
      expect(spent.text).toContain('This link is not valid');
      expect(spent.text).not.toContain('<button');
    } finally {
      await mailing.close();
    }
  });
});
