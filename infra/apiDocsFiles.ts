// Writes dist/api-docs-assets.mjs: the API reference page's files (RapiDoc, gzipped) as a
// module, bundled into the function serving GET /docs/assets/{file}.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiDocsAssetsFromPackage, gzippedApiDocsAssets } from '../functions/http/apiDocsHandlers';

export const API_DOCS_ASSETS_FILE = fileURLToPath(new URL('../dist/api-docs-assets.mjs', import.meta.url));

export async function writeApiDocsFiles(): Promise<void> {
  const assets = gzippedApiDocsAssets(await apiDocsAssetsFromPackage());
  mkdirSync(dirname(API_DOCS_ASSETS_FILE), { recursive: true });
  writeFileSync(API_DOCS_ASSETS_FILE, `export default ${JSON.stringify(Object.fromEntries(assets))};\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await writeApiDocsFiles();
