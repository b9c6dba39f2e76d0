import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

/**
 * The standalone verifier must stay small enough to read, fetch and audit. It replays every
 * ruleset's rules, so it grows with each game system (the table format and Wars and Battles
 * brought it from about 250 to 310 KB).
 */
export const MAX_VERIFIER_BYTES = 400 * 1024;

/**
 * The standalone verifier as one self-contained ES module: the verifier, the domain
 * and zod, with no imports but Node's built-ins, for `node verifier.mjs game.json`
 * on Node 20+. Built in memory (~0.2 s): cache the text when serving it.
 */
export async function buildVerifierBundle(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./standalone.ts', import.meta.url))],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    banner: { js: '#!/usr/bin/env node\n// Arbiter standalone verifier: node verifier.mjs game.json --trust ed25519:… (--help for more)' },
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}
