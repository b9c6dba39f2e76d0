import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyExport } from '../../../domain/verify/verifyExport';
import { INLINE_EXPORT_MAX_BYTES } from '../../../functions/application/exports';
import { pruneExports, startEmbeddedS3 } from '../../../functions/local/embeddedS3';
import { startLocalService, type LocalService } from '../../../functions/local/localService';
import { exportUrl } from '../../../verifier/loadExport';
import { fetchText } from '../../../verifier/readSource';

/** A raw request: fetch would resolve `..` and encoded characters before sending. */
function raw(base: string, method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

const COMMITS = 1_400;
let dataDir: string;
let local: LocalService;
let game: { gameId: string; player: string; organizer: string; fingerprint: string };
const figures: Record<string, number> = {};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'arbiter-exports-'));
  // As `npm start` runs it: a data directory, and the default limits.
  local = await startLocalService({ dataDir });
  const created = await local.service.createGame({ ruleset: 'dice', title: 'large enough for a link' });
  const started = Date.now();
  for (let i = 0; i < COMMITS; i++) {
    await local.service.submit(created.gameId, created.tokens.players.player1, { commandId: `r${i}`, type: 'Roll', payload: { dice: '60d6', purpose: `volley ${i} ${'·'.repeat(150)}` } });
  }
  await local.service.submit(created.gameId, created.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
  figures.buildMs = Date.now() - started;
  game = { gameId: created.gameId, player: created.tokens.players.player1, organizer: created.tokens.organizer, fingerprint: local.service.signer.fingerprint };
}, 60_000);
afterAll(async () => {
  await local?.close();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`local export links: ${JSON.stringify(figures)}`);
});

