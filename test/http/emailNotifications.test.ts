// Issue 33, done when: a game played over HTTP on the real `npm start` server, its mails going
// through an SMTP server on loopback (ARBITER_SMTP_URL): confirmation first and nothing else,
// a link whose GET changes nothing, one mail per commit once confirmed, a digest per turn,
// and a one-click unsubscribe that stops them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '../support/httpClient';
import { startLoopbackSmtp, type LoopbackSmtp, type ReceivedMail } from '../support/loopbackSmtp';
import { useNpmStart } from '../support/npmStart';
import { startReceiver } from '../support/webhookReceiver';

const { start } = useNpmStart();
const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

const POLL = { timeout: 30_000 };
const TITLE = 'Kursk <south> & "flank"';

const mailsTo = (smtp: LoopbackSmtp, address: string) => smtp.mails.filter((mail) => mail.envelope.to.includes(address));
const subjectsTo = (smtp: LoopbackSmtp, address: string) => mailsTo(smtp, address).map((mail) => mail.header('subject'));
const linkIn = (mail: ReceivedMail, action: 'confirm' | 'unsubscribe') => {
  const link = new RegExp(`http://127\\.0\\.0\\.1:\\d+/subscriptions/[^/\\s]+/${action}\\?code=[A-Za-z0-9_-]+`).exec(mail.text)?.[0];
  expect(link, `${action} link in:\n${mail.text}`).toBeDefined();
  return link!;
};

