// Writes dist/arbiter-verify.mjs (the standalone verifier) and dist/verifier-source.mjs
// (its text as a module, bundled into the function serving GET /verifier.mjs).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildVerifierBundle } from '../verifier/bundle';

export const VERIFIER_FILE = fileURLToPath(new URL('../dist/arbiter-verify.mjs', import.meta.url));

export async function writeVerifierFiles(): Promise<void> {
  const source = await buildVerifierBundle();
  mkdirSync(dirname(VERIFIER_FILE), { recursive: true });
  writeFileSync(VERIFIER_FILE, source, { mode: 0o755 });
  writeFileSync(join(dirname(VERIFIER_FILE), 'verifier-source.mjs'), `export default ${JSON.stringify(source)};\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await writeVerifierFiles();
