// `npm run build`: writes every Lambda bundle to dist/lambda/<name>/, the standalone
// verifier to dist/arbiter-verify.mjs and the web app to dist/web-assets.mjs, and prints their sizes.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_VERIFIER_BYTES } from '../verifier/bundle';
import { BUNDLE, LAMBDA_ENTRIES, type LambdaName } from './bundling';
import { buildFunctionBundle, type FunctionBundle } from './coldStart';
import { VERIFIER_FILE, writeVerifierFiles } from './verifierFiles';
import { gzippedBytes, MAX_WEB_GZIP_BYTES } from '../web/build';
import { writeWebFiles } from './webFiles';
import { writeApiDocsFiles } from './apiDocsFiles';

export async function buildBundles(outDir = 'dist/lambda'): Promise<Record<LambdaName, FunctionBundle>> {
  // First: the verifier function bundles the standalone verifier's text (the alias in bundling.ts).
  await writeVerifierFiles();
  // And the web function bundles the web app's files, the docs function the API reference page's.
  await writeWebFiles();
  await writeApiDocsFiles();
  const results = {} as Record<LambdaName, FunctionBundle>;
  for (const [name, entry] of Object.entries(LAMBDA_ENTRIES) as [LambdaName, string][]) {
    results[name] = await buildFunctionBundle(entry, join(outDir, name, BUNDLE.outFile));
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await buildBundles();
  const verifier = { file: VERIFIER_FILE, bytes: statSync(VERIFIER_FILE).size };
  let over = false;
  for (const [name, { file, bytes, onDemand }] of Object.entries(results)) {
    const kb = (bytes / 1024).toFixed(1);
    over ||= bytes > BUNDLE.maxBytes;
    const later = onDemand.length ? `, + ${onDemand.length} chunks on demand (${(onDemand.reduce((sum, c) => sum + c.bytes, 0) / 1024).toFixed(1)} KB)` : '';
    const note = bytes > BUNDLE.maxBytes ? `  (over the ${BUNDLE.maxBytes / 1024} KB limit)` : '';
    console.log(`${name.padEnd(10)} ${kb.padStart(7)} KB  ${file} at a cold start${later}${note}`);
  }
  console.log(`${'standalone'.padEnd(10)} ${(verifier.bytes / 1024).toFixed(1).padStart(7)} KB  ${verifier.file}${verifier.bytes <= MAX_VERIFIER_BYTES ? '' : `  (over the ${MAX_VERIFIER_BYTES / 1024} KB limit)`}`);
  over ||= verifier.bytes > MAX_VERIFIER_BYTES;
  const web = gzippedBytes(await writeWebFiles());
  console.log(`${'web app'.padEnd(10)} ${(web / 1024).toFixed(1).padStart(7)} KB  gzipped, every file of a first visit (the BLS code of beacon games apart)${web <= MAX_WEB_GZIP_BYTES ? '' : `  (over the ${MAX_WEB_GZIP_BYTES / 1024} KB limit)`}`);
  over ||= web > MAX_WEB_GZIP_BYTES;
  if (over) process.exitCode = 1;
}
