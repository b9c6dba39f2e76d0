// Voided commits on the timeline. Until part A lands, the server has no Void: the events pages'
// `voidedBy` and the pushed Void commit are STOOD IN (issue33StandIns.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createGame, focusedName, linkOf, screenshot, startSession, tabTo, type Session } from './browserSession';
import { standInIssue33Api } from './issue33StandIns';

let session: Session;
beforeAll(async () => {
  session = await startSession();
});
afterAll(async () => {
  await session?.close();
});

/** The element's text-decoration-line, as the browser draws it. */
const decoration = (e: unknown) => (globalThis as unknown as { getComputedStyle(e: unknown): { textDecorationLine: string } }).getComputedStyle(e).textDecorationLine;

const roll = (gameId: string, token: string, commandId: string, purpose: string, dice = '2d6') =>
  callApi(session.service, 'POST', `/games/${gameId}/commands`, token, { commandId, type: 'Roll', payload: { dice, purpose } });

describe('voided commits on the timeline', () => {
  it('shows a commit voided before the page opened struck through and labelled in words', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Voided early' });
    expect((await roll(game.gameId, game.tokens.players.player1, 'r1', 'too many dice', '3d6')).status).toBe(201);
    expect((await roll(game.gameId, game.tokens.players.player2, 'r2', 'reply')).status).toBe(201);
    const page = await session.context.newPage();
    const standIns = await standInIssue33Api(page, {});
    standIns.voidedBy.set(2, { seq: 4, reason: 'rolled 3d6; the table says 2d6' });
    await page.goto(new URL(linkOf(game.gameId, game.tokens.organizer), session.service.url).href);
    const voided = page.locator('tr[data-seq="2"]');
    await voided.waitFor();
    expect(await voided.getAttribute('class')).toContain('voided');
    expect(await voided.locator('.voided-note').textContent()).toBe('voided by #4: rolled 3d6; the table says 2d6');
    // The line itself stays, struck through; the label is not.
    expect(await voided.locator('.line-text').evaluate(decoration)).toBe('line-through');
    expect(await voided.locator('.voided-note').evaluate(decoration)).toBe('none');
    expect(await voided.locator('.die').count()).toBe(3);
    expect(await page.locator('tr[data-seq="3"].voided').count()).toBe(0);
    expect(await page.locator('tr[data-seq="3"] .voided-note').count()).toBe(0);
  });

  it('marks the row a Void names as the Void arrives live, without a reload; the reason shown as text', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Voided live' });
    expect((await roll(game.gameId, game.tokens.players.player1, 'r1', 'mislabeled roll')).status).toBe(201);
    const page = await session.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const standIns = await standInIssue33Api(page, { [game.tokens.players.player2]: 'player2' });
    await page.goto(new URL(linkOf(game.gameId, game.tokens.players.player2), session.service.url).href);
    await page.locator('tr[data-seq="2"]').waitFor();
    await expect.poll(() => page.locator('.connection').getAttribute('data-transport')).toBe('push');
    await page.evaluate("window.notReloaded = true");

    const reason = '<b>wrong</b> purpose: "hex 0907", not 0908';
    const recordedAt = new Date().toISOString();
    standIns.pushToPage({
      type: 'commit',
      gameId: game.gameId,
      commit: { seq: 3, actor: 'organizer', command: { type: 'Void', payload: { seq: 2, reason } }, events: [{ type: 'CommitVoided', data: { seq: 2, reason } }], dice: [], recordedAt, hash: '0'.repeat(64) },
      line: `#3 organizer Void #2: "${reason}" [00000000]`,
    });
    await page.locator('tr[data-seq="3"]').waitFor();
    const voided = page.locator('tr[data-seq="2"]');
    await expect.poll(() => voided.locator('.voided-note').textContent()).toBe(`voided by #3: ${reason}`);
    expect(await voided.locator('.voided-note b').count()).toBe(0);
    expect(await page.evaluate('window.notReloaded === true')).toBe(true);
    await screenshot(page, 'timeline-voided');
    expect(errors).toEqual([]);
  });

  it('the organizer sends Void and Ruling from the command box the catalogue builds, by keyboard only (the two commands stood in)', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Ruled' });
    const page = await session.context.newPage();
    const standIns = await standInIssue33Api(page, {}, { organizerCommands: true });
    await page.goto(new URL(linkOf(game.gameId, game.tokens.organizer), session.service.url).href);
    await page.locator('tr[data-seq="1"]').waitFor();
    // "Other commands" opens from the keyboard; the command is chosen by its name.
    expect(await tabTo(page, 'Other commands', 60)).toBe(true);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Other command');
    await page.keyboard.type('Void');
    expect(await page.getByLabel('Other command', { exact: true }).inputValue()).toBe('Void');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toMatch(/^Seq/);
    await page.keyboard.type('2');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toMatch(/^Reason/);
    await page.keyboard.type('rolled 3d6; the table says 2d6');
    await page.keyboard.press('Enter');
    await expect.poll(() => standIns.organizerCommands.length).toBe(1);
    expect(standIns.organizerCommands[0]).toMatchObject({ type: 'Void', payload: { seq: 2, reason: 'rolled 3d6; the table says 2d6' } });

    await page.keyboard.down('Shift');
    for (let i = 0; i < 3 && (await focusedName(page)) !== 'Other command'; i++) await page.keyboard.press('Tab');
    await page.keyboard.up('Shift');
    expect(await focusedName(page)).toBe('Other command');
    await page.keyboard.type('Ruling');
    expect(await page.getByLabel('Other command', { exact: true }).inputValue()).toBe('Ruling');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toMatch(/^Text/);
    await page.keyboard.type('The attack on 0907 stands; the second roll is void.');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toMatch(/^Concerning/);
    await page.keyboard.type('2\n3');
    await tabTo(page, 'Send', 10);
    await page.keyboard.press('Enter');
    await expect.poll(() => standIns.organizerCommands.length).toBe(2);
    expect(standIns.organizerCommands[1]).toMatchObject({ type: 'Ruling', payload: { text: 'The attack on 0907 stands; the second roll is void.', concerning: [2, 3] } });
  });
});
