// The pages an e-mail's confirm and unsubscribe links open (issue 33), in Chromium, on the local
// service with its mails going to an SMTP server on loopback: the links are those of the mails.
// What only a browser shows: the policy lets the page's style and its form through, the button
// is reached and pressed by keyboard, pressing it POSTs to the link's own address, and the
// subscription is then confirmed or ended.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { confirmationSender } from '../../functions/notify/email/confirmationMail';
import { emailChannel } from '../../functions/notify/email/emailChannel';
import type { MailTransport } from '../../functions/notify/email/outgoingMail';
import { smtpTransport } from '../../functions/notify/email/smtpTransport';
import { startLoopbackSmtp, type LoopbackSmtp } from '../support/loopbackSmtp';
import { callApi, createGame, focusedName, screenshot, startSession, type CreatedGame, type Session } from './browserSession';

const TITLE = 'Kursk <south> & Prokhorovka';

let smtp: LoopbackSmtp;
let transport: MailTransport;
let session: Session;
let game: CreatedGame;
let confirmLink: string;
let unsubscribeLink: string;

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  transport = smtpTransport({ url: smtp.url });
  session = await startSession({ notifications: { email: { channel: emailChannel(transport), confirmations: confirmationSender(transport) } } });
  game = await createGame(session.service, { ruleset: 'dice', title: TITLE });
  const subscribed = await callApi(session.service, 'POST', `/games/${game.gameId}/subscriptions`, game.tokens.organizer, { kind: 'email', address: 'anna@example.org' });
  expect(subscribed.status).toBe(201);
  const linkOf = (action: string) => new RegExp(`http://127\\.0\\.0\\.1:\\d+/subscriptions/[^/\\s]+/${action}\\?code=[A-Za-z0-9_-]+`).exec(smtp.mails[0]!.text)![0];
  confirmLink = linkOf('confirm');
  unsubscribeLink = linkOf('unsubscribe');
});
afterAll(async () => {
  await session?.close();
  transport?.close();
  await smtp?.close();
});

const statuses = async () => ((await callApi(session.service, 'GET', `/games/${game.gameId}/subscriptions`, game.tokens.organizer)).json.subscriptions as { status: string }[]).map((s) => s.status);

async function open(link: string): Promise<{ page: Page; problems: string[]; posted: Request[] }> {
  const page = await session.context.newPage();
  await page.setViewportSize({ width: 800, height: 360 });
  const problems: string[] = [];
  const posted: Request[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('request', (request) => {
    if (request.method() === 'POST') posted.push(request);
  });
  await page.goto(link);
  return { page, problems, posted };
}

const focusOutline = (page: Page) => page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle');

describe('e-mail link pages', () => {
  it('confirm: opening the link changes nothing; the button, reached by Tab and pressed with Enter, posts to the link and confirms', async () => {
    const { page, problems, posted } = await open(confirmLink);
    expect(await page.getByRole('heading', { name: 'Mails for every move?' }).isVisible()).toBe(true);
    expect(await page.locator('.game').textContent()).toBe(TITLE);
    // The page's own style applied (the policy let it through): the button is blue.
    expect(await page.evaluate<string>("getComputedStyle(document.querySelector('button')).backgroundColor")).toBe('rgb(29, 78, 216)');
    expect(await statuses()).toEqual(['confirming']);
    await screenshot(page, 'email-confirm');

    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Confirm: send me these mails');
    expect(await focusOutline(page)).toBe('solid');
    await Promise.all([page.waitForURL(confirmLink), page.keyboard.press('Enter')]);
    await page.getByRole('heading', { name: 'Confirmed' }).waitFor();
    expect(posted.map((r) => [r.url(), r.headers()['content-type'], r.postData() ?? ''])).toEqual([[confirmLink, 'application/x-www-form-urlencoded', '']]);
    expect(await statuses()).toEqual(['active']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('unsubscribe: the button posts the one-click body a mail client would, and the subscription ends', async () => {
    const { page, problems, posted } = await open(unsubscribeLink);
    await screenshot(page, 'email-unsubscribe');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Unsubscribe: send me no more mails');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Unsubscribed' }).waitFor();
    expect(posted.map((r) => [r.url(), r.postData()])).toEqual([[unsubscribeLink, 'List-Unsubscribe=One-Click']]);
    expect(await page.getByText('You will get no more mails about game').isVisible()).toBe(true);
    expect(await statuses()).toEqual([]);
    await screenshot(page, 'email-unsubscribed');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a wrong code shows that the link is not valid, and offers no button', async () => {
    const { page } = await open(unsubscribeLink.replace(/code=.*$/, 'code=wrong'));
    expect(await page.getByRole('heading', { name: 'This link is not valid' }).isVisible()).toBe(true);
    expect(await page.getByRole('button').count()).toBe(0);
    await page.close();
  });
});
