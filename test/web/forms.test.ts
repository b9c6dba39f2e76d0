// Forms that fit the rules: what a schema leaves optional may be left empty, labels in words
// with the field's API name beside them, and an order of battle pasted as CSV, each bad row named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createGame, focusedName, linkOf, screenshot, startSession, tabTo, tokenOf, type Session } from './browserSession';

let session: Session;
beforeAll(async () => {
  session = await startSession();
});
afterAll(async () => {
  await session?.close();
});

describe('optional fields stay optional', () => {
  it('sends a France 1944 StartTurn with the reaction points left empty, by keyboard only', async () => {
    const game = await createGame(session.service, { ruleset: 'france44', title: 'France' });
    const page = await session.open(linkOf(game.gameId, game.tokens.players.allied));
    await page.locator('tr[data-seq="1"]').waitFor();
    expect(await tabTo(page, 'Command')).toBe(true);
    // Typing a command's name on the focused list chooses it, as in any select.
    await page.keyboard.type('StartTurn');
    expect(await page.getByLabel('Command', { exact: true }).inputValue()).toBe('StartTurn');
    expect(await tabTo(page, 'The game turn that begins turn')).toBe(true);
    await page.keyboard.type('1');
    // The reaction points are an optional object: its fields are not marked required.
    expect(await page.getByLabel('Allied reaction points allied', { exact: true }).getAttribute('required')).toBeNull();
    expect(await tabTo(page, 'Send')).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.command-box [role="status"]').textContent()).toBe('Stored as #2.');
    const events = (await callApi(session.service, 'GET', `/games/${game.gameId}/events`, game.tokens.organizer)).json;
    expect(events.commits[1].command).toEqual({ type: 'StartTurn', payload: { turn: 1 } });
  });

  it('asks for the other reaction-point field when only one is filled, and sends nothing', async () => {
    const game = await createGame(session.service, { ruleset: 'france44', title: 'France' });
    const page = await session.open(linkOf(game.gameId, game.tokens.players.allied));
    await page.locator('tr[data-seq="1"]').waitFor();
    await page.getByLabel('Command', { exact: true }).selectOption('StartTurn');
    await page.getByLabel('The game turn that begins turn', { exact: true }).fill('1');
    await page.getByLabel('Allied reaction points allied', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('.command-box [role="status"]').textContent()).toBe('`reactionPoints`: fill in `german` too, or leave it all empty.');
    await page.getByLabel('German reaction points german', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('.command-box [role="status"]').textContent()).toBe('Stored as #2.');
    const events = (await callApi(session.service, 'GET', `/games/${game.gameId}/events`, game.tokens.organizer)).json;
    expect(events.commits).toHaveLength(2);
    expect(events.commits[1].command.payload).toEqual({ turn: 1, reactionPoints: { allied: 3, german: 2 } });
    expect(session.errors.get(page)).toEqual([]);
  });
});

// The 15 fields of a Wars and Battles unit a club's spreadsheet holds.
const HEADER = 'unitId,side,kind,division,quality,maxLp,lp,status,energy,attack,defence,tiger,commander,outOfSupply,replenishable';
const GOOD = [
  'us-1-16,allied,infantry,1st US,veteran,12,12,4,100,6,5,,,,yes',
  'us-1-18,allied,infantry,1st US,veteran,12,10,4,90,6,5,,,false,',
  'de-352-914,axis,infantry,352nd,experienced,10,10,4,100,4,6,,,,',
  'de-tiger-1,axis,armored,,elite,8,,,,"[6,7,8,9]",8,true,,,no',
];

describe('an order of battle pasted as CSV', () => {
  it('creates a Wars and Battles game from pasted units; a bad row is named before anything is sent', async () => {
    const page = await session.open('/');
    await expect.poll(() => page.locator('select option[value="wars-and-battles"]').count()).toBe(1);
    await page.getByLabel('Ruleset').selectOption('wars-and-battles');
    const paste = page.getByLabel('Paste units (CSV or JSON)', { exact: true });
    // The labels come from the schema's descriptions, the API name beside them.
    expect(await page.locator('legend', { hasText: 'units' }).first().textContent()).toBe('Every unit of the game, both sides units');
    // A choice of values in the schema (impulses: 1 or 2) is one list of them all (— leaves it to the rules' default).
    expect(await page.getByLabel('Impulses per turn impulses', { exact: true }).locator('option').allTextContents()).toEqual(['—', '1', '2']);
    await page.getByLabel('Impulses per turn impulses', { exact: true }).selectOption({ label: '2' });
    // Row 3 has 0 as its maxLp, row 4 a side the game does not have.
    const bad = [GOOD[0], GOOD[1], GOOD[2].replace(',10,10,', ',0,10,'), GOOD[3].replace('axis', 'german')];
    await paste.fill([HEADER, ...bad].join('\n'));
    await page.getByRole('button', { name: 'Check the pasted units' }).click();
    const check = page.locator('.paste-result').first(); // the units' paste comes first
    await expect.poll(() => check.textContent()).toBe('Units pasted: row 3: `maxLp` must be a whole number from 1 to 99; row 4: `side` must be one of: allied, axis.');
    await screenshot(page, 'organizer-paste');
    // Creating checks the rows the same way: nothing is sent.
    const gamesBefore = session.errors.get(page)!.length;
    await page.getByRole('button', { name: 'Create the game' }).click();
    await expect.poll(() => page.locator('.create-game > [role="status"]').textContent()).toContain('row 3: `maxLp` must be a whole number from 1 to 99');
    expect(await page.locator('.created h2').count()).toBe(0);
    expect(session.errors.get(page)!.length).toBe(gamesBefore);

    // Fixed, by keyboard: into the box, select all, type the good rows, create.
    await paste.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText([HEADER, ...GOOD].join('\n'));
    expect(await tabTo(page, 'Check the pasted units')).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => check.textContent()).toBe('4 rows read; each fits the rules\' schema.');
    expect(await tabTo(page, 'Create the game', 200)).toBe(true);
    await page.keyboard.press('Enter');
    const organizerLink = await page.getByLabel('Organizer link', { exact: true }).inputValue();
    expect(await focusedName(page)).not.toBe('');
    const game = await callApi(session.service, 'GET', `/games/${new URL(organizerLink, session.service.url).hash.match(/games\/([^?]+)/)![1]}/events`, tokenOf(organizerLink));
    const units = game.json.commits[0].command.payload.options.units;
    expect(units).toHaveLength(4);
    expect(units[3]).toEqual({ unitId: 'de-tiger-1', side: 'axis', kind: 'armored', quality: 'elite', maxLp: 8, attack: [6, 7, 8, 9], defence: 8, tiger: true, replenishable: false });
    expect(units[1]).toMatchObject({ lp: 10, energy: 90, outOfSupply: false });
    expect(game.json.commits[0].command.payload.options.impulses).toBe(2);
    expect(session.errors.get(page)).toEqual([]);
  });
});
