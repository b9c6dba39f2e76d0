import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { EXIT } from '../../domain/verify/verifierReport';
import { verifyTournament } from '../../verifier/verifyTournament';
import type { Io } from '../../verifier/io';
import { honestExport, newKey } from '../domain/verify/signedExports';
import { callApi, screenshot, startSession, tabTo, type Session } from './browserSession';

let session: Session;
let fingerprint: string;
let tournament: { tournamentId: string; token: string };
let gameIds: string[];
/** GET /tournaments/{id}/export as the server answered it: NDJSON, the header then a line per game. */
let exported: string;

beforeAll(async () => {
  session = await startSession();
  tournament = (await callApi(session.service, 'POST', '/tournaments', undefined, { name: 'Club round 1' })).json;
  gameIds = [];
  for (const title of ['Table 1: Ann v Bob', 'Table 2: Cat v Dan']) {
    const created = await callApi(session.service, 'POST', '/games', tournament.token, { ruleset: 'dice', title });
    expect(created.status).toBe(201);
    const { gameId, tokens } = created.json as { gameId: string; tokens: { players: Record<string, string> } };
    const post = (token: string, body: unknown) => callApi(session.service, 'POST', `/games/${gameId}/commands`, token, body);
    for (let i = 1; i <= 3; i++) expect((await post(tokens.players[i % 2 ? 'player1' : 'player2'], { commandId: `r${i}`, type: 'Roll', payload: { dice: '2d6', purpose: `volley ${i}` } })).status).toBe(201);
    expect((await post(tournament.token, { commandId: 'seal', type: 'Seal', payload: {} })).status).toBe(201);
    gameIds.push(gameId);
  }
  // Made by a job: 202 with its status, asked again until fetch follows the 303 to the file.
  const started = await callApi(session.service, 'GET', `/tournaments/${tournament.tournamentId}/export`, tournament.token);
  expect(started.status).toBe(202);
  let reply = started;
  for (let look = 0; reply.status === 202 && look < 200; look++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    reply = await callApi(session.service, 'GET', started.json.statusUrl, tournament.token);
  }
  expect(reply.status).toBe(200);
  exported = reply.text;
  fingerprint = (await callApi(session.service, 'GET', '/keys')).json.keys[0].fingerprint;
});
afterAll(async () => {
  await session?.close();
});

const lines = (text: string) => text.split('\n').filter(Boolean);
const ndjson = (values: unknown[]) => values.map((value) => `${JSON.stringify(value)}\n`).join('');

async function openVerify(path = '/#/verify'): Promise<Page> {
  const page = await session.open(path);
  await expect.poll(() => page.getByLabel('Trusted fingerprints (one per line)').inputValue()).toBe(fingerprint);
  return page;
}

async function verifyFile(text: string, name: string): Promise<Page> {
  const page = await openVerify();
  await page.getByLabel('Export file (JSON)').setInputFiles({ name, mimeType: 'application/x-ndjson', buffer: Buffer.from(text) });
  await page.locator('.verdict').waitFor();
  return page;
}

/** What `npx arbiter verify` prints for the same file and the same pinned key. */
async function cliTable(text: string): Promise<string[]> {
  const out: string[] = [];
  const io: Io = { command: 'npx arbiter', out: (line) => void out.push(line), err: () => undefined, write: () => undefined, env: {}, home: '/nonexistent', now: () => new Date() };
  await verifyTournament(text, { trusted: [fingerprint], json: false }, io);
  return out;
}

/** The element types the test reads in the page (the tests' TypeScript has no DOM library). */
interface Shown {
  children: ArrayLike<Shown>;
  textContent: string | null;
  dataset: Record<string, string | undefined>;
}
const pageRows = (page: Page) => page.locator('table.per-game tbody tr').evaluateAll((rows) => (rows as unknown as Shown[]).map((row) => Array.from(row.children, (cell) => cell.textContent)));
const focusedText = (page: Page) => page.evaluate<string | null | undefined>('document.activeElement?.textContent');

