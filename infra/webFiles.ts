// Writes dist/web-assets.mjs: the web app's files as a module, bundled into the function
// serving GET / and /assets/{file}.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWebAssets, gzippedBytes, type WebAssets } from '../web/build';

export const WEB_ASSETS_FILE = fileURLToPath(new URL('../dist/web-assets.mjs', import.meta.url));

export async function writeWebFiles(): Promise<WebAssets> {
  const assets = await buildWebAssets();
  mkdirSync(dirname(WEB_ASSETS_FILE), { recursive: true });
  writeFileSync(WEB_ASSETS_FILE, `export default ${JSON.stringify(Object.fromEntries(assets))};\n`);
  return assets;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(`web app: ${(gzippedBytes(await writeWebFiles()) / 1024).toFixed(1)} KB gzipped`);