describe('npm start: a large export goes through the embedded s3rver and a link on the API port', () => {
  /** A link to the export from the server running now, so that each test holds in any order: the first export stores the object, later ones find it. */
  async function currentLink(): Promise<{ location: string; bytes: number }> {
    const answer = await fetch(`${local.url}/games/${game.gameId}/export`, { headers: { authorization: `Bearer ${game.organizer}` }, redirect: 'manual' });
    expect(answer.status).toBe(303);
    const { url, bytes } = (await answer.json()) as { url: string; bytes: number };
    return { location: url, bytes };
  }

  it('answers 303 to a link on its own port; the link, with no token, downloads an export that verifies', async () => {
    const started = Date.now();
    const answer = await fetch(`${local.url}/games/${game.gameId}/export`, { headers: { authorization: `Bearer ${game.player}` }, redirect: 'manual' });
    figures.firstExportMs = Date.now() - started;
    expect(answer.status).toBe(303);
    const location = answer.headers.get('location')!;
    expect(location.startsWith(`${local.url}/exports/games/${game.gameId}/${COMMITS + 2}-`)).toBe(true);
    const described = (await answer.json()) as { url: string; expiresAt: string; bytes: number };
    expect(described).toEqual({ url: location, expiresAt: expect.any(String), bytes: expect.any(Number) });
    expect(described.bytes).toBeGreaterThan(INLINE_EXPORT_MAX_BYTES / 2);
    figures.exportBytes = described.bytes;

    const download = await fetch(location);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(download.headers.get('content-length'))).toBe(described.bytes);
    const bundle: unknown = await download.json();
    expect(verifyExport(bundle, { trusted: [game.fingerprint] })).toMatchObject({ ok: true, exitCode: 0, commits: COMMITS + 2, sealed: true });
  });

  it('is what `arbiter verify <game URL>` reads: it follows the redirect (the token goes along on this origin and is ignored)', async () => {
    const { bytes } = await currentLink();
    const text = await fetchText(exportUrl(`${local.url}/games/${game.gameId}`), game.player);
    expect(Buffer.byteLength(text)).toBe(bytes);
    expect(JSON.parse(text).commits).toHaveLength(COMMITS + 2);
  });

  it('keeps the object under the data directory, for this user only, and finds it again after a restart', async () => {
    const { location } = await currentLink();
    const folder = join(dataDir, 'exports');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const objectPath = join(folder, 'exports', 'games', game.gameId);
    expect(existsSync(objectPath)).toBe(true);
    await local.close();
    local = await startLocalService({ dataDir });
    const started = Date.now();
    const again = await fetch(`${local.url}/games/${game.gameId}/export`, { headers: { authorization: `Bearer ${game.organizer}` }, redirect: 'manual' });
    figures.exportAfterRestartMs = Date.now() - started;
    expect(again.status).toBe(303);
    const next = again.headers.get('location')!;
    expect(new URL(next).pathname.replace(/^\//, '')).toBe(new URL(location).pathname.replace(/^\//, ''));
    expect((await fetch(next)).status).toBe(200);
    // A link signed by the previous process (another port, another secret) opens nothing here.
    const old = new URL(location);
    const stale = await fetch(`${local.url}${old.pathname}${old.search}`);
    expect(stale.status).toBe(403);
  });

  it('refuses hostile paths under /exports/ (traversal, encoded slashes, dot segments) with 404, and never serves a file outside the bucket', async () => {
    const folder = join(dataDir, 'exports');
    // A decoy where s3rver's file store would find it if a key climbed out of the bucket.
    writeFileSync(join(folder, 'decoy._S3rver_object'), 'DECOY-OUTSIDE-THE-BUCKET');
    writeFileSync(join(folder, 'decoy._S3rver_metadata.json'), '{"content-type":"text/plain"}');
    const seedKey = JSON.parse(readFileSync(join(dataDir, 'seed-key.json'), 'utf8')).key as string;
    const link = new URL((await currentLink()).location);
    const query = link.search;
    const paths = [
      '/exports/',
      '/exports/../seed-key.json',
      '/exports/exports/../decoy',
      '/exports/games/../../decoy',
      `/exports/games/${game.gameId}/../../../decoy`,
      '/exports/games/%2e%2e/%2e%2e/decoy',
      '/exports/games%2F..%2F..%2Fdecoy',
      `/exports/games/${game.gameId}%2F..%2F..%2F..%2Fdecoy.json`,
      `/exports/games/${game.gameId}/..%2F..%2F..%2Fseed-key.json`,
      '/exports/games/..%5C..%5Cdecoy.json',
      '/exports/games\\..\\..\\decoy.json',
      '/exports//decoy',
      `/exports/games/${game.gameId}//x.json`,
      `${link.pathname}/`,
      `${link.pathname}%00`,
      `${link.pathname}.json`,
      `/exports/${link.pathname.slice('/exports/'.length).replace('.json', '%2Ejson')}`,
      `/exports/tournaments/../games/${game.gameId}/x.json`,
    ];
    for (const path of paths) {
      for (const withQuery of ['', query]) {
        const answer = await raw(local.url, 'GET', `${path}${withQuery}`);
        expect([400, 403, 404], `${path}${withQuery}`).toContain(answer.status);
        expect(answer.body).not.toContain('DECOY');
        expect(answer.body).not.toContain(seedKey);
      }
    }
    // A well-formed key that is not the one signed: refused by its signature.
    const other = await raw(local.url, 'GET', `/exports/games/${game.gameId}/1-0000000000000000.json${query}`);
    expect(other.status).toBe(403);
    // No signature at all: S3 would refuse a private object, and so does the local server.
    expect((await raw(local.url, 'GET', link.pathname)).status).toBe(403);
  });

  it('reads only: PUT, DELETE and POST on a link are 405 and change nothing', async () => {
    const { location, bytes } = await currentLink();
    const link = new URL(location);
    for (const method of ['PUT', 'DELETE', 'POST', 'HEAD']) {
      const answer = await raw(local.url, method, `${link.pathname}${link.search}`);
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow).toBe('GET');
    }
    const still = await fetch(location);
    expect(still.status).toBe(200);
    expect(Number(still.headers.get('content-length'))).toBe(bytes);
  });
});