describe('e-mail notifications on the local server (ARBITER_SMTP_URL)', () => {
  it('confirms by link, mails each commit, gathers a turn in a digest, and stops on a one-click unsubscribe', async () => {
    const smtp = await startLoopbackSmtp();
    closing.push(() => smtp.close());
    // A webhook on the same game tells when the server has dealt with a commit.
    const witness = await startReceiver();
    closing.push(() => witness.close());
    const server = await start(join(mkdtempSync(join(tmpdir(), 'arbiter-i33-int-email-')), 'data'), {
      ARBITER_SMTP_URL: smtp.url,
      ARBITER_SMTP_FROM: 'Arbiter <arbiter@example.org>',
      ARBITER_NOTIFY_ALLOW_LOOPBACK: '1',
    });
    await expect.poll(server.output, POLL).toContain(`e-mail: notification mails go through ${smtp.url} from Arbiter <arbiter@example.org>`);
    const client = new TestClient(server.url);
    const path = (url: string) => url.slice(server.url.length);
    const { gameId, tokens } = await client.createGame({ ruleset: 'dice', title: TITLE, options: { sides: ['north', 'south'] } });
    const { north, south } = tokens.players as { north: string; south: string };
    const game = `${TITLE} (${gameId})`;
    let commands = 0;
    const send = async (token: string, type: string, payload: unknown) => {
      const sent = await client.command(gameId, token, { commandId: `c${++commands}`, type, payload });
      expect(sent.status, sent.text).toBe(201);
    };
    const mailSubscriptions = async () =>
      ((await client.get(`/games/${gameId}/subscriptions`, tokens.organizer)).body.subscriptions as Array<{ kind: string; target: string; status: string }>).filter((s) => s.kind === 'email');
    expect((await client.post(`/games/${gameId}/subscriptions`, { kind: 'webhook', url: `${witness.url}/hook` }, tokens.organizer)).status).toBe(201);

    // Subscribed: the confirmation mail, and nothing else, even after a commit was dealt with.
    const anna = await client.post(`/games/${gameId}/subscriptions`, { kind: 'email', address: 'anna@example.org' }, north);
    expect(anna.status).toBe(201);
    expect(anna.body).toEqual({ subscriptionId: expect.any(String), status: 'confirming' });
    expect(subjectsTo(smtp, 'anna@example.org')).toEqual([`[Arbiter] Confirm mails for ${game}`]);
    const confirmation = mailsTo(smtp, 'anna@example.org')[0]!;
    expect(confirmation.header('from')).toBe('Arbiter <arbiter@example.org>');
    const confirmLink = linkIn(confirmation, 'confirm');
    expect(confirmLink.startsWith(`${server.url}/subscriptions/${anna.body.subscriptionId}/confirm?code=`)).toBe(true);
    await send(north, 'Roll', { dice: '1d6', purpose: 'before confirming' });
    await expect.poll(() => witness.received.length, POLL).toBe(1);
    expect(smtp.mails).toHaveLength(1);

    // The link's GET is a page with a button (the title escaped): nothing changes.
    const page = await client.get(path(confirmLink));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).toContain('Kursk &lt;south&gt; &amp; &quot;flank&quot;');
    expect(page.text).toContain('<button type="submit">Confirm: send me these mails</button>');
    expect(await mailSubscriptions()).toMatchObject([{ target: 'a***@example.org', status: 'confirming' }]);
    const confirmed = await client.request('POST', path(confirmLink), { raw: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('<h1>Confirmed</h1>');
    expect(await mailSubscriptions()).toMatchObject([{ status: 'active' }]);

    // A second address, one mail per turn.
    const bob = await client.post(`/games/${gameId}/subscriptions`, { kind: 'email', address: 'bob@example.org', digest: 'turn' }, south);
    expect(bob.status).toBe(201);
    expect((await client.request('POST', path(linkIn(mailsTo(smtp, 'bob@example.org')[0]!, 'confirm')))).status).toBe(200);

    await send(north, 'Roll', { dice: '2d6', purpose: 'assault on 1204' });
    await send(north, 'Roll', { rolls: [{ dice: '1d6', purpose: 'morale' }, { dice: '1d6', purpose: 'barrage' }] });
    await send(north, 'PassTurn', { to: 'south' });
    await expect.poll(() => subjectsTo(smtp, 'anna@example.org'), POLL).toEqual([
      `[Arbiter] Confirm mails for ${game}`,
      `[Arbiter] ${game}: north to move — "assault on 1204"`,
      `[Arbiter] ${game}: north to move — "morale", "barrage"`,
      `[Arbiter] ${game}: south to move — #5 PassTurn`,
    ]);
    await expect.poll(() => subjectsTo(smtp, 'bob@example.org'), POLL).toEqual([`[Arbiter] Confirm mails for ${game}`, `[Arbiter] ${game}: south to move — 3 commits, #3–#5`]);

    const [, assault, rolls] = mailsTo(smtp, 'anna@example.org');
    expect(assault!.text).toMatch(/^#3 north Roll .*"assault on 1204".* \[[0-9a-f]{8}\]$/m);
    expect(assault!.text).toContain(`${server.url}/#/games/${gameId}`);
    expect(rolls!.text.match(/^#4 north Roll .*$/gm)).toHaveLength(2);
    const annaUnsubscribe = linkIn(assault!, 'unsubscribe');
    expect(assault!.header('list-unsubscribe')).toBe(`<${annaUnsubscribe}>`);
    expect(assault!.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const digest = mailsTo(smtp, 'bob@example.org')[1]!;
    expect(digest.text.match(/^#[345] north (Roll|PassTurn) .*$/gm)).toHaveLength(4);
    for (const mail of smtp.mails) for (const token of [tokens.organizer, north, south]) expect(mail.raw).not.toContain(token);

    // One-click, as a mail client does it: anna's mails stop, bob's go on.
    const oneClick = await client.request('POST', path(annaUnsubscribe), { raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(oneClick.status).toBe(200);
    expect(oneClick.text).toContain('<h1>Unsubscribed</h1>');
    expect((await mailSubscriptions()).map((s) => s.target)).toEqual(['b***@example.org']);
    await send(south, 'Roll', { dice: '1d6', purpose: 'counterattack' });
    await send(south, 'PassTurn', { to: 'north' });
    await expect.poll(() => subjectsTo(smtp, 'bob@example.org').at(-1), POLL).toBe(`[Arbiter] ${game}: north to move — 2 commits, #6–#7`);
    await expect.poll(() => witness.received.length, POLL).toBe(6);
    expect(mailsTo(smtp, 'anna@example.org')).toHaveLength(4);
    // The link is spent: its page says so, and changes nothing.
    const spent = await client.request('POST', path(annaUnsubscribe));
    expect(spent.status).toBe(404);
    expect(spent.text).toContain('This link is not valid');
  });

  it('refuses e-mail subscriptions, naming the setting, when ARBITER_SMTP_URL is not set', async () => {
    const server = await start(join(mkdtempSync(join(tmpdir(), 'arbiter-i33-int-email-')), 'data'));
    const client = new TestClient(server.url);
    const { gameId, tokens } = await client.createGame({ ruleset: 'dice', title: 'No mail here' });
    const refused = await client.post(`/games/${gameId}/subscriptions`, { kind: 'email', address: 'anna@example.org' }, tokens.organizer);
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toContain('ARBITER_SMTP_URL');
    await expect.poll(server.output, POLL).toContain('  try: curl');
    expect(server.output()).not.toContain('e-mail:');
  });
});
