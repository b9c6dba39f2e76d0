import type { Page, WebSocket as PageSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createGame, linkOf, startSession, type Session } from './browserSession';

let session: Session;
beforeAll(async () => {
  session = await startSession();
});
afterAll(async () => {
  await session?.close();
});

const roll = (gameId: string, token: string, commandId: string, purpose: string) =>
  callApi(session.service, 'POST', `/games/${gameId}/commands`, token, { commandId, type: 'Roll', payload: { dice: '2d6', purpose } });
const seqs = (page: Page) => page.locator('table.timeline tbody tr').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-seq'))));
const transport = (page: Page) => page.locator('.connection').getAttribute('data-transport');

/** Every read of /events the page makes from now on, and whether it was a long poll. */
function eventReads(page: Page) {
  const reads: { url: string; poll: boolean }[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/events')) reads.push({ url: r.url(), poll: r.url().includes('wait=') });
  });
  return reads;
}

describe('the timeline over push (docs/push.md)', () => {
  let page: Page;
  let socket: PageSocket;
  let game: Awaited<ReturnType<typeof createGame>>;
  const sent: string[] = [];

  it('shows commits another client makes as they are pushed: no HTTP poll while the socket is up', async () => {
    game = await createGame(session.service, { ruleset: 'dice', title: 'Pushed', options: { sides: ['red', 'blue'] } });
    page = await session.context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && errors.push(m.text()));
    page.on('websocket', (ws) => {
      socket = ws;
      ws.on('framesent', (f) => sent.push(String(f.payload)));
    });
    await page.goto(new URL(linkOf(game.gameId, game.tokens.players.blue), session.service.url).href);
    await page.locator('tr[data-seq="1"]').waitFor();
    await expect.poll(() => transport(page)).toBe('push');
    await expect.poll(() => session.service.push.stats().subscriptions).toBe(1);
    // The socket is this origin's /push; the token travels in the subscribe message, never in its URL.
    expect(new URL(socket.url()).pathname).toBe('/push');
    expect(socket.url()).not.toContain(game.tokens.players.blue);
    expect(JSON.parse(sent[0])).toEqual({ action: 'subscribe', gameId: game.gameId, token: game.tokens.players.blue, after: 1 });

    const reads = eventReads(page);
    for (let i = 1; i <= 3; i++) {
      const started = Date.now();
      expect((await roll(game.gameId, game.tokens.players.red, `r${i}`, `volley ${i}`)).status).toBe(201);
      await page.locator(`tr[data-seq="${i + 1}"]`).waitFor({ timeout: 2_000 });
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    // The pushed line is the server's chat-log line, as over HTTP; the header follows.
    expect(await page.locator('tr[data-seq="4"] td.line').textContent()).toMatch(/^#4 red Roll "volley 3": 2d6 = .* \[[0-9a-f]{8}\]$/);
    await expect.poll(() => page.locator('[data-field="version"]').textContent()).toBe('4');
    await expect.poll(() => page.locator('#announcer').textContent()).toContain('#4 red Roll "volley 3"');
    expect(reads).toEqual([]);
    expect(await seqs(page)).toEqual([1, 2, 3, 4]);
    expect(errors).toEqual([]);
  });

  it('falls back to long-poll when the socket is killed, with no commit missed or shown twice', async () => {
    const reads = eventReads(page);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    // Push goes away on the server: the socket is closed, and new ones are refused.
    await session.service.push.close();
    await closed;
    // A commit stored while the page is between transports.
    expect((await roll(game.gameId, game.tokens.players.red, 'gap', 'while switching')).status).toBe(201);
    await page.locator('tr[data-seq="5"]').waitFor({ timeout: 5_000 });
    await expect.poll(() => transport(page)).toBe('poll');
    await expect.poll(() => reads.some((r) => r.poll), { timeout: 5_000 }).toBe(true);

    // Now followed by long-poll alone: a commit appears within 2 s, from a held /events?wait= request.
    const started = Date.now();
    expect((await roll(game.gameId, game.tokens.players.red, 'polled', 'by long poll')).status).toBe(201);
    await page.locator('tr[data-seq="6"]').waitFor({ timeout: 2_000 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await seqs(page)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await page.locator('.connection').textContent()).toMatch(/^Live/);
    expect(reads.filter((r) => r.poll).length).toBeGreaterThan(0);
    for (const r of reads) expect(r.url).not.toContain(game.tokens.players.blue);
  });

  it('when the server\'s long polls are all taken (429 long_poll_full), waits its Retry-After, says so, and reads without waiting: no commit missed', async () => {
    // As the reads function answers on AWS when a crowd holds its pool of long polls (functions/push/pollPool.ts).
    let refused = 0;
    let lastRefusal = 0;
    const early: number[] = [];
    await page.route(/\/events\?.*wait=/, (route) => {
      if (lastRefusal && Date.now() - lastRefusal < 900) early.push(Date.now() - lastRefusal);
      refused++;
      lastRefusal = Date.now();
      return route.fulfill({
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '1' },
        body: JSON.stringify({ error: { code: 'long_poll_full', message: 'Too many people are following games right now: read again in a few seconds.' } }),
      });
    });
    try {
      await expect.poll(() => refused, { timeout: 30_000 }).toBeGreaterThan(0);
      await expect.poll(() => page.locator('.connection').textContent()).toContain('So many people are following this game');
      expect((await roll(game.gameId, game.tokens.players.red, 'crowd', 'in a crowd')).status).toBe(201);
      // Shown by a read that does not wait, a Retry-After later; no long poll sent again before it.
      await page.locator('tr[data-seq="7"]').waitFor({ timeout: 10_000 });
      expect(await seqs(page)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(early).toEqual([]);
    } finally {
      await page.unroute(/\/events\?.*wait=/);
    }
  });
});
