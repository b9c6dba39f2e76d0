import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService } from '../../functions/local/localService';
import { callApi, createGame, linkOf, screenshot, startSession, tabTo, type Session } from './browserSession';

let session: Session;
beforeAll(async () => {
  session = await startSession({ dataDir: mkdtempSync(join(tmpdir(), 'arbiter-web-')) });
});
afterAll(async () => {
  await session?.close();
});

const roll = (gameId: string, token: string, commandId: string, purpose: string, dice = '2d6') =>
  callApi(session.service, 'POST', `/games/${gameId}/commands`, token, { commandId, type: 'Roll', payload: { dice, purpose } });

describe('the game timeline (/#/games/{id}?token=…)', () => {
  it('shows a command posted through the API within 2 s, without reload or redrawing the rows, and announces it', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Live', options: { sides: ['red', 'blue'] } });
    const page = await session.open(linkOf(game.gameId, game.tokens.players.blue));
    await page.locator('tr[data-seq="1"]').waitFor();
    await expect.poll(() => page.locator('.connection').textContent()).toMatch(/^Live/);
    // Marks that a reload or a redraw of the table would lose.
    await expect.poll(() => page.locator('[data-field="version"]').textContent()).toBe('1');
    await page.evaluate("window.notReloaded = true; document.querySelector('tr[data-seq=\"1\"]').dataset.mark = 'kept'; document.querySelector('[data-field=\"version\"]').dataset.mark = 'kept'");

    const started = Date.now();
    expect((await roll(game.gameId, game.tokens.players.red, 'r1', 'bombard 0907', '3d6')).status).toBe(201);
    await page.locator('tr[data-seq="2"]').waitFor({ timeout: 2_000 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await page.evaluate('window.notReloaded === true && document.querySelector(\'tr[data-seq="1"]\').dataset.mark')).toBe('kept');
    expect(await page.locator('tr[data-seq="2"] .die').count()).toBe(3);
    await expect.poll(() => page.locator('#announcer').textContent()).toContain('#2 red Roll "bombard 0907"');
    expect(await page.locator('#announcer').getAttribute('aria-live')).toBe('polite');
    await expect.poll(() => page.locator('[data-field="version"]').textContent()).toBe('2');
    expect(await page.locator('[data-field="version"]').getAttribute('data-mark')).toBe('kept');

    // Two more, one per side; then the filters.
    await roll(game.gameId, game.tokens.players.blue, 'b1', 'return fire');
    await roll(game.gameId, game.tokens.players.red, 'r2', 'second volley');
    await page.locator('tr[data-seq="4"]').waitFor({ timeout: 2_000 });
    // The dice ruleset has no turns: no turn filter.
    expect(await page.getByLabel('Show turn').isVisible()).toBe(false);
    await page.getByLabel('Show side').selectOption('red');
    expect(await page.locator('table.timeline tbody tr:not([hidden])').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-seq')))).toEqual(['2', '4']);
    await page.getByLabel('Show side').selectOption('');
    await page.getByLabel('Show command').selectOption('CreateGame');
    expect(await page.locator('table.timeline tbody tr:not([hidden])').count()).toBe(1);
    expect(session.errors.get(page)).toEqual([]);
  });

  it('plays by keyboard only, and sends the token only in the Authorization header, only to this origin', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Keyboard play' });
    const token = game.tokens.players.player2;
    const page = await session.context.newPage();
    const requests: { url: string; authorization?: string }[] = [];
    page.on('request', (r) => requests.push({ url: r.url(), authorization: r.headers().authorization }));
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(new URL(linkOf(game.gameId, token), session.service.url).href);
    await page.locator('tr[data-seq="1"]').waitFor();

    expect(await tabTo(page, 'Dice')).toBe(true);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('1d20');
    expect(await tabTo(page, 'Purpose')).toBe(true);
    await page.keyboard.type('morale check');
    await page.keyboard.press('Enter');
    await page.locator('tr[data-seq="2"]').waitFor();
    expect(await page.locator('tr[data-seq="2"] .die .sides').textContent()).toBe('d20');
    expect(await page.locator('tr[data-seq="2"] td.actor').textContent()).toBe('player2');

    const origin = new URL(session.service.url).origin;
    expect(requests.length).toBeGreaterThan(5);
    for (const r of requests) {
      expect(new URL(r.url).origin, r.url).toBe(origin);
      expect(r.url, 'a token in a URL').not.toContain(token);
    }
    const apiCalls = requests.filter((r) => new URL(r.url).pathname.startsWith(`/games/${game.gameId}`));
    expect(apiCalls.length).toBeGreaterThan(2);
    for (const r of apiCalls) expect(r.authorization).toBe(`Bearer ${token}`);
    expect(requests.filter((r) => !new URL(r.url).pathname.startsWith('/games/')).every((r) => r.authorization === undefined)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('gives a spectator link the timeline without a command box; the API answers 403 to it, and 401 once revoked', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Watched' });
    await roll(game.gameId, game.tokens.players.player1, 'r1', 'opening shot');
    const organizer = await session.open(linkOf(game.gameId, game.tokens.organizer));
    await organizer.getByLabel('Label (optional)').fill('club stream');
    await organizer.getByRole('button', { name: 'Create spectator link' }).click();
    const link = await organizer.getByLabel('Spectator link: club stream', { exact: true }).inputValue();
    const token = new URLSearchParams(link.split('?')[1]).get('token')!;

    const spectator = await session.open(link);
    await spectator.locator('tr[data-seq="2"]').waitFor();
    expect(await spectator.locator('[data-field="role"]').textContent()).toBe('spectator');
    expect(await spectator.locator('.command-box').count()).toBe(0);
    expect(await spectator.getByRole('button', { name: 'Roll' }).count()).toBe(0);
    expect(await spectator.locator('.spectator').textContent()).toContain('you cannot send commands');
    await roll(game.gameId, game.tokens.players.player2, 'r2', 'answer');
    await spectator.locator('tr[data-seq="3"]').waitFor({ timeout: 2_000 });
    await screenshot(spectator, 'spectator');
    expect(session.errors.get(spectator)).toEqual([]);

    expect((await roll(game.gameId, token, 'x', 'not mine')).status).toBe(403);
    expect((await callApi(session.service, 'GET', `/games/${game.gameId}/export`, token)).status).toBe(200);

    await organizer.getByRole('button', { name: 'Revoke club stream' }).click();
    await expect.poll(() => organizer.locator('.organizer-tools [role="status"]').textContent()).toContain('revoked');
    expect((await callApi(session.service, 'GET', `/games/${game.gameId}`, token)).status).toBe(401);
    await spectator.reload();
    await expect.poll(() => spectator.locator('.connection').textContent()).toContain('(401)');
    expect(session.errors.get(organizer)).toEqual([]);
  });

  it('reconnects after the server restarts, and shows what was stored meanwhile', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'arbiter-web-restart-'));
    let service = await startLocalService({ dataDir });
    const port = service.port;
    const created = await callApi(service, 'POST', '/games', undefined, { ruleset: 'dice', title: 'Restart' });
    const game = created.json;
    const page = await session.context.newPage();
    await page.goto(`${service.url}${linkOf(game.gameId, game.tokens.players.player1)}`);
    await page.locator('tr[data-seq="1"]').waitFor();
    await service.close();
    await expect.poll(() => page.locator('.connection').textContent()).toMatch(/Connection lost/);
    service = await startLocalService({ dataDir, port });
    try {
      const posted = await callApi(service, 'POST', `/games/${game.gameId}/commands`, game.tokens.players.player2, { commandId: 'after', type: 'Roll', payload: { dice: '1d6', purpose: 'after the restart' } });
      expect(posted.status).toBe(201);
      await page.locator('tr[data-seq="2"]').waitFor({ timeout: 15_000 });
      await expect.poll(() => page.locator('.connection').textContent()).toMatch(/^Live/);
    } finally {
      await page.close();
      await service.close();
    }
  });
});
