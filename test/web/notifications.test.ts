// The notifications panel (timeline and organizer's tools) against the real subscriptions API:
// a loopback webhook receiver (notifications allow loopback here, as ARBITER_NOTIFY_ALLOW_LOOPBACK=1
// does) and an SMTP server on loopback for e-mail.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmationSender } from '../../functions/notify/email/confirmationMail';
import { emailChannel } from '../../functions/notify/email/emailChannel';
import { smtpTransport } from '../../functions/notify/email/smtpTransport';
import { startLoopbackSmtp, type LoopbackSmtp } from '../support/loopbackSmtp';
import { startReceiver } from '../support/webhookReceiver';
import { callApi, createGame, focusedName, linkOf, screenshot, startSession, tabTo, tokenOf, type Session } from './browserSession';

let session: Session;
let smtp: LoopbackSmtp;
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  const transport = smtpTransport({ url: smtp.url });
  session = await startSession({ notifications: { allowLoopback: true, email: { confirmations: confirmationSender(transport), channel: emailChannel(transport) } } });
});
afterAll(async () => {
  await session?.close();
  await smtp?.close();
  await Promise.all(receivers.map((r) => r.close()));
});

/** A loopback receiver; `status` is what it answers every POST. */
async function receiver(status = 200) {
  const started = await startReceiver((_request, response) => void response.writeHead(status).end());
  receivers.push(started);
  return started;
}

async function tabToName(page: Page, name: string): Promise<void> {
  expect(await tabTo(page, name, 150), `Tab reaches ${name} (focus on ${await focusedName(page)})`).toBe(true);
}

const panelStatus = (page: Page) => page.locator('section.notifications [role="status"]').first().textContent();
const subscriptionsOf = async (gameId: string, token: string) => (await callApi(session.service, 'GET', `/games/${gameId}/subscriptions`, token)).json.subscriptions as { subscriptionId: string; kind: string; owner: string; status: string }[];

