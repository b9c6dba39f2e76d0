// The web app (issue 14) as static assets, built in memory by esbuild: index.html, app.js,
// app.css, and verifyWorker.js, the verify page's worker: the same verifier code as the CLI,
// with the crypto port's browser implementation (verifier/browserBundle.ts). A file of its
// own, from this origin, so the policy needs only `worker-src 'self'` (no blob: worker).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { BROWSER_BUILD, BROWSER_PLUGINS } from '../verifier/browserBundle';
import { indexHtml } from './indexHtml';

export interface WebAsset {
  body: string;
  contentType: string;
}
/** By path as served: `/` and `/assets/<file>`. */
export type WebAssets = Map<string, WebAsset>;

/** The whole page, gzipped, stays under this (issue 14). */
export const MAX_WEB_GZIP_BYTES = 150 * 1024;

const ENTRY = fileURLToPath(new URL('./app/main.ts', import.meta.url));
/** Served at VERIFY_WORKER_URL (web/app/verifyMessages.ts). */
const WORKER_ENTRY = fileURLToPath(new URL('./app/verifyWorker.ts', import.meta.url));

export async function buildWebAssets(): Promise<WebAssets> {
  const result = await build({
    ...BROWSER_BUILD,
    entryPoints: { app: ENTRY, verifyWorker: WORKER_ENTRY },
    outdir: '/assets',
    legalComments: 'none',
    plugins: BROWSER_PLUGINS,
  });
  const assets: WebAssets = new Map([['/', { body: indexHtml(), contentType: 'text/html; charset=utf-8' }]]);
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    const contentType = name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
    assets.set(`/assets/${name}`, { body: file.text, contentType });
  }
  return assets;
}

/** Bytes of every asset gzipped: what a first visit downloads. */
export function gzippedBytes(assets: WebAssets): number {
  let total = 0;
  for (const { body } of assets.values()) total += gzipSync(body, { level: 9 }).length;
  return total;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const assets = await buildWebAssets();
  for (const [path, { body }] of assets) console.log(`${path.padEnd(24)} ${(body.length / 1024).toFixed(1).padStart(7)} KB`);
  const gz = gzippedBytes(assets);
  console.log(`${'gzipped, all'.padEnd(24)} ${(gz / 1024).toFixed(1).padStart(7)} KB${gz > MAX_WEB_GZIP_BYTES ? `  (over the ${MAX_WEB_GZIP_BYTES / 1024} KB limit)` : ''}`);
  if (gz > MAX_WEB_GZIP_BYTES) process.exitCode = 1;
}
