// The web app (issue 14) as static assets, built in memory by esbuild: index.html, app.js,
// app.css, and verifyWorker.js, the verify page's worker: the same verifier code as the CLI,
// with the crypto port's browser implementation (verifier/browserBundle.ts). A file of its
// own, from this origin, so the policy needs only `worker-src 'self'` (no blob: worker).
// ES modules split into chunks: what the page and the worker share is one file (chunk-*.js),
// and beaconCheck.js, the BLS code, is imported by the worker only for a beacon game. zod's
// JSON Schema code is left out (withoutJsonSchema, verifier/browserBundle.ts): the server makes the schemas, never the page.
import { build, type Metafile } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { BROWSER_BUILD, BROWSER_PLUGINS, withoutJsonSchema } from '../verifier/browserBundle';
import { BEACON_CHECK_URL } from './app/verifyMessages';
import { indexHtml } from './indexHtml';

export interface WebAsset {
  body: string;
  contentType: string;
  /** Loaded only when needed (the worker's import() of the BLS code): not part of a first visit. */
  lazy?: boolean;
}
/** By path as served: `/` and `/assets/<file>`. */
export type WebAssets = Map<string, WebAsset>;

/** The whole page, gzipped, stays under this (issue 14): every asset but the lazy ones. */
export const MAX_WEB_GZIP_BYTES = 150 * 1024;

const ENTRY = fileURLToPath(new URL('./app/main.ts', import.meta.url));
/** Served at VERIFY_WORKER_URL (web/app/verifyMessages.ts). */
const WORKER_ENTRY = fileURLToPath(new URL('./app/verifyWorker.ts', import.meta.url));
const BEACON_CHECK_ENTRY = fileURLToPath(new URL('./app/beaconCheck.ts', import.meta.url));
/** Parts of pages import()ed where they are shown (notificationsSlot.ts, clockSlot.ts), not part of a first visit. */
const NOTIFICATIONS_ENTRY = fileURLToPath(new URL('./app/notificationsPanel.ts', import.meta.url));
const CLOCK_ENTRY = fileURLToPath(new URL('./app/gameClock.ts', import.meta.url));
/** Pages import()ed when opened (main.ts lazyPage): the verify page's worker stays in the first visit's count all the same. */
const TOURNAMENT_ENTRY = fileURLToPath(new URL('./app/tournamentPage.ts', import.meta.url));
const VERIFY_ENTRY = fileURLToPath(new URL('./app/verifyPage.ts', import.meta.url));
const STATS_ENTRY = fileURLToPath(new URL('./app/statsPage.ts', import.meta.url));

export async function buildWebAssets(): Promise<WebAssets> {
  const result = await build({
    ...BROWSER_BUILD,
    entryPoints: { app: ENTRY, verifyWorker: WORKER_ENTRY, notificationsPanel: NOTIFICATIONS_ENTRY, gameClock: CLOCK_ENTRY, tournamentPage: TOURNAMENT_ENTRY, verifyPage: VERIFY_ENTRY, statsPage: STATS_ENTRY },
    outdir: '/assets',
    splitting: true,
    chunkNames: 'chunk-[hash]',
    metafile: true,
    legalComments: 'none',
    plugins: [withoutJsonSchema, ...BROWSER_PLUGINS],
  });
  // A build of its own: split with the worker, the code both use would be a chunk every visit loads,
  // and tree-shaken for both, bigger than what the worker needs (ed25519 shares field code with BLS).
  const beaconCheck = await build({ ...BROWSER_BUILD, entryPoints: [BEACON_CHECK_ENTRY], legalComments: 'none', plugins: [withoutJsonSchema, ...BROWSER_PLUGINS] });
  const eager = staticallyReached(result.metafile.outputs, ['app.js', 'app.css', 'verifyWorker.js']);
  const assets: WebAssets = new Map([['/', { body: indexHtml(), contentType: 'text/html; charset=utf-8' }]]);
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    const contentType = name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
    assets.set(`/assets/${name}`, { body: file.text, contentType, ...(eager.has(name) ? {} : { lazy: true }) });
  }
  assets.set(BEACON_CHECK_URL, { body: beaconCheck.outputFiles[0].text, contentType: 'text/javascript; charset=utf-8', lazy: true });
  return assets;
}

/** The file names of the outputs `roots` load by static imports, themselves included: what runs without an import(). */
function staticallyReached(outputs: Metafile['outputs'], roots: string[]): Set<string> {
  const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  const byName = new Map(Object.entries(outputs).map(([path, output]) => [nameOf(path), output]));
  const reached = new Set<string>();
  const visit = (name: string) => {
    const output = byName.get(name);
    if (reached.has(name) || !output) return;
    reached.add(name);
    for (const imported of output.imports) if (imported.kind === 'import-statement') visit(nameOf(imported.path));
  };
  roots.forEach(visit);
  return reached;
}

const gzipped = (body: string) => gzipSync(body, { level: 9 }).length;

/** Bytes of every asset but the lazy ones, gzipped: what a first visit downloads. */
export function gzippedBytes(assets: WebAssets): number {
  let total = 0;
  for (const { body, lazy } of assets.values()) if (!lazy) total += gzipped(body);
  return total;
}

/** Bytes of one asset, gzipped; 0 when there is none. */
export function assetGzippedBytes(assets: WebAssets, path: string): number {
  const asset = assets.get(path);
  return asset ? gzipped(asset.body) : 0;
}

/** Bytes of the BLS code, gzipped: downloaded by the verify worker for a beacon game only. */
export const lazyGzippedBytes = (assets: WebAssets) => assetGzippedBytes(assets, BEACON_CHECK_URL);

/** The parts of pages loaded where they are shown (the notifications panel, the timeline's clock), and the pages loaded when opened. */
export const PAGE_PART_URLS = ['/assets/notificationsPanel.js', '/assets/gameClock.js', '/assets/tournamentPage.js', '/assets/verifyPage.js', '/assets/statsPage.js'];

if (import.meta.url === `file://${process.argv[1]}`) {
  const assets = await buildWebAssets();
  for (const [path, { body, lazy }] of assets) console.log(`${path.padEnd(24)} ${(body.length / 1024).toFixed(1).padStart(7)} KB${lazy ? '  (loaded only when needed)' : ''}`);
  const gz = gzippedBytes(assets);
  console.log(`${'gzipped, first visit'.padEnd(24)} ${(gz / 1024).toFixed(1).padStart(7)} KB${gz > MAX_WEB_GZIP_BYTES ? `  (over the ${MAX_WEB_GZIP_BYTES / 1024} KB limit)` : ''}`);
  console.log(`${'gzipped, beacon games'.padEnd(24)} ${(lazyGzippedBytes(assets) / 1024).toFixed(1).padStart(7)} KB  more, when the verify page checks one`);
  const parts = PAGE_PART_URLS.reduce((sum, path) => sum + assetGzippedBytes(assets, path), 0);
  console.log(`${'gzipped, page parts'.padEnd(24)} ${(parts / 1024).toFixed(1).padStart(7)} KB  more, where a page shows them (notifications, the clock, the tournament, verify and statistics pages; without the chunks they share)`);
  if (gz > MAX_WEB_GZIP_BYTES) process.exitCode = 1;
}
