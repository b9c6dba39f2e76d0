import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, focusedName, screenshot, startSession, tabTo, type Session } from './browserSession';

let session: Session;
beforeAll(async () => {
  session = await startSession();
});
afterAll(async () => {
  await session?.close();
});

async function press(page: Page, name: string): Promise<void> {
  expect(await tabTo(page, name, 80), `Tab reaches ${name} (focus on ${await focusedName(page)})`).toBe(true);
  await page.keyboard.press('Enter');
}

/** A round's export is made by a job: the page waits for it (Retry-After) before it verifies. */
const EXPORT_MADE = { timeout: 20_000 };

const cells = (page: Page, field: string) => page.locator(`table.tournament-games tbody tr [data-field="${field}"]`).allTextContents();

describe('the tournament page (#/tournaments/{id}?token=…)', () => {
  it('creates a tournament with two games from the organizer page, by keyboard, and verifies the round in the page', async () => {
    const page = await session.open('/#/organize');
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));

    // From the organizer page to the tournament page, then create it.
    await press(page, 'Open the tournament page');
    await page.getByRole('heading', { name: 'Create a tournament' }).waitFor();
    expect(await tabTo(page, 'Name')).toBe(true);
    await page.keyboard.type('Club championship, round 1');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Club championship, round 1');
    const url = new URL(page.url());
    const [, tournamentId, token] = url.hash.match(/^#\/tournaments\/(t-[\w-]+)\?token=(arb_[\w-]+)$/)!;
    expect(await page.getByLabel('Tournament link (bookmark it)', { exact: true }).inputValue()).toBe(url.href);

    // Two games, the ruleset the list offers first (dice), each with a title typed.
    await expect.poll(() => page.locator('select option[value="dice"]').count()).toBe(1);
    for (const title of ['Table 1: Ann v Bob', 'Table 2: Cy v Dee']) {
      expect(await tabTo(page, 'Game title', 80)).toBe(true);
      await page.keyboard.type(title);
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await page.locator('table.tournament-games tbody th').allTextContents()).some((t) => t.startsWith(title))).toBe(true);
    }
    // The last game's player links, shown once.
    const player1 = await page.getByLabel('Player link: player1', { exact: true }).inputValue();
    expect(player1).toMatch(/#\/games\/g-[\w-]+\?token=arb_/);
    const listing = (await callApi(session.service, 'GET', `/tournaments/${tournamentId}`, token)).json;
    expect(listing.games.map((g: { title: string }) => g.title)).toEqual(['Table 1: Ann v Bob', 'Table 2: Cy v Dee']);
    expect(await cells(page, 'state')).toEqual(['in play', 'in play']);
    expect(await cells(page, 'clock')).toEqual(['player1 to move, on time', 'player1 to move, on time']);
    expect(await cells(page, 'verification')).toEqual(['not checked yet', 'not checked yet']);

    // Not sealed yet: verified, but not conclusive, game by game.
    await press(page, 'Verify the round');
    await expect.poll(() => page.locator('.report .verdict').getAttribute('data-exit-code'), EXPORT_MADE).toBe('3');
    expect(await cells(page, 'verification')).toEqual(['NOT SEALED (dice not checked yet)', 'NOT SEALED (dice not checked yet)']);

    // Each game rolled and sealed by the tournament's token; the page reads it anew.
    for (const { gameId } of listing.games) {
      const command = (type: string, payload: unknown) => callApi(session.service, 'POST', `/games/${gameId}/commands`, token, { commandId: `${type}-${gameId}`, type, payload, ...(type === 'Roll' ? { as: 'player1' } : {}) });
      expect((await command('Roll', { dice: '2d6', purpose: 'opening' })).status).toBe(201);
      expect((await command('Seal', {})).status).toBe(201);
    }
    await press(page, 'Refresh the games');
    await expect.poll(() => cells(page, 'state')).toEqual(['sealed', 'sealed']);
    expect(await cells(page, 'commits')).toEqual(['3', '3']);
    expect(await cells(page, 'head')).toEqual([expect.stringMatching(/^#3 [0-9a-f]{12}…/), expect.stringMatching(/^#3 [0-9a-f]{12}…/)]);

    await press(page, 'Verify the round');
    await expect.poll(() => page.locator('.report .verdict').getAttribute('data-exit-code'), EXPORT_MADE).toBe('0');
    expect(await cells(page, 'verification')).toEqual(['OK', 'OK']);
    expect(await page.locator('.report').textContent()).toContain('2 games exported');
    // The export was made by a job: the page asked for it, then at the status the 202 named, until the 303 to the file.
    expect(requested.filter((r) => new RegExp(`/tournaments/${tournamentId}/exports/[0-9a-f]{40}$`).test(new URL(r).pathname)).length).toBeGreaterThan(0);
    expect(requested.some((r) => new URL(r).pathname.startsWith(`/exports/tournaments/${tournamentId}/`))).toBe(true);
    const fingerprint = (await callApi(session.service, 'GET', '/keys')).json.keys[0].fingerprint;
    expect(await page.locator('.report').textContent()).toContain(`Tournament head signed by ${fingerprint}: a key you trust`);
    await screenshot(page, 'tournament');

    // A fingerprint it does not trust: the same file fails to verify.
    await page.getByLabel('Trusted fingerprints (one per line)').fill('ed25519:0000000000000000000000000000000000000000000000000000000000000000');
    await press(page, 'Verify the round');
    await expect.poll(() => page.locator('.report .verdict').getAttribute('data-exit-code'), EXPORT_MADE).not.toBe('0');

    // The page is its bookmark: reloaded, it reads the same tournament from the fragment.
    await page.reload();
    await expect.poll(() => cells(page, 'state')).toEqual(['sealed', 'sealed']);
    expect(await page.locator('h1').textContent()).toBe('Club championship, round 1');
    // The token went in the Authorization header only, never in a URL a server sees.
    expect(requested.filter((r) => r.includes(token) && !new URL(r).hash)).toEqual([]);
    expect(session.errors.get(page)).toEqual([]);
  });

  it('opens a game of the tournament as its organizer, and refuses a page without the token', async () => {
    const created = (await callApi(session.service, 'POST', '/tournaments', undefined, { name: 'Round <b>2</b>' })).json;
    const game = (await callApi(session.service, 'POST', '/games', created.token, { ruleset: 'dice', title: 'Only game' })).json;
    const page = await session.open(`/#/tournaments/${created.tournamentId}?token=${created.token}`);
    await expect.poll(() => cells(page, 'state')).toEqual(['in play']);
    // The name is the organizer's text, shown as text.
    expect(await page.locator('h1').textContent()).toBe('Round <b>2</b>');
    expect(await page.locator('h1 b').count()).toBe(0);
    // A spectator link minted from the table, shown once; it reads the game and nothing more.
    await press(page, 'New spectator link for Only game');
    const spectator = await page.getByLabel('Spectator link: Only game', { exact: true }).inputValue();
    const spectatorToken = new URLSearchParams(spectator.split('?')[1]).get('token')!;
    expect((await callApi(session.service, 'GET', `/games/${game.gameId}`, spectatorToken)).json).toMatchObject({ role: 'spectator' });
    expect((await callApi(session.service, 'GET', `/games/${game.gameId}/viewers`, created.token)).json.viewers).toEqual([expect.objectContaining({ label: 'from the tournament page', revoked: false })]);

    await press(page, 'Open Only game as organizer');
    await page.locator('tr[data-seq="1"]').waitFor();
    expect(await page.locator('[data-field="role"]').textContent()).toBe('organizer');
    expect(await page.getByRole('button', { name: 'Seal the game' }).count()).toBe(1);
    expect(new URL(page.url()).hash).toBe(`#/games/${game.gameId}?token=${created.token}`);

    const bare = await session.open(`/#/tournaments/${created.tournamentId}`);
    await expect.poll(() => bare.locator('.warning').textContent()).toContain('needs the tournament’s own link');
    const wrong = await session.open(`/#/tournaments/${created.tournamentId}?token=arb_wrong`);
    await expect.poll(() => wrong.locator('.round [role="status"]').textContent()).toMatch(/^Refused \(401\)/);
  });
});
