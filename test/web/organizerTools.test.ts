import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createGame, focusedName, linkOf, screenshot, startSession, tabTo, tokenOf, type Session } from './browserSession';

let session: Session;
beforeAll(async () => {
  session = await startSession();
});
afterAll(async () => {
  await session?.close();
});

const toolsStatus = (page: Page) => page.locator('.organizer-tools [role="status"]').textContent();

/** Tab to the control named `name` and press Enter, failing if Tab never reaches it. */
async function press(page: Page, name: string): Promise<void> {
  expect(await tabTo(page, name, 60), `Tab reaches ${name} (focus on ${await focusedName(page)})`).toBe(true);
  await page.keyboard.press('Enter');
}

describe("the organizer's tools, from any window", () => {
  it('lists a spectator link made in one window in a fresh window, which revokes it by keyboard; the link then stops working', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Watched' });
    const first = await session.open(linkOf(game.gameId, game.tokens.organizer));
    await first.locator('tr[data-seq="1"]').waitFor();
    await first.getByLabel('Label (optional)').fill('club stream');
    await first.getByRole('button', { name: 'Create spectator link' }).click();
    const link = await first.getByLabel('Spectator link: club stream', { exact: true }).inputValue();
    const spectatorToken = tokenOf(link);
    const spectator = await session.open(link);
    await expect.poll(() => spectator.locator('[data-field="role"]').textContent()).toBe('spectator');

    // A fresh window of its own (no state shared with the first), opened with the organizer's link.
    const context = await session.browser.newContext({ viewport: { width: 1200, height: 900 }, reducedMotion: 'reduce' });
    try {
      const fresh = await context.newPage();
      const errors: string[] = [];
      fresh.on('pageerror', (e) => errors.push(e.message));
      await fresh.goto(new URL(linkOf(game.gameId, game.tokens.organizer), session.service.url).href);
      const item = fresh.locator('li.viewer', { hasText: 'club stream' });
      await item.waitFor();
      expect(await item.textContent()).toMatch(/club stream created .+ · id v-[0-9a-z]+ · live/);
      // The list holds no token: the link itself was shown once, in the first window only.
      expect(await fresh.locator('.organizer-tools').textContent()).not.toContain(spectatorToken);
      expect(await fresh.getByLabel('Spectator link: club stream', { exact: true }).count()).toBe(0);
      await screenshot(fresh, 'organizer-tools');

      await press(fresh, 'Revoke club stream');
      await expect.poll(() => toolsStatus(fresh)).toBe('club stream: revoked; the link no longer works.');
      expect(await item.textContent()).toContain('revoked: the link no longer works');
      expect(await fresh.getByRole('button', { name: 'Revoke club stream' }).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }

    expect((await callApi(session.service, 'GET', `/games/${game.gameId}`, spectatorToken)).status).toBe(401);
    await spectator.reload();
    await expect.poll(() => spectator.locator('.connection').textContent()).toContain('(401)');
    // The first window, reloaded, sees the same list: the link revoked.
    await first.reload();
    await expect.poll(() => first.locator('li.viewer', { hasText: 'club stream' }).textContent()).toContain('revoked');
    expect(session.errors.get(first)).toEqual([]);
  });

  it('asks before sealing, in words, and disables seal and the commands once sealed, also after a reload (keyboard only)', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'To seal' });
    const page = await session.open(linkOf(game.gameId, game.tokens.organizer));
    await page.locator('tr[data-seq="1"]').waitFor();
    expect(await page.locator('.command-box').count()).toBe(1);

    await press(page, 'Seal the game');
    const dialog = page.getByRole('dialog', { name: 'Seal the game?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Sealing ends the game for good: no side can send another command, and the server’s seed is revealed so that anyone can check every die.');
    await expect.poll(() => focusedName(page)).toBe('Keep playing');
    await screenshot(page, 'seal-confirm');
    // Escape keeps playing: nothing is sent.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => focusedName(page)).toBe('Seal the game');
    expect((await callApi(session.service, 'GET', `/games/${game.gameId}`, game.tokens.organizer)).json).toMatchObject({ sealed: false, version: 1 });

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await press(page, 'Seal it now');
    await expect.poll(() => toolsStatus(page)).toMatch(/^Sealed at #2/);
    expect((await callApi(session.service, 'GET', `/games/${game.gameId}`, game.tokens.organizer)).json).toMatchObject({ sealed: true, version: 2 });
    const disabled = async () => ({
      seal: await page.getByRole('button', { name: 'Seal the game' }).isDisabled(),
      reissue: await page.getByRole('button', { name: 'Reissue the side’s token' }).isDisabled(),
      revoke: await page.getByRole('button', { name: 'Revoke the side’s token' }).isDisabled(),
      commands: await page.locator('.command-box').count(),
    });
    await expect.poll(disabled).toEqual({ seal: true, reissue: true, revoke: true, commands: 0 });
    await page.reload();
    await page.locator('tr[data-seq="2"]').waitFor();
    await expect.poll(disabled).toEqual({ seal: true, reissue: true, revoke: true, commands: 0 });
    expect(await page.locator('[data-sealed-note]').textContent()).toContain('This game is sealed');
    expect(session.errors.get(page)).toEqual([]);
  });

  it("reissues a side's token by keyboard: the new link is shown once, the old token is refused; a revoked side is refused too", async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Lost link' });
    const page = await session.open(linkOf(game.gameId, game.tokens.organizer));
    await page.locator('tr[data-seq="1"]').waitFor();
    await expect.poll(() => page.getByLabel('Side', { exact: true }).locator('option').count()).toBe(2);
    expect(await tabTo(page, 'Side', 60)).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await page.getByLabel('Side', { exact: true }).inputValue()).toBe('player2');
    await press(page, 'Reissue the side’s token');

    const fresh = page.getByLabel('New player link: player2', { exact: true });
    await fresh.waitFor();
    const newToken = tokenOf(await fresh.inputValue());
    expect(newToken).not.toBe(game.tokens.players.player2);
    expect(await page.locator('.organizer-tools').textContent()).toContain('shown this once');
    expect((await callApi(session.service, 'GET', `/games/${game.gameId}`, game.tokens.players.player2)).status).toBe(401);
    expect((await callApi(session.service, 'GET', `/games/${game.gameId}`, newToken)).json).toMatchObject({ role: 'player2' });
    await page.locator('tr[data-seq="2"]').waitFor();
    expect(await page.locator('tr[data-seq="2"]').getAttribute('data-type')).toBe('ReissueToken');
    // Shown once: after a reload the new link is nowhere on the page.
    await page.reload();
    await page.locator('tr[data-seq="2"]').waitFor();
    await expect.poll(() => page.getByLabel('Side', { exact: true }).locator('option').count()).toBe(2);
    expect(await page.getByLabel('New player link: player2', { exact: true }).count()).toBe(0);
    expect(await page.content()).not.toContain(newToken);

    // Revoke player1's token (the first side), by keyboard too.
    await press(page, 'Revoke the side’s token');
    await expect.poll(() => toolsStatus(page)).toMatch(/^player1’s token revoked at #3/);
    expect((await callApi(session.service, 'GET', `/games/${game.gameId}`, game.tokens.players.player1)).status).toBe(401);
    expect(session.errors.get(page)).toEqual([]);
  });
});
