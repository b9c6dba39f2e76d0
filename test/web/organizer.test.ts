import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { verifyExport } from '../../domain/verify/verifyExport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createGame, focusedName, linkOf, screenshot, startSession, type Session } from './browserSession';

let session: Session;
beforeAll(async () => {
  session = await startSession();
});
afterAll(async () => {
  await session?.close();
});

const linkValue = (page: Page, label: string) => page.getByLabel(label, { exact: true }).inputValue();

describe('the organizer page (/)', () => {
  it('creates a game; a player opens their link, rolls, and the row appears', async () => {
    const page = await session.open('/');
    await expect.poll(() => page.locator('select option[value="dice"]').count()).toBe(1);
    await page.getByLabel('Ruleset').selectOption('dice');
    await page.getByLabel('Title').fill('Club night <i>3</i>');
    await page.getByRole('button', { name: 'Create the game' }).click();
    const player1 = await linkValue(page, 'Player link: player1');
    const organizer = await linkValue(page, 'Organizer link');
    expect(player1).toMatch(new RegExp(`^${session.service.url.replace(/[.[\]]/g, '\\$&')}/#/games/g-[\\w-]+\\?token=arb_[\\w-]+$`));
    expect(await linkValue(page, 'Player link: player2')).not.toBe(player1);
    expect(organizer).not.toBe(player1);
    await page.getByRole('button', { name: 'Create spectator link' }).click();
    await expect.poll(() => page.getByLabel('Spectator link: Spectator 1', { exact: true }).count()).toBe(1);
    await screenshot(page, 'organizer');

    const player = await session.open(player1);
    await expect.poll(() => player.locator('.game-header h1').textContent()).toBe('Club night <i>3</i>');
    expect(await player.locator('.game-header i').count()).toBe(0);
    expect(await player.locator('[data-field="role"]').textContent()).toBe('player1');
    const keys = (await callApi(session.service, 'GET', '/keys')).json;
    expect(await player.locator('[data-field="fingerprint"]').textContent()).toBe(keys.keys[0].fingerprint);
    await player.getByLabel('Dice', { exact: true }).fill('2d6+1d10');
    await player.getByLabel('Purpose').fill('assault on <b>1205</b>');
    await player.getByRole('button', { name: 'Roll' }).click();
    const row = player.locator('tr[data-seq="2"]');
    await row.waitFor();
    expect(await row.locator('td.actor').textContent()).toBe('player1');
    expect(await row.locator('td.line').textContent()).toMatch(/^#2 player1 Roll "assault on <b>1205<\/b>": 2d6\+1d10 = \d+ \d+ \d+ = \d+ \[[0-9a-f]{8}\]$/);
    expect(await row.locator('b').count()).toBe(0);
    expect(await row.locator('.die').count()).toBe(3);
    expect(await row.locator('.die.dn .sides').textContent()).toBe('d10');
    expect(await row.locator('td.result').textContent()).toMatch(/^total \d+$/);
    await screenshot(player, 'timeline');

    // The organizer's link opens the same timeline, with the organizer's tools.
    const organizerPage = await session.open(organizer);
    await organizerPage.locator('tr[data-seq="2"]').waitFor();
    expect(await organizerPage.getByRole('button', { name: 'Seal the game' }).count()).toBe(1);
    expect(session.errors.get(page)).toEqual([]);
    expect(session.errors.get(player)).toEqual([]);
    expect(session.errors.get(organizerPage)).toEqual([]);
  });

  it('creates a game with the keyboard only: Tab to each control, Enter to create, with a visible focus', async () => {
    const page = await session.open('/#/organize');
    await expect.poll(() => page.locator('select option[value="dice"]').count()).toBe(1);
    const focused = () => focusedName(page);
    const seen: string[] = [];
    for (let i = 0; i < 30 && (await focused()) !== 'Create the game'; i++) {
      await page.keyboard.press('Tab');
      const name = await focused();
      seen.push(name);
      if (name === 'Title') await page.keyboard.type('Keyboard game');
      expect(await page.evaluate("getComputedStyle(document.activeElement).outlineStyle"), `focus ring on ${name}`).not.toBe('none');
    }
    expect(seen).toEqual(expect.arrayContaining(['Ruleset', 'Title', 'Create the game']));
    await page.keyboard.press('Enter');
    await page.getByLabel('Player link: player1', { exact: true }).waitFor();
    expect(await page.getByLabel('Organizer link', { exact: true }).inputValue()).toMatch(/#\/games\/g-[\w-]+\?token=arb_/);
    // On to the spectator link: Tab until its button, Enter.
    for (let i = 0; i < 30 && (await focused()) !== 'Create spectator link'; i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByLabel('Spectator link: Spectator 1', { exact: true }).waitFor();
    const gameId = (await page.locator('section.created > h2').textContent())!.replace('Game ', '');
    const game = (await callApi(session.service, 'GET', `/games/${gameId}`, new URLSearchParams((await page.getByLabel('Organizer link', { exact: true }).inputValue()).split('?')[1]).get('token')!)).json;
    expect(game).toMatchObject({ title: 'Keyboard game', ruleset: 'dice', version: 1, role: 'organizer' });
    expect(session.errors.get(page)).toEqual([]);
  });

  it('creates a game of another ruleset with options from its schema', async () => {
    const page = await session.open('/');
    await expect.poll(() => page.locator('select option[value="normandy44"]').count()).toBe(1);
    await page.getByLabel('Ruleset').selectOption('normandy44');
    await page.getByRole('button', { name: 'Create the game' }).click();
    const link = await page.getByLabel('Organizer link', { exact: true }).inputValue();
    const player = await session.open(link);
    await player.locator('tr[data-seq="1"]').waitFor();
    // Commands other than Roll come from the ruleset's schemas.
    expect(await player.getByLabel('Command', { exact: true }).locator('option').count()).toBeGreaterThan(1);
    expect(session.errors.get(page)).toEqual([]);
    expect(session.errors.get(player)).toEqual([]);
  });

  it('lets the organizer act for a side, seal the game and download an export that verifies', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'To seal' });
    const page = await session.open(linkOf(game.gameId, game.tokens.organizer));
    await page.locator('tr[data-seq="1"]').waitFor();
    await page.getByLabel('Act as').selectOption('player2');
    await page.getByLabel('Purpose').fill('for player2, by the organizer');
    await page.getByRole('button', { name: 'Roll' }).click();
    await page.locator('tr[data-seq="2"]').waitFor();
    expect(await page.locator('tr[data-seq="2"] td.actor').textContent()).toBe('player2');

    const download = async () => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the export' }).click()]);
      expect(file.suggestedFilename()).toBe(`${game.gameId}.json`);
      return JSON.parse(await readFile((await file.path())!, 'utf8'));
    };
    const fingerprint = (await callApi(session.service, 'GET', '/keys')).json.keys[0].fingerprint;
    expect(verifyExport(await download(), { trusted: [fingerprint] })).toMatchObject({ exitCode: 3, sealed: false, commits: 2 });

    await page.getByRole('button', { name: 'Seal the game' }).click();
    await page.getByRole('button', { name: 'Seal it now' }).click();
    await expect.poll(() => page.locator('[data-field="sealed"]').textContent()).toMatch(/^sealed/);
    await page.locator('tr[data-seq="3"]').waitFor();
    expect(await page.locator('.command-box').count()).toBe(0);
    expect(verifyExport(await download(), { trusted: [fingerprint] })).toMatchObject({ ok: true, exitCode: 0, sealed: true, commits: 3, dice: 2 });
    expect(session.errors.get(page)).toEqual([]);
  });

  it('sends a command of another ruleset from a form built from its schema, and shows a refusal in words', async () => {
    const game = await createGame(session.service, { ruleset: 'normandy44', title: 'Normandy' });
    const page = await session.open(linkOf(game.gameId, game.tokens.players.allied));
    await page.locator('tr[data-seq="1"]').waitFor();
    await page.getByLabel('Command', { exact: true }).selectOption('StartTurn');
    await page.getByLabel('Turn turn', { exact: true }).fill('1');
    await page.getByLabel('Reinforcement points reinforcementPoints', { exact: true }).fill('4');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('tr[data-seq="2"]').waitFor();
    expect(await page.locator('tr[data-seq="2"]').getAttribute('data-type')).toBe('StartTurn');
    await expect.poll(() => page.locator('.game-header').textContent()).toContain('turn 1');
    // Turn 1 again: the rules refuse it (422), in words, and nothing is stored.
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('.command-box [role="status"]').textContent()).toMatch(/^Refused \(422\): /);
    expect(await page.locator('table.timeline tbody tr').count()).toBe(2);
    await screenshot(page, 'timeline-normandy44');
    // Turn 2; then the turn filter.
    await page.getByLabel('Turn turn', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('tr[data-seq="3"]').waitFor();
    await page.getByLabel('Show turn').selectOption('1');
    expect(await page.locator('table.timeline tbody tr:not([hidden])').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-seq')))).toEqual(['2']);
    await page.getByLabel('Show turn').selectOption('2');
    expect(await page.locator('table.timeline tbody tr:not([hidden])').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-seq')))).toEqual(['3']);
    // An array of objects with enums: Add an item, choose from the lists.
    await page.getByLabel('Command', { exact: true }).selectOption('PurchaseReinforcements');
    expect(await page.getByLabel('Kind kind', { exact: true }).count()).toBe(1); // minItems 1
    await page.getByRole('button', { name: 'Add items item' }).click();
    expect(await page.getByLabel('Kind kind', { exact: true }).count()).toBe(2);
    await page.getByRole('button', { name: 'Remove items 2' }).click();
    await page.getByLabel('Kind kind', { exact: true }).selectOption({ label: 'one-step-unit' });
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('.command-box [role="status"]').textContent()).toBe('Stored as #4.');
    expect(await page.locator('tr[data-seq="4"]').getAttribute('data-type')).toBe('PurchaseReinforcements');
    expect(await page.locator('tr[data-seq="4"] td.line').textContent()).toContain('one-step-unit');
    // The console listener does hear the browser: the refused request is its only error.
    expect(session.errors.get(page)).toEqual([expect.stringMatching(/422/)]);
  });
});

