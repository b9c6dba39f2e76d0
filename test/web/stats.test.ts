import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chiSquareText } from '../../domain/stats/statsText';
import { callApi, createGame, focusedName, linkOf, screenshot, SCREENSHOTS, startSession, tabTo, type CreatedGame, type Session } from './browserSession';

let session: Session;
let counted: CreatedGame;

/** Ten volleys of 10d6 a side and a few d20: enough d6 for a χ² test, too few d20. */
async function playedGame(body: Record<string, unknown>): Promise<CreatedGame> {
  const game = await createGame(session.service, body);
  for (let i = 0; i < 10; i++) {
    for (const side of ['player1', 'player2']) {
      await callApi(session.service, 'POST', `/games/${game.gameId}/commands`, game.tokens.players[side], { commandId: `${side}-${i}`, type: 'Roll', payload: { dice: '10d6', purpose: `volley ${i}` } });
    }
  }
  await callApi(session.service, 'POST', `/games/${game.gameId}/commands`, game.tokens.players.player1, { commandId: 'morale', type: 'Roll', payload: { dice: '2d20', purpose: 'morale' } });
  return game;
}

const seal = (game: CreatedGame) => callApi(session.service, 'POST', `/games/${game.gameId}/commands`, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });

beforeAll(async () => {
  session = await startSession();
  counted = await playedGame({ ruleset: 'dice', title: 'Counted' });
  const optedOut = await playedGame({ ruleset: 'dice', title: 'Kept out', publicStats: false });
  for (const game of [counted, optedOut]) expect((await seal(game)).status).toBe(201);
});
afterAll(async () => {
  await session?.close();
});

describe('#/stats: the dice of every sealed game', () => {
  it('shows a chart and the χ² figures of each die size, reached by keyboard alone', async () => {
    const api = (await callApi(session.service, 'GET', '/stats')).json;
    expect(api.dice.map((d: { sides: number; games: number }) => [d.sides, d.games])).toEqual([
      [6, 1],
      [20, 1],
    ]);
    const page = await session.open('/#/organize');
    expect(await tabTo(page, 'Dice statistics')).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Dice statistics of all sealed games' }).waitFor();
    const d6 = page.locator('section.die-figures').first();
    await d6.waitFor();

    const figures = api.dice[0].figures;
    expect(figures.rolls).toBe(200);
    await expect.poll(() => d6.locator('.chi-square').textContent()).toBe(`200 rolls; ${chiSquareText(figures)}`);
    expect(await d6.locator('.stats-words').textContent()).toBe(figures.words);
    const chart = d6.getByRole('img');
    expect(await chart.getAttribute('aria-label')).toBe(`d6 over 1 sealed game: 200 rolls; counts per face ${figures.faces.map((f: { count: number }) => f.count).join(', ')}; 33.3 expected for each`);
    expect(await chart.locator('rect.bar').count()).toBe(6);
    const rows = d6.getByRole('table').locator('tbody tr');
    expect(await rows.count()).toBe(6);
    expect(await rows.first().locator('td').first().textContent()).toBe(String(figures.faces[0].count));
    const d20 = page.locator('section.die-figures').nth(1);
    expect(await d20.locator('.stats-words').textContent()).toMatch(/^too few dice to tell: 2 rolls of d20/);
    expect(await d20.getByRole('table').isVisible()).toBe(false);

    // The next Tab stops on each die size, which reads out its verdict.
    await page.keyboard.press('Tab');
    await expect.poll(() => focusedName(page)).toBe(`d6 over 1 sealed game: ${figures.words}`);
    expect(session.errors.get(page)).toEqual([]);
    await screenshot(page, 'stats');
  });
});

describe('creating a game', () => {
  it('counts its dice publicly unless the organizer unticks the box, and commit 1 records the choice', async () => {
    const page = await session.open('/#/organize');
    await expect.poll(() => page.locator('select option[value="dice"]').count()).toBe(1);
    const box = page.getByLabel('Count its dice in the public dice statistics once sealed');
    expect(await box.isChecked()).toBe(true);
    expect(await tabTo(page, 'Count its dice in the public dice statistics once sealed')).toBe(true);
    await page.keyboard.press('Space');
    expect(await box.isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Create the game' }).click();
    const organizerLink = page.getByLabel('Organizer link', { exact: true });
    await organizerLink.waitFor();
    const created = await organizerLink.inputValue();
    const gameId = decodeURIComponent(created.split('#/games/')[1].split('?')[0]);
    const token = new URLSearchParams(created.split('?')[1]).get('token')!;
    const commits = (await callApi(session.service, 'GET', `/games/${gameId}/events`, token)).json.commits;
    expect(commits[0].command.payload).toMatchObject({ ruleset: 'dice', publicStats: false });
    expect(session.errors.get(page)).toEqual([]);
  });
});

describe("a sealed game's timeline", () => {
  it('shows its dice statistics once sealed, and none while it is played', async () => {
    const game = await playedGame({ ruleset: 'dice', title: 'Sealed while watched' });
    const page = await session.open(linkOf(game.gameId, game.tokens.players.player1));
    await page.locator('tr[data-seq="22"]').waitFor();
    expect(await page.locator('section.game-stats').count()).toBe(0);

    expect((await seal(game)).status).toBe(201);
    const stats = page.locator('section.game-stats');
    await stats.waitFor();
    const api = (await callApi(session.service, 'GET', `/games/${game.gameId}/stats`, game.tokens.players.player2)).json;
    const headings = await stats.locator('h3, h4').allTextContents();
    expect(headings).toEqual(['d6, every side', 'd6, player1', 'd6, player2', 'd20, every side', 'd20, player1']);
    expect(await stats.locator('.chi-square').first().textContent()).toBe(`200 rolls; ${chiSquareText(api.dice[0].all)}`);
    expect(await stats.locator('.stats-words').nth(1).textContent()).toBe(api.dice[0].byRole[0].figures.words);
    expect(await stats.getByRole('img').count()).toBe(5);
    expect(session.errors.get(page)).toEqual([]);
    // The d20's 2 rolls are too few: its table folds away, and opens from the keyboard.
    const d20 = stats.locator('section.die-figures').nth(3);
    const summary = d20.locator('summary');
    await summary.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => d20.getByRole('table').locator('tbody tr').count()).toBe(20);
    await page.keyboard.press('Enter');
    await stats.screenshot({ path: new URL('game-stats.png', SCREENSHOTS).pathname, animations: 'disabled' });
  });
});