describe('notifications: subscribe, list, delete (the real subscriptions API)', () => {
  it('the organizer subscribes a webhook by keyboard only: the API’s refusal next to the field, the secret shown once, a refused delivery listed as a dead letter, delete after a confirmation', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Notified' });
    // A receiver that answers 404: not retried, a dead letter at once.
    const gone = await receiver(404);
    const page = await session.open(linkOf(game.gameId, game.tokens.organizer));
    const panel = page.getByRole('region', { name: 'Notifications' });
    await panel.getByText('No subscription yet.').waitFor();

    // Webhook is the first kind: Tab to the URL, type one the server refuses, Enter.
    await tabToName(page, 'Send to');
    expect(await page.getByLabel('Send to').inputValue()).toBe('webhook');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Webhook URL');
    await page.keyboard.type('https://10.0.0.7/hook');
    await page.keyboard.press('Enter');
    const url = page.getByLabel('Webhook URL');
    await expect.poll(() => url.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await url.getAttribute('aria-describedby'))!.split(' ');
    const errorText = await page.evaluate<string>(`${JSON.stringify(describedBy)}.map((id) => document.getElementById(id)?.textContent ?? '').join(' | ')`);
    expect(errorText).toContain('may not name a private, link-local, unique-local, multicast, reserved or unspecified address');
    expect(await focusedName(page)).toBe('Webhook URL');
    expect(await panelStatus(page)).toBe('Refused: see the field marked above.');
    expect(await subscriptionsOf(game.gameId, game.tokens.organizer)).toEqual([]);

    // Corrected, sent again: 201 with the secret, shown once, focused, with its Copy button.
    await page.keyboard.press('Control+A');
    await page.keyboard.type(`${gone.url}/arbiter/hook?key=private`);
    await page.keyboard.press('Enter');
    const secret = page.getByLabel('Signing secret (shown once)', { exact: true });
    await secret.waitFor();
    const secretValue = await secret.inputValue();
    expect(secretValue).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(await panel.locator('.secret-once').textContent()).toContain('shown once');
    await expect.poll(() => focusedName(page)).toBe('Signing secret (shown once)');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Copy Signing secret (shown once)');
    expect(await url.getAttribute('aria-invalid')).toBeNull();
    const [stored] = await subscriptionsOf(game.gameId, game.tokens.organizer);
    expect(stored).toMatchObject({ kind: 'webhook', owner: 'organizer', status: 'active' });
    const name = `Webhook to ${gone.url}/…`;
    const item = panel.locator(`li[data-subscription-id="${stored.subscriptionId}"]`);
    await item.waitFor();
    expect(await item.textContent()).toContain(name);
    expect(await item.textContent()).toContain('active');
    expect(await panel.locator('ul.subscriptions').textContent()).not.toContain('key=private');

    // A commit the receiver refuses (404, not retried): listed under the subscription with its seq, time and error.
    const rolled = await callApi(session.service, 'POST', `/games/${game.gameId}/commands`, game.tokens.players.player1, { commandId: 'r1', type: 'Roll', payload: { dice: '2d6', purpose: 'first fire' } });
    expect(rolled.status).toBe(201);
    await expect.poll(() => gone.received.length, { timeout: 20_000 }).toBe(1);
    await tabToName(page, 'Refresh the list');
    const dead = item.getByRole('list', { name: `Undelivered commits for ${name}` });
    await expect.poll(async () => {
      await page.keyboard.press('Enter');
      return dead.count();
    }, { timeout: 20_000 }).toBe(1);
    expect(await dead.textContent()).toMatch(/^#2 at .+: .*404.*$/);
    await screenshot(page, 'notifications-webhook');

    // Delete asks first; Escape keeps it.
    const deleteName = `Delete ${name}`;
    await tabToName(page, deleteName);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Stop these notifications?' });
    await dialog.waitFor();
    await expect.poll(() => focusedName(page)).toBe('Keep it');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await subscriptionsOf(game.gameId, game.tokens.organizer)).toHaveLength(1);
    await expect.poll(() => focusedName(page)).toBe(deleteName);
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Delete it');
    await page.keyboard.press('Enter');
    await panel.getByText('No subscription yet.').waitFor();
    expect(await subscriptionsOf(game.gameId, game.tokens.organizer)).toEqual([]);
    expect(await panelStatus(page)).toBe(`Deleted: ${name} gets no more notifications from this game.`);
    await expect.poll(() => focusedName(page)).toBe('Send to');

    // The secret was shown once: a reload shows it nowhere.
    await page.reload();
    await panel.getByText('No subscription yet.').waitFor();
    expect(await page.content()).not.toContain(secretValue);
    // Chromium logs the refused request itself (the 400 above); nothing else went wrong.
    expect(session.errors.get(page)).toEqual(['error: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  });

  it('a player subscribes an e-mail digest by keyboard only; sees the wait for confirmation (the mail sent over SMTP), and only its own subscriptions', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Mailed' });
    const token = game.tokens.players.player1;
    const hook = await receiver();
    const organizers = await callApi(session.service, 'POST', `/games/${game.gameId}/subscriptions`, game.tokens.organizer, { kind: 'discord', url: `${hook.url}/api/webhooks/1/x` });
    expect(organizers.status).toBe(201);
    const page = await session.open(linkOf(game.gameId, token));
    const panel = page.getByRole('region', { name: 'Notifications' });
    await panel.getByText('No subscription yet.').waitFor();
    expect(await panel.textContent()).toContain('You see your own subscriptions; the organizer sees them all.');

    await tabToName(page, 'Send to');
    // Webhook, Discord, Slack, E-mail: three down.
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    expect(await page.getByLabel('Send to').inputValue()).toBe('email');
    expect(await page.getByLabel('Discord webhook URL').count()).toBe(0);
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('E-mail address');
    await page.keyboard.type('ann@example.org');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('How often');
    for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Minutes between mails (5 to 1440)');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    await page.keyboard.press('Enter');
    // Checked here first: nothing sent, the words next to the field.
    const minutes = page.getByLabel('Minutes between mails (5 to 1440)');
    await expect.poll(() => minutes.getAttribute('aria-invalid')).toBe('true');
    expect(await panel.locator('.field-error').allTextContents()).toContain('A whole number of minutes from 5 to 1440, please.');
    expect(await subscriptionsOf(game.gameId, token)).toEqual([]);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('30');
    await page.keyboard.press('Enter');
    await expect.poll(() => panelStatus(page)).toBe('Almost done: a confirmation mail went to ann@example.org. Nothing else is mailed until the link in it is followed.');
    const [mine] = await subscriptionsOf(game.gameId, token);
    expect(mine).toMatchObject({ kind: 'email', owner: 'player1', status: 'confirming', digest: { everyMinutes: 30 } });
    await expect.poll(() => smtp.mails.filter((m) => m.envelope.to.includes('ann@example.org')).length, { timeout: 20_000 }).toBe(1);
    // No secret for e-mail.
    expect(await panel.locator('.secret-once').textContent()).toBe('');
    const item = panel.locator(`li[data-subscription-id="${mine.subscriptionId}"]`);
    await item.waitFor();
    expect(await item.textContent()).toContain('E-mail to a***@example.org');
    expect(await item.textContent()).toContain('one mail every 30 min at most');
    expect(await item.textContent()).toContain('waiting for confirmation: nothing is mailed until the recipient follows the link in the confirmation mail');
    expect(await panel.locator(`li[data-subscription-id="${organizers.json.subscriptionId}"]`).count()).toBe(0);
    await screenshot(page, 'notifications-email-confirming');
    expect(session.errors.get(page)).toEqual([]);
  });

  it('the organizer page, right after creating a game, offers the same panel, listing every side’s subscriptions', async () => {
    const page = await session.open('/#/organize');
    await page.getByRole('button', { name: 'Create the game' }).click();
    const organizerLink = await page.getByLabel('Organizer link', { exact: true }).inputValue();
    const player2 = tokenOf(await page.getByLabel('Player link: player2', { exact: true }).inputValue());
    const gameId = decodeURIComponent(organizerLink.split('#/games/')[1].split('?')[0]);
    const hook = await receiver();
    const subscribed = await callApi(session.service, 'POST', `/games/${gameId}/subscriptions`, player2, { kind: 'slack', url: `${hook.url}/services/T/B/x` });
    expect(subscribed.status).toBe(201);
    const panel = page.getByRole('region', { name: 'Notifications' });
    await tabToName(page, 'Refresh the list');
    await page.keyboard.press('Enter');
    const item = panel.locator(`li[data-subscription-id="${subscribed.json.subscriptionId}"]`);
    await item.waitFor();
    expect(await panel.textContent()).toContain('You see every subscription of this game.');
    expect(await item.textContent()).toContain(`Slack to ${hook.url}/…`);
    expect(await item.textContent()).toContain('by player2');
    expect(session.errors.get(page)).toEqual([]);
  });
});
