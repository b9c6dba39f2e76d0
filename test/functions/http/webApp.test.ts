import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { localWebAssets } from '../../../functions/local/webAssets';
import { startLocalService, type LocalService } from '../../../functions/local/localService';
import { buildWebAssets, gzippedBytes, lazyGzippedBytes, MAX_WEB_GZIP_BYTES, type WebAssets } from '../../../web/build';

let assets: WebAssets;
beforeAll(async () => {
  assets = await buildWebAssets();
});

/** URLs in zod's JSON-schema code: `$schema` identifiers, never fetched. */
// Names, never fetched: JSON Schema ids, and the SVG namespace of createElementNS (the statistics' charts).
const SCHEMA_IDS = new Set(['https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-04/schema#', 'http://www.w3.org/2000/svg']);

describe('the web app build (web/build.ts)', () => {
  it('is index.html, app.js, app.css, the verify page’s worker and the chunks they load, at most 150 KB gzipped together; the BLS code, page parts and pages loaded when opened apart', () => {
    const names = [...assets.keys()].sort();
    expect(names.filter((n) => !/^\/assets\/chunk-[A-Z0-9]+\.js$/.test(n))).toEqual([
      '/',
      '/assets/app.css',
      '/assets/app.js',
      '/assets/beaconCheck.js',
      '/assets/gameClock.js',
      '/assets/notificationsPanel.js',
      '/assets/statsPage.js',
      '/assets/tournamentPage.js',
      '/assets/verifyPage.js',
      '/assets/verifyWorker.js',
    ]);
    const chunks = names.filter((n) => n.startsWith('/assets/chunk-'));
    expect(chunks.length).toBeGreaterThan(0);
    // Every chunk is imported by another asset; one counted out of the first visit only when nothing of the first visit imports it.
    const importers = (chunk: string) => [...assets].filter(([, a]) => a.body.includes(`./${chunk.slice('/assets/'.length)}`));
    for (const chunk of chunks) {
      expect(importers(chunk).length, chunk).toBeGreaterThan(0);
      if (assets.get(chunk)!.lazy) expect(importers(chunk).filter(([, a]) => !a.lazy).map(([name]) => name), chunk).toEqual([]);
    }
    const lazy = [...assets].filter(([, a]) => a.lazy).map(([name]) => name).filter((name) => !name.startsWith('/assets/chunk-'));
    // The notifications panel, the timeline's clock and three pages too: import()ed where they are shown (notificationsSlot.ts, clockSlot.ts, main.ts).
    expect(lazy.sort()).toEqual(['/assets/beaconCheck.js', '/assets/gameClock.js', '/assets/notificationsPanel.js', '/assets/statsPage.js', '/assets/tournamentPage.js', '/assets/verifyPage.js']);
    const bytes = gzippedBytes(assets);
    expect(bytes).toBe([...assets.values()].filter((a) => !a.lazy).reduce((sum, a) => sum + gzipSync(a.body, { level: 9 }).length, 0));
    expect(bytes).toBeLessThanOrEqual(MAX_WEB_GZIP_BYTES);
    const bls = lazyGzippedBytes(assets);
    expect(bls).toBe(gzipSync(assets.get('/assets/beaconCheck.js')!.body, { level: 9 }).length);
    // About 33 KB: @noble/curves' BLS12-381 with its hashes, loaded for a beacon game only.
    expect(bls).toBeGreaterThan(20 * 1024);
    expect(bls).toBeLessThan(40 * 1024);
    console.log(`web app: ${(bytes / 1024).toFixed(1)} KB gzipped; the BLS code for beacon games: ${(bls / 1024).toFixed(1)} KB more`);
  });

  it('holds the BLS code only in beaconCheck.js, which the worker imports by its URL, for a beacon game', () => {
    const worker = assets.get('/assets/verifyWorker.js')!.body;
    const bls = assets.get('/assets/beaconCheck.js')!.body;
    expect(bls).toContain('BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_');
    for (const [name, asset] of assets) if (name !== '/assets/beaconCheck.js') expect(asset.body.includes('BLS_SIG_BLS12381G1_XMD'), name).toBe(false);
    // import(BEACON_CHECK_URL): the URL a constant of the page's and the worker's shared chunk.
    expect(worker).toMatch(/\bimport\([\w$]+\)/);
    expect([...assets].filter(([name, a]) => name !== '/assets/beaconCheck.js' && a.body.includes('"/assets/beaconCheck.js"')).length).toBe(1);
    // zod's JSON Schema code is left out of the page: the server makes the schemas.
    expect(worker).not.toContain('draft-2020-12');
  });

  it('loads nothing from another origin and has no inline script', () => {
    const html = assets.get('/')!.body;
    const refs = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    expect(refs.sort()).toEqual(['#/organize', '#/organize', '#/stats', '#/tournaments', '#/verify', '/assets/app.css', '/assets/app.js', 'data:,']);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\bstyle=|<style/);
    expect(assets.get('/assets/app.css')!.body).not.toMatch(/url\(|@import/);
    for (const script of [...assets.keys()].filter((name) => name.endsWith('.js'))) {
      const urls = assets.get(script)!.body.match(/https?:\/\/[^\s"'`)]+/g) ?? [];
      expect(urls.filter((u) => !SCHEMA_IDS.has(u) && !u.startsWith('http://[$')), script).toEqual([]);
    }
  });

  it('is built from web/app and domain/ only: never from functions/', () => {
    const dir = new URL('../../../web/app/', import.meta.url);
    const imports = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [...readFileSync(new URL(f, dir), 'utf8').matchAll(/^import [^;]*?from '([^']+)'|^import '([^']+)'/gm)].map((m) => m[1] ?? m[2]));
    expect(imports.length).toBeGreaterThan(10);
    expect(imports.filter((path) => !path.startsWith('./') && !path.startsWith('../../domain/'))).toEqual([]);
  });

  it('bundles the verifier in the verify page’s worker, with the browser crypto port: no Node built-in, no node:crypto; the page’s script holds none of it', () => {
    const worker = assets.get('/assets/verifyWorker.js')!.body;
    // Its imports: the chunk it shares with the page, and the BLS code by URL, nothing else.
    expect(worker).not.toMatch(/from\s*["']node:|require\(["']/);
    const imported = [...worker.matchAll(/(?:^|;)import\s*(?:[\w${},\s*]+from\s*)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']/g)].map((m) => m[1] ?? m[2]);
    expect(imported.length).toBeGreaterThan(0);
    expect(imported.filter((path) => !/^\.\/chunk-[A-Z0-9]+\.js$/.test(path))).toEqual([]);
    expect(worker).toContain('a key none of your trusted fingerprints reaches');
    expect(worker).toContain('the recorded dice are not the dice the rules draw');
    // The page's scripts: app.js and the chunk it shares with the worker.
    const page = [...assets].filter(([name]) => name === '/assets/app.js' || name.startsWith('/assets/chunk-')).map(([, a]) => a.body).join('\n');
    expect(page.includes('the recorded dice are not the dice the rules draw'), 'the rules replay in the page').toBe(false);
    expect(page).toContain('/assets/verifyWorker.js');
  });
});

describe('GET / and GET /assets/{file} on the local server', () => {
  let service: LocalService;
  beforeAll(async () => {
    service = await startLocalService();
    return () => service.close();
  });

  it('serve the page with a strict Content-Security-Policy, and each asset with its type and nosniff', async () => {
    const page = await fetch(`${service.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    // The verify page's worker: a file of this origin, never a blob: or data: one.
    expect(csp).toContain("worker-src 'self';");
    expect(csp).not.toMatch(/blob:|'unsafe-eval'/);
    expect(await page.text()).toBe((await localWebAssets()).get('/')!.body);
    for (const [file, type] of [['app.js', 'text/javascript; charset=utf-8'], ['app.css', 'text/css; charset=utf-8'], ['verifyWorker.js', 'text/javascript; charset=utf-8']]) {
      const asset = await fetch(`${service.url}/assets/${file}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toBe(type);
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
      // The worker runs under the policy its script is served with: it fetches nothing, and loads scripts of this origin only.
      expect(asset.headers.get('content-security-policy')).toBe("default-src 'none'; script-src 'self'");
      expect(await asset.text()).toBe(assets.get(`/assets/${file}`)!.body);
    }
    const missing = await fetch(`${service.url}/assets/missing.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('tells the page who a token is: GET /games/{id} has the role', async () => {
    const created = (await (await fetch(`${service.url}/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ruleset: 'dice' }) })).json()) as { gameId: string; tokens: { organizer: string; players: Record<string, string> } };
    const roleOf = async (token: string) => ((await (await fetch(`${service.url}/games/${created.gameId}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { role: unknown }).role;
    expect(await roleOf(created.tokens.organizer)).toBe('organizer');
    expect(await roleOf(created.tokens.players.player2)).toBe('player2');
    const viewer = (await (await fetch(`${service.url}/games/${created.gameId}/viewers`, { method: 'POST', headers: { authorization: `Bearer ${created.tokens.organizer}`, 'content-type': 'application/json' }, body: '{}' })).json()) as { token: string };
    expect(await roleOf(viewer.token)).toBe('spectator');
    const open = (await (await fetch(`${service.url}/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ruleset: 'dice', public: true }) })).json()) as { gameId: string };
    const read = await fetch(`${service.url}/games/${open.gameId}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { role: unknown }).role).toBeNull();
    expect((await fetch(`${service.url}/games/${created.gameId}`)).status).toBe(401);
  });
});
