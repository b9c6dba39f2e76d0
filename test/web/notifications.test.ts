// The notifications panel (timeline and organizer's tools). Until part C lands, the
// subscriptions API is STOOD IN (issue33StandIns.ts): answers per the team contract.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGame, focusedName, linkOf, screenshot, startSession, tabTo, type Session } from './browserSession';
import { standInIssue33Api } from './issue33StandIns';

let session: Session;
beforeAll(async () => {
  session = await startSession();
});
afterAll(async () => {
  await session?.close();
});

async function tabToName(page: Page, name: string): Promise<void> {
  expect(await tabTo(page, name, 150), `Tab reaches ${name} (focus on ${await focusedName(page)})`).toBe(true);
}

const panelStatus = (page: Page) => page.locator('section.notifications [role="status"]').first().textContent();

describe('notifications: subscribe, list, delete (subscriptions API stood in)', () => {
  it('the organizer subscribes a webhook by keyboard only: the API’s refusal next to the field, the secret shown once, dead letters listed, delete after a confirmation', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Notified' });
    const page = await session.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const standIns = await standInIssue33Api(page, { [game.tokens.organizer]: 'organizer' });
    await page.goto(new URL(linkOf(game.gameId, game.tokens.organizer), session.service.url).href);
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
    expect(errorText).toContain('must be an https URL to a public address');
    expect(await focusedName(page)).toBe('Webhook URL');
    expect(await panelStatus(page)).toBe('Refused: see the field marked above.');

    // Corrected, sent again: 201 with the secret, shown once, focused, with its Copy button.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('https://receiver.example.org/arbiter/hook?key=private');
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
    expect(standIns.posted.at(-1)).toEqual({ kind: 'webhook', url: 'https://receiver.example.org/arbiter/hook?key=private' });
    const item = panel.locator('li[data-subscription-id="sub_2"]');
    await item.waitFor();
    expect(await item.textContent()).toContain('Webhook to https://receiver.example.org/…');
    expect(await item.textContent()).toContain('active');
    expect(await panel.locator('ul.subscriptions').textContent()).not.toContain('key=private');

    // A delivery that failed every retry: listed under the subscription with its seq, time and error.
    standIns.subscriptions[0].deadLetters.push({ seq: 2, at: new Date().toISOString(), error: 'the receiver answered 500 after 6 tries' });
    await tabToName(page, 'Refresh the list');
    await page.keyboard.press('Enter');
    const dead = item.getByRole('list', { name: 'Undelivered commits for Webhook to https://receiver.example.org/…' });
    await dead.waitFor();
    expect(await dead.textContent()).toMatch(/^#2 at .+: the receiver answered 500 after 6 tries$/);
    await screenshot(page, 'notifications-webhook');

    // Delete asks first; Escape keeps it.
    const deleteName = 'Delete Webhook to https://receiver.example.org/…';
    await tabToName(page, deleteName);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Stop these notifications?' });
    await dialog.waitFor();
    await expect.poll(() => focusedName(page)).toBe('Keep it');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(standIns.deleted).toEqual([]);
    await expect.poll(() => focusedName(page)).toBe(deleteName);
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Delete it');
    await page.keyboard.press('Enter');
    await panel.getByText('No subscription yet.').waitFor();
    expect(standIns.deleted).toEqual(['sub_2']);
    expect(await panelStatus(page)).toBe('Deleted: Webhook to https://receiver.example.org/… gets no more notifications from this game.');
    await expect.poll(() => focusedName(page)).toBe('Send to');

    // The secret was shown once: a reload shows it nowhere.
    await page.reload();
    await panel.getByText('No subscription yet.').waitFor();
    expect(await page.content()).not.toContain(secretValue);
    expect(errors).toEqual([]);
  });

  it('a player subscribes an e-mail digest by keyboard only; sees the wait for confirmation, and only its own subscriptions', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Mailed' });
    const token = game.tokens.players.player1;
    const page = await session.context.newPage();
    const standIns = await standInIssue33Api(page, { [token]: 'player1', [game.tokens.organizer]: 'organizer' });
    standIns.subscriptions.push({ subscriptionId: 'sub_org', kind: 'discord', owner: 'organizer', target: 'https://discord.com/…', status: 'active', createdAt: new Date().toISOString(), deadLetters: [] });
    await page.goto(new URL(linkOf(game.gameId, token), session.service.url).href);
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
    expect(standIns.posted).toEqual([]);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('30');
    await page.keyboard.press('Enter');
    await expect.poll(() => panelStatus(page)).toBe('Almost done: a confirmation mail went to ann@example.org. Nothing else is mailed until the link in it is followed.');
    expect(standIns.posted).toEqual([{ kind: 'email', address: 'ann@example.org', digest: { everyMinutes: 30 } }]);
    // No secret for e-mail.
    expect(await panel.locator('.secret-once').textContent()).toBe('');
    const item = panel.locator('li[data-subscription-id="sub_1"]');
    await item.waitFor();
    expect(await item.textContent()).toContain('E-mail to a***@example.org');
    expect(await item.textContent()).toContain('one mail every 30 min at most');
    expect(await item.textContent()).toContain('waiting for confirmation: nothing is mailed until the recipient follows the link in the confirmation mail');
    expect(await panel.locator('li[data-subscription-id="sub_org"]').count()).toBe(0);
    await screenshot(page, 'notifications-email-confirming');
    expect(session.errors.get(page) ?? []).toEqual([]);
  });

  it('the organizer page, right after creating a game, offers the same panel, listing every side’s subscriptions', async () => {
    const page = await session.context.newPage();
    const owners: Record<string, string> = {};
    const standIns = await standInIssue33Api(page, owners);
    standIns.subscriptions.push({ subscriptionId: 'sub_p2', kind: 'slack', owner: 'player2', target: 'https://hooks.slack.com/…', status: 'active', createdAt: new Date().toISOString(), deadLetters: [] });
    await page.goto(new URL('/#/organize', session.service.url).href);
    await page.getByRole('button', { name: 'Create the game' }).click();
    const organizerLink = await page.getByLabel('Organizer link', { exact: true }).inputValue();
    // Who the new token is, as the server knows it.
    owners[new URLSearchParams(organizerLink.split('?')[1]).get('token')!] = 'organizer';
    const panel = page.getByRole('region', { name: 'Notifications' });
    await tabToName(page, 'Refresh the list');
    await page.keyboard.press('Enter');
    const item = panel.locator('li[data-subscription-id="sub_p2"]');
    await item.waitFor();
    expect(await panel.textContent()).toContain('You see every subscription of this game.');
    expect(await item.textContent()).toContain('Slack to https://hooks.slack.com/…');
    expect(await item.textContent()).toContain('by player2');
  });
});
