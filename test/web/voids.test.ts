// Voids and rulings in the web app: a director voids a roll and records a ruling from the
// organizer's timeline, by keyboard only; the timeline (as read, and live) and the verify page
// mark the voided commit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createGame, focusedName, linkOf, screenshot, startSession, tabTo, type Session } from './browserSession';

let session: Session;
beforeAll(async () => {
  session = await startSession();
});
afterAll(async () => {
  await session?.close();
});

/** The element's text-decoration-line, as the browser draws it. */
const decoration = (e: unknown) => (globalThis as unknown as { getComputedStyle(e: unknown): { textDecorationLine: string } }).getComputedStyle(e).textDecorationLine;

describe('voids and rulings in the web app', () => {
  it('an organizer voids a roll by keyboard only; its row reads voided, and the verify page lists the void and the ruling', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'League round 3' });
    const post = (token: string, body: unknown) => callApi(session.service, 'POST', `/games/${game.gameId}/commands`, token, body);
    await post(game.tokens.players.player1, { commandId: 'r1', type: 'Roll', payload: { dice: '3d6', purpose: 'fire on 1205' } });

    const page = await session.open(linkOf(game.gameId, game.tokens.organizer));
    await page.locator('tr[data-seq="2"]').waitFor();
    expect(await tabTo(page, 'Other commands')).toBe(true);
    await page.keyboard.press('Enter');
    expect(await tabTo(page, 'Other command')).toBe(true);
    await page.keyboard.type('Void');
    expect(await page.getByLabel('Other command', { exact: true }).inputValue()).toBe('Void');
    expect(await tabTo(page, 'Seq: the commit to void seq')).toBe(true);
    await page.keyboard.type('2');
    expect(await tabTo(page, 'Reason: why, in the words the players will read reason')).toBe(true);
    await page.keyboard.type('rolled 3d6; the table says 2d6');
    expect(await tabTo(page, 'Send')).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.command-box [role="status"]').textContent()).toBe('Stored as #3.');
    await page.locator('tr[data-seq="3"]').waitFor();
    expect(await page.locator('tr[data-seq="3"]').textContent()).toContain('Void #2: "rolled 3d6; the table says 2d6"');

    // Read again, the roll's own line says it was voided.
    const again = await session.open(linkOf(game.gameId, game.tokens.players.player2));
    await again.locator('tr[data-seq="3"]').waitFor();
    expect(await again.locator('tr[data-seq="2"]').textContent()).toContain('(voided by #3)');
    expect(await again.locator('tr[data-seq="2"] .voided-note').textContent()).toBe('voided by #3: rolled 3d6; the table says 2d6');
    await screenshot(again, 'timeline-voided');

    // The Ruling, from the same box: the command chosen by its name, the seqs one a line.
    await page.keyboard.down('Shift');
    for (let i = 0; i < 6 && (await focusedName(page)) !== 'Other command'; i++) await page.keyboard.press('Tab');
    await page.keyboard.up('Shift');
    expect(await focusedName(page)).toBe('Other command');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Ruling');
    expect(await page.getByLabel('Other command', { exact: true }).inputValue()).toBe('Ruling');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toMatch(/^Text/);
    await page.keyboard.type('Player 1 fires again with 2d6.');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toMatch(/^Concerning/);
    await page.keyboard.type('2\n3');
    expect(await tabTo(page, 'Send', 10)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.command-box [role="status"]').textContent()).toBe('Stored as #4.');
    await page.locator('tr[data-seq="4"]').waitFor();
    expect(await page.locator('tr[data-seq="4"]').textContent()).toContain('Ruling "Player 1 fires again with 2d6." concerning #2, #3');
    await post(game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    const exported = (await callApi(session.service, 'GET', `/games/${game.gameId}/export`, game.tokens.organizer)).json;
    const fingerprint = (await callApi(session.service, 'GET', '/keys')).json.keys[0].fingerprint;
    const verify = await session.open('/#/verify');
    await expect.poll(() => verify.getByLabel('Trusted fingerprints (one per line)').inputValue()).toBe(fingerprint);
    await verify.getByLabel('Export file (JSON)').setInputFiles({ name: 'voided.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
    await verify.locator('.verdict').waitFor();
    expect(await verify.locator('.verdict').getAttribute('data-exit-code')).toBe('0');
    expect(await verify.locator('ul.decisions li').allTextContents()).toEqual([
      '#2 voided by #3: rolled 3d6; the table says 2d6',
      'Ruling #4: Player 1 fires again with 2d6. (concerning #2, #3)',
    ]);
    expect(await verify.locator('table.per-commit tr[data-seq="2"]').textContent()).toContain('ok, voided by #3');
    await screenshot(verify, 'verify-voided');
    expect(session.errors.get(page)).toEqual([]);
    expect(session.errors.get(verify)).toEqual([]);
  });

  it('shows a commit voided before the page opened struck through and labelled in words', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Voided early' });
    const post = (token: string, body: unknown) => callApi(session.service, 'POST', `/games/${game.gameId}/commands`, token, body);
    expect((await post(game.tokens.players.player1, { commandId: 'r1', type: 'Roll', payload: { dice: '3d6', purpose: 'too many dice' } })).status).toBe(201);
    expect((await post(game.tokens.players.player2, { commandId: 'r2', type: 'Roll', payload: { dice: '2d6', purpose: 'reply' } })).status).toBe(201);
    expect((await post(game.tokens.organizer, { commandId: 'v1', type: 'Void', payload: { seq: 2, reason: 'rolled 3d6; the table says 2d6' } })).status).toBe(201);
    const page = await session.open(linkOf(game.gameId, game.tokens.organizer));
    const voided = page.locator('tr[data-seq="2"]');
    await page.locator('tr[data-seq="4"]').waitFor();
    expect(await voided.getAttribute('class')).toContain('voided');
    expect(await voided.locator('.voided-note').textContent()).toBe('voided by #4: rolled 3d6; the table says 2d6');
    // The line itself stays, struck through; the label is not.
    expect(await voided.locator('.line-text').first().evaluate(decoration)).toBe('line-through');
    expect(await voided.locator('.voided-note').evaluate(decoration)).toBe('none');
    expect(await voided.locator('.die').count()).toBe(3);
    expect(await page.locator('tr[data-seq="3"].voided').count()).toBe(0);
    expect(await page.locator('tr[data-seq="3"] .voided-note').count()).toBe(0);
    expect(session.errors.get(page)).toEqual([]);
  });

  it('marks the row a Void names as the Void arrives live, without a reload; the reason shown as text', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Voided live' });
    const post = (token: string, body: unknown) => callApi(session.service, 'POST', `/games/${game.gameId}/commands`, token, body);
    expect((await post(game.tokens.players.player1, { commandId: 'r1', type: 'Roll', payload: { dice: '2d6', purpose: 'mislabeled roll' } })).status).toBe(201);
    const page = await session.open(linkOf(game.gameId, game.tokens.players.player2));
    await page.locator('tr[data-seq="2"]').waitFor();
    await expect.poll(() => page.locator('.connection').getAttribute('data-transport')).toBe('push');
    await page.evaluate('window.notReloaded = true');

    const reason = '<b>wrong</b> purpose: "hex 0907", not 0908';
    expect((await post(game.tokens.organizer, { commandId: 'v1', type: 'Void', payload: { seq: 2, reason } })).status).toBe(201);
    await page.locator('tr[data-seq="3"]').waitFor();
    const voided = page.locator('tr[data-seq="2"]');
    await expect.poll(() => voided.locator('.voided-note').textContent()).toBe(`voided by #3: ${reason}`);
    expect(await voided.locator('.voided-note b').count()).toBe(0);
    expect(await page.evaluate('window.notReloaded === true')).toBe(true);
    expect(session.errors.get(page)).toEqual([]);
  });

  it('shows a Roll of several labelled rolls as one row with a line per roll', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Several rolls' });
    await callApi(session.service, 'POST', `/games/${game.gameId}/commands`, game.tokens.players.player2, {
      commandId: 'r1',
      type: 'Roll',
      payload: { rolls: [{ dice: '2d6', purpose: 'assault' }, { dice: '1d6', purpose: 'morale' }] },
    });
    const page = await session.open(linkOf(game.gameId, game.tokens.players.player1));
    await page.locator('tr[data-seq="2"]').waitFor();
    const line = (await page.locator('tr[data-seq="2"] td.line').innerText()).split('\n');
    expect(line).toEqual([expect.stringMatching(/^#2 player2 Roll "assault": 2d6 = /), expect.stringMatching(/^#2 player2 Roll "morale": 1d6 = /)]);
    expect(session.errors.get(page)).toEqual([]);
  });
});