describe('without a data directory, the embedded s3rver keeps exports in memory', () => {
  let memory: LocalService;
  beforeAll(async () => {
    memory = await startLocalService({ exportInlineMaxBytes: 0, corsOrigins: ['https://app.example.test'] });
  });
  afterAll(async () => {
    await memory?.close();
  });

  it('a small game and a tournament take the link path when the inline limit is 0', async () => {
    const tournament: any = await (await fetch(`${memory.url}/tournaments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Cup' }) })).json();
    const created: any = await (await fetch(`${memory.url}/games`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${tournament.token}` }, body: JSON.stringify({ ruleset: 'dice' }) })).json();
    const player = created.tokens.players.player1;
    await fetch(`${memory.url}/games/${created.gameId}/commands`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${player}` }, body: JSON.stringify({ commandId: 'a', type: 'Roll', payload: { dice: '2d6', purpose: 'p' } }) });
    const answer = await fetch(`${memory.url}/games/${created.gameId}/export`, { headers: { authorization: `Bearer ${player}` }, redirect: 'manual' });
    expect(answer.status).toBe(303);
    const bundle: any = await (await fetch(answer.headers.get('location')!)).json();
    expect(bundle.commits).toHaveLength(2);
    expect(verifyExport(bundle, { trusted: [memory.service.signer.fingerprint], allowUnsealed: true })).toMatchObject({ ok: true, commits: 2 });

    // A tournament's export is made by a job (multipart into the in-memory s3rver): 202 and its status, until 303.
    const asked = { headers: { authorization: `Bearer ${tournament.token}` }, redirect: 'manual' as const };
    let listed = await fetch(`${memory.url}/tournaments/${tournament.tournamentId}/export`, asked);
    expect(listed.status).toBe(202);
    const status = `${memory.url}${listed.headers.get('location')}`;
    await expect.poll(async () => (listed = await fetch(status, asked)).status, { timeout: 20_000 }).toBe(303);
    const tournamentLink = listed.headers.get('location')!;
    expect(new URL(tournamentLink).pathname).toMatch(new RegExp(`^/exports/tournaments/${tournament.tournamentId}/[0-9a-f]{40}\\.ndjson$`));
    const file = await fetch(tournamentLink);
    expect(file.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = (await file.text()).trim().split('\n').map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ tournamentId: tournament.tournamentId, games: 1 });
    expect(lines[1].gameId).toBe(created.gameId);
    // A page of an allowed origin follows the redirect with its Authorization header: preflight, then GET.
    const origin = { origin: 'https://app.example.test' };
    const path = `${new URL(tournamentLink).pathname}${new URL(tournamentLink).search}`;
    const preflight = await raw(memory.url, 'OPTIONS', path, { ...origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example.test');
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('authorization');
    const crossOrigin = await raw(memory.url, 'GET', path, { ...origin, authorization: `Bearer ${tournament.token}` });
    expect(crossOrigin.status).toBe(200);
    expect(crossOrigin.headers['access-control-allow-origin']).toBe('https://app.example.test');
    expect((await raw(memory.url, 'GET', path, { origin: 'https://elsewhere.example.test' })).headers['access-control-allow-origin']).toBeUndefined();
    // Followed by fetch, as the verifier reads a tournament's URL.
    const text = await fetchText(exportUrl(`${memory.url}/tournaments/${tournament.tournamentId}`), tournament.token);
    expect(text.trim().split('\n')).toHaveLength(2);
  });
});

describe('local exports expire as the bucket expires them on AWS', () => {
  it(`removes s3rver's files older than the retention at start, and nothing else`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-prune-'));
    try {
      const game = join(dir, 'exports', 'exports', 'games', 'g-old');
      mkdirSync(game, { recursive: true });
      const files = ['5-0123456789abcdef.json._S3rver_object', '5-0123456789abcdef.json._S3rver_object.md5', '5-0123456789abcdef.json._S3rver_metadata.json', '6-0123456789abcdef.json._S3rver_object', 'notes.txt'];
      for (const name of files) writeFileSync(join(game, name), 'x');
      const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000);
      for (const name of [...files.slice(0, 3), 'notes.txt']) utimesSync(join(game, name), eightDaysAgo, eightDaysAgo);
      const started = await startLocalService({ dataDir: dir });
      await started.close();
      expect(files.filter((name) => existsSync(join(game, name)))).toEqual(['6-0123456789abcdef.json._S3rver_object', 'notes.txt']);
      expect(pruneExports(join(dir, 'exports', 'exports'), Date.now() + 1000)).toBe(1);
      expect(pruneExports(join(dir, 'no-such-folder'), Date.now())).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the embedded s3rver answers a PUT once the object is whole', () => {
  it('a 24 MB export is entirely on disk, and readable by its link, the moment the PUT is answered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-durable-'));
    const embedded = await startEmbeddedS3({ directory: dir, publicUrl: () => 'http://127.0.0.1:1' });
    try {
      const body = Buffer.alloc(24 * 1024 * 1024, '[1,2,3],');
      const key = 'games/g-durable/7-0123456789abcdef.json';
      await embedded.store.put(key, body, 'application/json; charset=utf-8');
      expect(statSync(join(dir, 'exports', 'games', 'g-durable', '7-0123456789abcdef.json._S3rver_object')).size).toBe(body.length);
      const link = new URL(await embedded.store.link(key, 60));
      const answer = await embedded.serveLink({ method: 'GET', path: link.pathname, query: link.search.slice(1), host: link.host });
      expect(answer.status).toBe(200);
      expect(answer.body.equals(body)).toBe(true);
    } finally {
      await embedded.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
