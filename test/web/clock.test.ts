// The clock on the timeline, from the real GET /games/{id}/clock. The service's clock is set
// by the test (LocalOptions.now) while the game is played, so that the commits lie minutes and
// hours in the browser's past; afterwards it runs with real time again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createGame, linkOf, screenshot, startSession, type Session } from './browserSession';

let session: Session;
/** The time the service reads: set while a test plays, undefined for real time. */
let serviceMs: number | undefined;
beforeAll(async () => {
  session = await startSession({ now: () => new Date(serviceMs ?? Date.now()).toISOString() });
});
afterAll(async () => {
  await session?.close();
});

const secondsOf = (text: string | null) => {
  const [h, m, s] = (text ?? '').split(':').map(Number);
  return h * 3600 + m * 60 + s;
};

const command = (gameId: string, token: string, commandId: string, type: string, payload: unknown) =>
  callApi(session.service, 'POST', `/games/${gameId}/commands`, token, { commandId, type, payload });

describe('the clock on the timeline (GET /games/{id}/clock)', () => {
  it('says whose move it is and since when, each side’s time used, overdue in words; ticks without asking the server; reads it again with each new commit', async () => {
    const start = Date.now();
    // player2 held the move 4:05:45.5, player1 came to move 90 s ago and rolled 30 s ago.
    serviceMs = start - (120 + 14_745.5 + 90) * 1000;
    const game = await createGame(session.service, { ruleset: 'dice', title: 'On the clock', timeControl: { perMoveSeconds: 60 } });
    const { player1, player2 } = game.tokens.players;
    serviceMs += 120_000;
    expect((await command(game.gameId, player1, 'p1', 'PassTurn', { to: 'player2' })).status).toBe(201);
    serviceMs += 14_745_500;
    expect((await command(game.gameId, player2, 'p2', 'PassTurn', { to: 'player1' })).status).toBe(201);
    const since = new Date(serviceMs).toISOString();
    serviceMs += 60_000;
    expect((await command(game.gameId, player1, 'r1', 'Roll', { dice: '2d6', purpose: 'first fire' })).status).toBe(201);
    serviceMs = undefined;

    const page = await session.open(linkOf(game.gameId, player2));
    let clockReads = 0;
    page.on('request', (request) => void (request.url().endsWith('/clock') && clockReads++));
    const clock = page.getByRole('region', { name: 'Clock' });
    await clock.waitFor();
    await expect.poll(() => page.locator('.connection').textContent()).toMatch(/^Live/);

    expect(await clock.locator('[data-field="to-move"]').textContent()).toMatch(/^player1 to move since .+ \((1 min|9\d s) ago\)\.$/);
    // Absolute too: the date and time of `since` in the reader's locale.
    const sinceText = await page.evaluate((iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }), since);
    expect(await clock.locator('[data-field="to-move"]').textContent()).toContain(sinceText);
    const used = (side: string) => clock.locator(`tr[data-side="${side}"] td.used`).textContent();
    // player1 is to move: its 120 s and 60 s to the last commit, plus the 30 s since.
    expect(secondsOf(await used('player1'))).toBeGreaterThanOrEqual(210);
    expect(secondsOf(await used('player1'))).toBeLessThan(210 + 60);
    // player2 is not: its time stands, in h:mm:ss.
    expect(await used('player2')).toBe('4:05:45');
    // Overdue in words (past the 60 s a move may take), not by colour alone.
    expect(await clock.locator('tr[data-side="player1"] td.clock-state').textContent()).toBe('to move, OVERDUE');
    expect(await clock.locator('tr[data-side="player2"] td.clock-state').textContent()).toBe('');
    expect(await clock.locator('[data-field="overdue"]').textContent()).toMatch(/^Overdue: player1 has been on this move for 0:01:\d\d, past the 0:01:00 a move may take\.$/);
    expect(await clock.locator('[data-field="time-control"]').textContent()).toBe('Time control: 0:01:00 per move.');
    await screenshot(page, 'clock-timeline');

    // It ticks, once a second, from the page's own clock: no request for it.
    const reads = clockReads;
    const first = secondsOf(await used('player1'));
    await expect.poll(async () => secondsOf(await used('player1')), { timeout: 5_000 }).toBeGreaterThan(first);
    const second = secondsOf(await used('player1'));
    await expect.poll(async () => secondsOf(await used('player1')), { timeout: 5_000 }).toBeGreaterThan(second);
    expect(await used('player2')).toBe('4:05:45');
    expect(clockReads).toBe(reads);

    // A new commit (pushed): the page reads the clock again with the game, and shows the hand-over.
    expect((await command(game.gameId, player1, 'p3', 'PassTurn', { to: 'player2' })).status).toBe(201);
    await expect.poll(() => clock.locator('[data-field="to-move"]').textContent()).toMatch(/^player2 to move since .+ \((just now|\d s ago)\)\.$/);
    expect(clockReads).toBeGreaterThan(reads);
    const served = (await callApi(session.service, 'GET', `/games/${game.gameId}/clock`, player2)).json as { sides: Record<string, { usedSeconds: number }> };
    expect(served.sides.player1.usedSeconds).toBeGreaterThanOrEqual(210);
    expect(secondsOf(await used('player1'))).toBe(Math.floor(served.sides.player1.usedSeconds));
    expect(await clock.locator('[data-field="overdue"]').isHidden()).toBe(true);
    expect(session.errors.get(page)).toEqual([]);
  });

  it('says when nobody is to move (a sealed game), with each side’s time used and no time control', async () => {
    serviceMs = Date.now() - 120_000;
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Stopped clock' });
    serviceMs += 61_000;
    expect((await command(game.gameId, game.tokens.organizer, 'seal', 'Seal', {})).status).toBe(201);
    serviceMs = undefined;
    const page = await session.open(linkOf(game.gameId, game.tokens.organizer));
    const clock = page.getByRole('region', { name: 'Clock' });
    await clock.waitFor();
    expect((await callApi(session.service, 'GET', `/games/${game.gameId}/clock`, game.tokens.organizer)).json.toMove).toBeNull();
    expect(await clock.locator('[data-field="to-move"]').textContent()).toBe('Nobody is to move now.');
    expect(await clock.locator('tr[data-side="player1"] td.used').textContent()).toBe('0:01:01');
    expect(await clock.locator('tr[data-side="player2"] td.used').textContent()).toBe('0:00:00');
    expect(await clock.locator('[data-field="time-control"]').textContent()).toBe('No time control: the clock only counts.');
    expect(session.errors.get(page)).toEqual([]);
  });

  it('the tournament page’s Clock column names the overdue side in words, from the real listing', async () => {
    const start = Date.now();
    serviceMs = start - 5 * 60_000;
    const tournament = (await callApi(session.service, 'POST', '/tournaments', undefined, { name: 'League week 3', timeControl: { perMoveSeconds: 120 } })).json as { tournamentId: string; token: string };
    const games: { gameId: string; tokens: { players: Record<string, string> } }[] = [];
    for (const title of ['Table 1', 'Table 2']) games.push((await callApi(session.service, 'POST', '/games', tournament.token, { ruleset: 'dice', title })).json);
    // Table 1: player1 handed over 4 min ago; player2 is past its 2 min. Table 2: player1 handed over just now.
    serviceMs += 60_000;
    expect((await command(games[0].gameId, games[0].tokens.players.player1, 'p1', 'PassTurn', { to: 'player2' })).status).toBe(201);
    serviceMs = undefined;
    expect((await command(games[1].gameId, games[1].tokens.players.player1, 'p1', 'PassTurn', { to: 'player2' })).status).toBe(201);
    const page = await session.open(`/#/tournaments/${tournament.tournamentId}?token=${tournament.token}`);
    const cells = page.locator('table.tournament-games tbody tr [data-field="clock"]');
    await expect.poll(() => cells.allTextContents()).toEqual(['OVERDUE: player2', 'player2 to move, on time']);
    expect(await page.locator('[data-clock-note]').textContent()).toContain('OVERDUE names the side to move when it is past the game’s time control');
    expect(session.errors.get(page)).toEqual([]);
  });
});