describe('games on tables given as data, from the organizer page', () => {
  it('takes the tables as pasted JSON, and a player resolves on them from the form', async () => {
    const table = JSON.parse(await readFile(new URL('../../docs/examples/tables/france44-crt-set-piece.json', import.meta.url), 'utf8'));
    const page = await session.open('/');
    await expect.poll(() => page.locator('select option[value="table"]').count()).toBe(1);
    await page.getByLabel('Ruleset').selectOption('table');
    // The tables are one JSON box, not a form of a hundred fields.
    await page.getByLabel('The combat tables of the game, as data (docs/tables.md) (JSON) tables', { exact: true }).fill(JSON.stringify([table], null, 2));
    await page.getByRole('button', { name: 'Create the game' }).click();
    const link = await page.getByLabel('Player link: player1', { exact: true }).inputValue();
    const player = await session.open(link);
    await player.locator('tr[data-seq="1"]').waitFor();
    await player.getByLabel('Command', { exact: true }).selectOption('Resolve');
    await player.getByLabel("The id of one of the game's tables table", { exact: true }).fill(table.id);
    await player.getByLabel('The attack total (ratio and differential tables) attack', { exact: true }).fill('12');
    await player.getByLabel('The defence total (ratio and differential tables) defence', { exact: true }).fill('4');
    await player.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => player.locator('.command-box [role="status"]').textContent()).toBe('Stored as #2.');
    expect(await player.locator('tr[data-seq="2"] td.line').textContent()).toMatch(/^#2 player1 Resolve "France 1944.*" \(sha256:[0-9a-f]{12}\) 3-1, 1d6 \d = \d → "[A-F]" \[[0-9a-f]{8}\]$/);
    expect(session.errors.get(page)).toEqual([]);
    expect(session.errors.get(player)).toEqual([]);
  });

  it('shows the bundled example table of a Europa game as JSON the organizer may replace', async () => {
    const page = await session.open('/');
    await expect.poll(() => page.locator('select option[value="europa"]').count()).toBe(1);
    await page.getByLabel('Ruleset').selectOption('europa');
    const box = page.getByLabel('The AA fire table of rule 37L as data (docs/tables.md) (JSON) aaTable', { exact: true });
    expect(JSON.parse(await box.inputValue())).toMatchObject({ format: 'arbiter-table/1', example: true });
    await page.getByRole('button', { name: 'Create the game' }).click();
    expect(await page.getByLabel('Organizer link', { exact: true }).inputValue()).toMatch(/#\/games\//);
    expect(session.errors.get(page)).toEqual([]);
  });
});
