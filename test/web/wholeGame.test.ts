import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, startSession, type Session } from './browserSession';

let session: Session;
beforeAll(async () => {
  session = await startSession();
});
afterAll(async () => {
  await session?.close();
});

/** A separate browser window with its own storage, as another person on another machine. */
async function windowFor(link: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await session.browser.newContext({ viewport: { width: 1100, height: 800 } });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(link);
  return { context, page, errors };
}

async function roll(page: Page, dice: string, purpose: string): Promise<void> {
  await page.getByLabel('Dice', { exact: true }).fill(dice);
  await page.getByLabel('Purpose').fill(purpose);
  await page.getByRole('button', { name: 'Roll' }).click();
  await expect.poll(() => page.locator('.command-box [role="status"]').textContent()).toMatch(/^Stored as #\d+\.$/);
}

describe('a whole game in browsers (issue 14, Done when)', () => {
  it('an organizer creates it, two players play from their links, a spectator follows live, the organizer seals, anyone verifies the export', async () => {
    const organizer = await session.open('/');
    await expect.poll(() => organizer.locator('select option[value="dice"]').count()).toBe(1);
    await organizer.getByLabel('Ruleset').selectOption('dice');
    await organizer.getByLabel('Title').fill('Club night, game 4');
    await organizer.getByRole('button', { name: 'Create the game' }).click();
    const link = (label: string) => organizer.getByLabel(label, { exact: true }).inputValue();
    const [player1Link, player2Link, organizerLink] = [await link('Player link: player1'), await link('Player link: player2'), await link('Organizer link')];
    await organizer.getByRole('button', { name: 'Create spectator link' }).click();
    const spectatorLink = await link('Spectator link: Spectator 1');

    const player1 = await windowFor(player1Link);
    const player2 = await windowFor(player2Link);
    const spectator = await windowFor(spectatorLink);
    await spectator.page.locator('tr[data-seq="1"]').waitFor();
    expect(await spectator.page.locator('.command-box').count()).toBe(0);

    await roll(player1.page, '2d6', 'bombardment of 2708');
    await roll(player2.page, '1d10', 'morale check, 3rd Bn');
    await roll(player1.page, '3d6+1', 'assault on 2709');
    // The spectator's page follows without a reload: each roll appears as it is stored.
    await spectator.page.locator('tr[data-seq="4"]').waitFor({ timeout: 5_000 });
    expect(await spectator.page.locator('table.timeline tbody tr').evaluateAll((rows) => rows.map((r) => r.querySelector('td.actor')?.textContent))).toEqual(['organizer', 'player1', 'player2', 'player1']);
    // Each player's window sees the other's rolls too.
    await player2.page.locator('tr[data-seq="4"]').waitFor({ timeout: 5_000 });

    const table = await windowFor(organizerLink);
    await table.page.locator('tr[data-seq="4"]').waitFor();
    await table.page.getByRole('button', { name: 'Seal the game' }).click();
    await table.page.getByRole('button', { name: 'Seal it now' }).click();
    await spectator.page.locator('tr[data-seq="5"]').waitFor({ timeout: 5_000 });
    await expect.poll(() => spectator.page.locator('[data-field="sealed"]').textContent()).toMatch(/^sealed/);
    const [download] = await Promise.all([table.page.waitForEvent('download'), table.page.getByRole('button', { name: 'Download the export' }).click()]);
    const exported = await readFile((await download.path())!, 'utf8');

    // Anyone: a fresh window on the verify page, the export chosen from disk, checked in the page.
    const anyone = await windowFor(new URL('/#/verify', session.service.url).href);
    const fingerprint = (await callApi(session.service, 'GET', '/keys')).json.keys[0].fingerprint;
    await expect.poll(() => anyone.page.getByLabel('Trusted fingerprints (one per line)').inputValue()).toBe(fingerprint);
    await anyone.page.getByLabel('Export file (JSON)').setInputFiles({ name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
    await anyone.page.locator('.verdict').waitFor();
    expect(await anyone.page.locator('.verdict').getAttribute('data-exit-code')).toBe('0');
    expect(await anyone.page.locator('table.per-commit tbody tr').count()).toBe(5);

    for (const window of [player1, player2, spectator, table, anyone]) {
      expect(window.errors).toEqual([]);
      await window.context.close();
    }
    expect(session.errors.get(organizer)).toEqual([]);
  });
});
