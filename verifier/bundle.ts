import { build, type Plugin } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { withoutJsonSchema } from './browserBundle';

/**
 * The standalone verifier must stay small enough to read, fetch and audit. It replays every
 * ruleset's rules, so it grows with each game system (the table format and Wars and Battles
 * brought it from about 250 to 310 KB; drand's BLS12-381 check for beacon games, about 73 KB,
 * is paid for by leaving out what it never runs: zod's JSON Schema generation, the schemas'
 * descriptions, and the rulesets' text lines and event schemas). Issue 33 took it past 400 KB:
 * replaying an organizer's voids and rulings, a dice Roll of several rolls, listing them in
 * the report (about 4 KB), and turn clocks (every ruleset's turn model, the clock folded from
 * recordedAt, the report's time used: about 4 KB).
 */
export const MAX_VERIFIER_BYTES = 420 * 1024;

/**
 * The standalone verifier as one self-contained ES module: the verifier, the domain
 * and zod, with no imports but Node's built-ins, for `node verifier.mjs game.json`
 * on Node 20+. Built in memory (~0.3 s): cache the text when serving it.
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
    charset: 'utf8',
    banner: { js: '#!/usr/bin/env node\n// Arbiter standalone verifier: node verifier.mjs game.json --trust ed25519:… (--help for more)' },
    plugins: [withoutJsonSchema, withoutTextAndEventSchemas],
    logLevel: 'silent',
  });
  return withoutDescriptions(result.outputFiles[0].text);
}

const TEXT_AND_EVENT_SCHEMAS = /domain[\\/]rulesets[\\/][^\\/]+[\\/](summary|resultText|events)\.ts$/;

/**
 * A ruleset's text lines (`summarize`, `resultText`: the chat log's line and the timeline's
 * Result column) and its event schemas (the OpenAPI document; a result text checks events
 * against them), ~29 KB: the server's, never run by a verifier, which replays `decide` and
 * `evolve` and compares events as JSON. Each of these modules exports one value, used by its
 * ruleset's index alone: the event schemas become none (a ruleset may have none), the text
 * functions throw if ever called.
 */
const withoutTextAndEventSchemas: Plugin = {
  name: 'without-text-and-event-schemas',
  setup(b) {
    b.onLoad({ filter: TEXT_AND_EVENT_SCHEMAS }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const names = [...source.matchAll(/^export (?:function|const) ([\w$]+)/gm)].map((m) => m[1]);
      const stub = args.path.endsWith('events.ts')
        ? (name: string) => `export const ${name} = undefined;`
        : (name: string) => `export const ${name} = () => { throw new Error('${name} is not part of the standalone verifier'); };`;
      return { contents: names.map(stub).join('\n'), loader: 'js' };
    });
  },
};

/**
 * Schema descriptions (`.describe("…")`, ~21 KB once minified) are for the OpenAPI document
 * and the catalogue: the verifier never reads them, and a schema parses the same without.
 * Only calls with a plain string are removed.
 */
export function withoutDescriptions(code: string): string {
  return code.replace(/\.describe\((?:"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\$]|\$(?!\{))*`)\)/g, '');
}