describe('the verify page on a tournament export (NDJSON)', () => {
  it('verifies a round of two games made over HTTP, in the browser, with the per-game table the verifier prints and the tournament head’s verdict', async () => {
    const page = await verifyFile(exported, 'round1.ndjson');
    expect(await page.locator('.verdict').getAttribute('data-exit-code')).toBe(String(EXIT.ok));
    expect(await page.locator('.verdict').textContent()).toMatch(/^Verified: all 2 games passed every check/);
    expect(await page.locator('[data-tournament-head]').textContent()).toBe(`Signed by ${fingerprint}, a key you trust, and the file holds exactly the games it lists, in its order.`);
    const cli = await cliTable(exported);
    // The CLI's rows: game, ruleset, commits, sealed, result, separated by two spaces or more.
    expect(await pageRows(page)).toEqual(cli.slice(2, 4).map((line) => line.split(/ {2,}/)));
    expect((await pageRows(page)).map((row) => row[0])).toEqual(gameIds);
    expect(await page.locator('.totals').textContent()).toBe(cli[4]);
    expect(cli[4]).toBe('2 games: 2 OK');
    expect(await page.locator('[role="status"]').first().textContent()).toBe('Checked round1.ndjson.');
    await screenshot(page, 'verify-tournament');
    expect(session.errors.get(page)).toEqual([]);
  });

  it('refuses a round with a game’s commit changed, naming the game and its first failing commit', async () => {
    const [header, first, second] = lines(exported).map((line) => JSON.parse(line));
    second.commits[2].command.payload.purpose = 'a different purpose';
    const page = await verifyFile(ndjson([header, first, second]), 'doctored.ndjson');
    expect(await page.locator('.verdict').getAttribute('data-exit-code')).toBe(String(EXIT.failed));
    expect(await page.locator('.verdict').textContent()).toMatch(new RegExp(`^Failed: game ${gameIds[1]}: FAILED at seq 3 \\(`));
    expect(await page.locator(`tr[data-game="${gameIds[1]}"]`).getAttribute('class')).toBe('bad');
    expect(await page.locator(`tr[data-game="${gameIds[0]}"]`).getAttribute('class')).toBe('ok');
    expect(await pageRows(page)).toEqual((await cliTable(ndjson([header, first, second]))).slice(2, 4).map((line) => line.split(/ {2,}/)));
    expect(await page.locator('.totals').textContent()).toBe('2 games: 1 OK, 1 FAILED');
    await screenshot(page, 'verify-tournament-doctored');
    expect(session.errors.get(page)).toEqual([]);
  });

  it('refuses a round with a game removed, naming the game, even when the header is changed to match', async () => {
    const [header, first, second] = lines(exported).map((line) => JSON.parse(line));
    const cut = await verifyFile(ndjson([header, second]), 'cut.ndjson');
    expect(await cut.locator('.verdict').getAttribute('data-exit-code')).toBe(String(EXIT.failed));
    expect(await cut.locator('.verdict').textContent()).toBe(`Failed: game ${first.gameId} is listed by the tournament head but missing from the file.`);
    expect(await cut.locator('ul.failures').textContent()).toContain('the header announces 2 games but the file holds 1: it was cut short');
    expect(await cut.locator('[data-tournament-head]').textContent()).toContain(`game ${first.gameId} is listed by the tournament head but missing from the file`);
    const covered = await verifyFile(ndjson([{ ...header, games: 1 }, second]), 'covered.ndjson');
    expect(await covered.locator('.verdict').getAttribute('data-exit-code')).toBe(String(EXIT.failed));
    expect(await covered.locator('.verdict').textContent()).toBe(`Failed: game ${first.gameId} is listed by the tournament head but missing from the file.`);
    expect(await covered.locator('table.per-game tbody tr').count()).toBe(1);
    expect(session.errors.get(cut)).toEqual([]);
    expect(session.errors.get(covered)).toEqual([]);
  });

  it('by keyboard alone: the tournament’s link typed in, loaded with its token, the report focused; nothing is uploaded', async () => {
    // A third game, sealed: the tournament in a state not exported yet, so the page meets the 202 of its job.
    const third = await callApi(session.service, 'POST', '/games', tournament.token, { ruleset: 'dice', title: 'Table 3: Eve v Fay' });
    expect((await callApi(session.service, 'POST', `/games/${third.json.gameId}/commands`, tournament.token, { commandId: 'seal', type: 'Seal', payload: {} })).status).toBe(201);
    const page = await openVerify();
    const uploads: string[] = [];
    const statuses: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET') uploads.push(`${r.method()} ${r.url()}`);
      if (/\/exports\/[0-9a-f]{40}$/.test(new URL(r.url()).pathname)) statuses.push(r.url());
    });
    expect(await tabTo(page, 'or a game’s or tournament’s link')).toBe(true);
    await page.keyboard.type(`${session.service.url}/#/tournaments/${tournament.tournamentId}?token=${tournament.token}`);
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Load the export');
    await page.keyboard.press('Enter');
    await page.locator('.verdict').waitFor();
    expect(await page.locator('.verdict').getAttribute('data-exit-code')).toBe(String(EXIT.ok));
    expect(await page.evaluate<string | undefined>('document.activeElement?.className')).toBe('report');
    expect(await page.locator('[role="status"]').first().textContent()).toBe(`Checked the export of tournament ${tournament.tournamentId}.`);
    expect(uploads).toEqual([]);
    expect(statuses.length).toBeGreaterThan(0);
    // And bookmarked: #/verify?tournament=…&token=… loads and checks it at once.
    const bookmarked = await openVerify(`/#/verify?tournament=${encodeURIComponent(tournament.tournamentId)}&token=${encodeURIComponent(tournament.token)}`);
    await bookmarked.locator('.verdict').waitFor();
    expect(await bookmarked.locator('.verdict').getAttribute('data-exit-code')).toBe(String(EXIT.ok));
    expect(session.errors.get(page)).toEqual([]);
    expect(session.errors.get(bookmarked)).toEqual([]);
  });
});

