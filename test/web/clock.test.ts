// The clock on the timeline. GET /games/{id}/clock is STOOD IN (issue33StandIns.ts) until part B lands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createGame, linkOf, screenshot, startSession, type Session } from './browserSession';
import { standInIssue33Api } from './issue33StandIns';

let session: Session;
beforeAll(async () => {
  session = await startSession();
});
afterAll(async () => {
  await session?.close();
});

const secondsOf = (hms: string | null) => {
  const [h, m, s] = (hms ?? '').split(':').map(Number);
  return h * 3600 + m * 60 + s;
};

describe('the clock on the timeline (stand-in for GET /games/{id}/clock)', () => {
  it('says whose move it is and since when, each side’s time used, overdue in words; ticks without asking the server; reads it again with each new commit', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'On the clock' });
    const page = await session.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const standIns = await standInIssue33Api(page, { [game.tokens.players.player2]: 'player2' });
    const now = Date.now();
    const since = new Date(now - 90_000).toISOString();
    standIns.clock = {
      toMove: 'player1',
      since,
      asOf: new Date(now - 30_000).toISOString(),
      sides: { player1: { usedSeconds: 120 }, player2: { usedSeconds: 4 * 3600 + 5 * 60 + 45.5 } },
      timeControl: { perMoveSeconds: 60 },
      overdue: [],
    };
    await page.goto(new URL(linkOf(game.gameId, game.tokens.players.player2), session.service.url).href);
    const clock = page.getByRole('region', { name: 'Clock' });
    await clock.waitFor();
    await expect.poll(() => page.locator('.connection').textContent()).toMatch(/^Live/);

    expect(await clock.locator('[data-field="to-move"]').textContent()).toMatch(/^player1 to move since .+ \((1 min|9\d s) ago\)\.$/);
    // Absolute too: the date and time of `since` in the reader's locale.
    const sinceText = await page.evaluate((iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }), since);
    expect(await clock.locator('[data-field="to-move"]').textContent()).toContain(sinceText);
    const used = (side: string) => clock.locator(`tr[data-side="${side}"] td.used`).textContent();
    // player1 is to move: its 120 s to the last commit, plus the 30 s since.
    expect(secondsOf(await used('player1'))).toBeGreaterThanOrEqual(150);
    expect(secondsOf(await used('player1'))).toBeLessThan(150 + 60);
    // player2 is not: its time stands, in h:mm:ss.
    expect(await used('player2')).toBe('4:05:45');
    // Overdue in words (past the 60 s a move may take), not by colour alone.
    expect(await clock.locator('tr[data-side="player1"] td.clock-state').textContent()).toBe('to move, OVERDUE');
    expect(await clock.locator('tr[data-side="player2"] td.clock-state').textContent()).toBe('');
    expect(await clock.locator('[data-field="overdue"]').textContent()).toMatch(/^Overdue: player1 has been on this move for 0:01:\d\d, past the 0:01:00 a move may take\.$/);
    expect(await clock.locator('[data-field="time-control"]').textContent()).toBe('Time control: 0:01:00 per move.');
    await screenshot(page, 'clock-timeline');

    // It ticks, once a second, from the page's own clock: no request for it.
    const reads = standIns.clockReads;
    const first = secondsOf(await used('player1'));
    await expect.poll(async () => secondsOf(await used('player1')), { timeout: 5_000 }).toBeGreaterThan(first);
    const second = secondsOf(await used('player1'));
    await expect.poll(async () => secondsOf(await used('player1')), { timeout: 5_000 }).toBeGreaterThan(second);
    expect(await used('player2')).toBe('4:05:45');
    expect(standIns.clockReads).toBe(reads);

    // A new commit (pushed): the page reads the clock again with the game, and shows the hand-over.
    standIns.clock = { ...standIns.clock, toMove: 'player2', since: new Date().toISOString(), asOf: new Date().toISOString(), sides: { player1: { usedSeconds: 200 }, player2: { usedSeconds: 14745.5 } } };
    const rolled = await callApi(session.service, 'POST', `/games/${game.gameId}/commands`, game.tokens.players.player1, { commandId: 'c1', type: 'Roll', payload: { dice: '2d6', purpose: 'first fire' } });
    expect(rolled.status).toBe(201);
    await expect.poll(() => clock.locator('[data-field="to-move"]').textContent()).toMatch(/^player2 to move since .+ \((just now|\d s ago)\)\.$/);
    expect(standIns.clockReads).toBeGreaterThan(reads);
    expect(await used('player1')).toBe('0:03:20');
    expect(await clock.locator('[data-field="overdue"]').isHidden()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('says when nobody is to move; a server without a clock shows none', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Stopped clock' });
    const page = await session.context.newPage();
    const standIns = await standInIssue33Api(page, {});
    const asOf = new Date(Date.now() - 60_000).toISOString();
    standIns.clock = { toMove: null, since: asOf, asOf, sides: { player1: { usedSeconds: 61 }, player2: { usedSeconds: 0 } }, overdue: [] };
    await page.goto(new URL(linkOf(game.gameId, game.tokens.organizer), session.service.url).href);
    const clock = page.getByRole('region', { name: 'Clock' });
    await clock.waitFor();
    expect(await clock.locator('[data-field="to-move"]').textContent()).toBe('Nobody is to move now.');
    expect(await clock.locator('tr[data-side="player1"] td.used').textContent()).toBe('0:01:01');
    expect(await clock.locator('[data-field="time-control"]').textContent()).toBe('No time control: the clock only counts.');

    const without = await session.context.newPage();
    await standInIssue33Api(without, {});
    await without.goto(new URL(linkOf(game.gameId, game.tokens.organizer), session.service.url).href);
    await without.locator('tr[data-seq="1"]').waitFor();
    await expect.poll(() => without.locator('.connection').textContent()).toMatch(/^Live/);
    expect(await without.locator('section.game-clock').isHidden()).toBe(true);
  });

  it('the tournament page’s Clock column names the overdue side in words (the listing’s `overdue` stood in)', async () => {
    const tournament = (await callApi(session.service, 'POST', '/tournaments', undefined, { name: 'League week 3' })).json as { tournamentId: string; token: string };
    const gameIds: string[] = [];
    for (const title of ['Table 1', 'Table 2']) gameIds.push((await callApi(session.service, 'POST', '/games', tournament.token, { ruleset: 'dice', title })).json.gameId);
    const page = await session.context.newPage();
    const standIns = await standInIssue33Api(page, {}, { tournamentClocks: true });
    standIns.overdue.set(gameIds[0], ['player2']);
    await page.goto(new URL(`/#/tournaments/${tournament.tournamentId}?token=${tournament.token}`, session.service.url).href);
    const cells = page.locator('table.tournament-games tbody tr [data-field="clock"]');
    await expect.poll(() => cells.allTextContents()).toEqual(['OVERDUE: player2', 'on time']);
    expect(await page.locator('[data-clock-note]').textContent()).toContain('OVERDUE names the side to move when it is past the game’s time control');
  });
});