describe('a large game export on the verify page', () => {
  const ROLLS = 5000;
  const key = newKey('large');
  const large = JSON.stringify(honestExport(key, ROLLS));
  const commits = ROLLS + 4; // the creation, two entropies, the rolls, the seal

  const progressOf = (page: Page) =>
    page.locator('.progress-text').evaluate((element) => {
      const node = element as unknown as Shown;
      return { done: Number(node.dataset.done), total: Number(node.dataset.total), text: node.textContent };
    });

  it('is checked off the page’s thread: progress by commit, the page answers by keyboard during the check, Cancel stops it, and it verifies in full', { timeout: 180_000 }, async () => {
    const page = await session.open('/#/verify');
    await page.getByLabel('Trusted fingerprints (one per line)').fill(key.fingerprint);
    await page.getByLabel('Export file (JSON)').setInputFiles({ name: 'large.json', mimeType: 'application/json', buffer: Buffer.from(large) });
    // Progress while the check runs: some commits done, not all.
    await expect.poll(async () => {
      const { done, total } = await progressOf(page);
      return done > 0 && done < total && total === commits;
    }).toBe(true);
    expect((await progressOf(page)).text).toMatch(new RegExp(`^Checking hashes and signatures: [\\d,]+ of ${commits.toLocaleString('en')} commits$`));
    expect(await page.getByRole('progressbar', { name: 'Verification progress' }).isVisible()).toBe(true);
    await screenshot(page, 'verify-progress');
    // The page answers while the worker checks: the keyboard reaches Cancel, and Enter stops the check before its end.
    await page.getByLabel('Trusted fingerprints (one per line)').focus();
    expect(await tabTo(page, 'Cancel the check')).toBe(true);
    const before = await progressOf(page);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[role="status"]').first().textContent()).toBe('The check of large.json was cancelled: nothing is verified.');
    expect(before.done).toBeLessThan(before.total);
    expect(await page.locator('.progress').isHidden()).toBe(true);
    expect(await page.locator('.verdict').count()).toBe(0);
    expect(await focusedText(page)).toBe('Verify again');
    // Run again to the end: every commit, the report as for a small export.
    const seen = new Set<string>();
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => {
        if (await page.locator('.progress').isVisible()) seen.add((await progressOf(page)).text ?? '');
        return page.locator('.verdict').count();
      }, { timeout: 120_000 })
      .toBe(1);
    expect([...seen].some((text) => /^(Checking hashes and signatures|Re-deriving the dice|Replaying the rules): /.test(text))).toBe(true);
    expect(await page.locator('.verdict').getAttribute('data-exit-code')).toBe(String(EXIT.ok));
    expect(await page.locator('table.per-commit tbody tr').count()).toBe(commits);
    expect(await page.locator('.progress').isHidden()).toBe(true);
    expect(session.errors.get(page)).toEqual([]);
  });
});
