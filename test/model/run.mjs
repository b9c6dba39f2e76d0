#!/usr/bin/env node
/*
 * npm run test:model — checks the model of the append protocol (functions/store/appendProtocol.pml,
 * explained in docs/append-protocol.md) exhaustively with Spin, in a temporary directory:
 *
 *   1. the model under a few sets of bounds (spin -a, gcc -DSAFETY, ./pan): each must end with
 *      "errors: 0" after a complete search (no "max search depth too small", no memory limit
 *      reached), and every step tagged "reach:" in the model must be reached by at least one of
 *      them, so the faults the properties are checked against do happen;
 *   2. each broken variant (-DBROKEN_*, -DDESIGN_*): Spin must find a violation, and the
 *      assertion that fails must be tagged with the property the variant is meant to break.
 *      The shortest counterexample found (pan -i) is replayed with spin -t and its story is
 *      written to .arbiter-data/model/<VARIANT>.txt.
 *
 * Prints one line per check, then "model: N states, 0 errors; broken variants: all caught
 * (...); N passed, N failed", and exits non-zero on any failure. Needs spin and gcc (CI
 * installs Debian's spin when missing: .ci/run).
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const started = Date.now();
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MODEL = 'appendProtocol.pml';
const modelPath = join(root, 'functions', 'store', MODEL);
const sourceLines = readFileSync(modelPath, 'utf8').split('\n');
const storyDir = join(root, '.arbiter-data', 'model');

/** The bounds the correct model is checked under (docs/append-protocol.md lists them). */
const CONFIGS = [
  {
    name: '3 commands, groups of 3, every fault',
    defines: { NC: 3, G: 3, MAXSEND: 2, MAXATT: 2, LOST: 1, CLEAN: 1, TIMEOUTS: 1, REFUSALS: 1 },
  },
  {
    name: '4 commands, groups of 3',
    defines: { NC: 4, G: 3, MAXSEND: 2, MAXATT: 2, LOST: 1, CLEAN: 0, TIMEOUTS: 0, REFUSALS: 1 },
  },
  {
    name: '2 commands, 2 lost answers, 3 requests and 3 attempts each',
    defines: { NC: 2, G: 2, MAXSEND: 3, MAXATT: 3, LOST: 2, CLEAN: 1, TIMEOUTS: 1, REFUSALS: 1 },
  },
];
/** With --thorough (by hand; about a minute and 1.5 GB here): larger bounds too. */
if (process.argv.includes('--thorough')) {
  CONFIGS.push(
    {
      name: '3 commands, groups of 3, 2 lost answers, 3 requests and 3 attempts each',
      defines: { NC: 3, G: 3, MAXSEND: 3, MAXATT: 3, LOST: 2, CLEAN: 1, TIMEOUTS: 1, REFUSALS: 1 },
    },
    {
      name: '4 commands, groups of 3, time-outs',
      defines: { NC: 4, G: 3, MAXSEND: 2, MAXATT: 2, LOST: 1, CLEAN: 0, TIMEOUTS: 1, REFUSALS: 1 },
    },
  );
}

/** Each variant must be caught, by a violation of one of the properties it lists. */
const VARIANTS = [
  { flag: 'BROKEN_NO_CONDITION', expect: ['P2'], what: 'the put has no attribute_not_exists condition' },
  { flag: 'BROKEN_KEY_LAST', expect: ['P2', 'P4'], what: 'an item is keyed by its last seq' },
  { flag: 'BROKEN_ACK_AFTER_FAILURE', expect: ['P1', 'P3'], what: 'a failed put acknowledges its group' },
  { flag: 'BROKEN_ADVANCE_AFTER_FAILURE', expect: ['P2', 'P3'], what: 'a failed put moves the cache on as if stored' },
  { flag: 'BROKEN_NO_RETRY_LOOKUP', expect: ['P4'], what: 'a stored commandId is decided again (no findRetry)' },
  { flag: 'BROKEN_SILENT_GIVE_UP', expect: ['P6'], what: 'a group out of attempts is dropped without its 503s' },
  { flag: 'DESIGN_REFUSE_AT_ONCE', expect: ['P5'], what: 'a refusal is answered at once, on a cache that may be stale' },
  { flag: 'DESIGN_NO_GROUP_DEDUPE', expect: ['P4', 'P5'], what: 'a commandId twice in one group is decided twice' },
  { flag: 'DESIGN_SNAPSHOT_MID_ITEM', expect: ['P2', 'P4'], what: 'a cold load starts from a snapshot inside an item' },
];

for (const tool of ['spin', 'gcc']) {
  if (spawnSync(tool, [tool === 'spin' ? '-V' : '--version'], { stdio: 'ignore' }).error) {
    console.log(`model: ${tool} is not installed (Debian: apt-get install ${tool}); 0 passed, 1 failed`);
    process.exit(1);
  }
}

function run(command, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', (error) => resolve({ code: -1, out: String(error) }));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** Builds pan for these defines in a fresh directory; returns the directory and the spin flags. */
async function build(defines, flags, cc) {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-model-'));
  copyFileSync(modelPath, join(dir, MODEL));
  const d = [...Object.entries(defines).map(([k, v]) => `-D${k}=${v}`), ...flags.map((f) => `-D${f}`)];
  const spin = await run('spin', ['-a', ...d, MODEL], dir);
  if (spin.code !== 0) return { dir, d, error: `spin -a failed:\n${spin.out}` };
  const gcc = await run('gcc', [...cc, '-w', '-DSAFETY', '-DMEMLIM=3072', '-o', 'pan', 'pan.c'], dir);
  if (gcc.code !== 0) return { dir, d, error: `gcc failed:\n${gcc.out}` };
  return { dir, d };
}

const number = (text, re) => {
  const m = text.match(re);
  return m ? Number(m[1]) : undefined;
};

/** The property tag (P1..P6, BOUND) on a line of the model. */
function tagOf(line) {
  const m = (sourceLines[line - 1] ?? '').match(/\/\*\s*(P\d|BOUND)\b/);
  return m ? m[1] : `line ${line} (untagged)`;
}

/** Lines of the model pan reports as unreached, in the proctypes. */
function unreachedLines(out) {
  const lines = new Set();
  for (const m of out.matchAll(new RegExp(`^\\s+${MODEL.replace('.', '\\.')}:(\\d+), state \\d+`, 'gm'))) lines.add(Number(m[1]));
  return lines;
}

async function checkConfig(config) {
  const t0 = Date.now();
  const { dir, error } = await build(config.defines, [], ['-O1', '-DCOLLAPSE']);
  try {
    if (error) return { ok: false, text: error };
    const pan = await run('./pan', ['-m100000', '-w24'], dir);
    const out = pan.out;
    const errors = number(out, /errors: (\d+)/);
    const states = number(out, /(\d+) states, stored/);
    const depth = number(out, /depth reached (\d+)/);
    const problems = [];
    if (errors !== 0) problems.push(`errors: ${errors ?? '?'}`);
    if (/max search depth too small/.test(out)) problems.push('search depth too small: the search was truncated');
    if (/Search not completed/.test(out)) problems.push('search not completed');
    if (/-DMEMLIM bound|out of memory/i.test(out)) problems.push('memory limit reached: the search was truncated');
    if (states === undefined) problems.push('no state count in pan output');
    const seconds = ((Date.now() - t0) / 1000).toFixed(1);
    return {
      ok: problems.length === 0,
      states: states ?? 0,
      unreached: unreachedLines(out),
      text: `model [${config.name}]: ${(states ?? 0).toLocaleString('en')} states, depth ${depth}, errors ${errors}, ${seconds} s${
        problems.length ? ` — FAILED: ${problems.join('; ')}\n${out}` : ''
      }`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function checkVariant(variant) {
  // The first set of bounds has every fault; -DREACH and pan -i look for the shortest counterexample.
  const { dir, d, error } = await build(CONFIGS[0].defines, [variant.flag], ['-O0', '-DREACH']);
  try {
    if (error) return { ok: false, text: `variant ${variant.flag}: ${error}` };
    const pan = await run('./pan', ['-m100000', '-i'], dir);
    const errors = number(pan.out, /errors: (\d+)/) ?? 0;
    if (errors === 0) return { ok: false, text: `variant ${variant.flag}: NOT CAUGHT — Spin found no violation (${variant.what})` };
    const replay = await run('spin', ['-T', '-t', ...d, MODEL], dir);
    let property;
    let where = '';
    const assertion = replay.out.match(new RegExp(`${MODEL.replace('.', '\\.')}:(\\d+), Error: assertion violated`));
    if (assertion) {
      property = tagOf(Number(assertion[1]));
      where = ` at ${MODEL}:${assertion[1]}`;
    } else if (/invalid end state/.test(pan.out)) {
      property = 'P6';
      where = ' (invalid end state)';
    } else {
      property = 'unknown';
    }
    const story = replay.out
      .split('\n')
      .filter((l) => /^(client|writer) \d/.test(l) || /^spin: /.test(l))
      .join('\n');
    mkdirSync(storyDir, { recursive: true });
    const storyFile = join(storyDir, `${variant.flag}.txt`);
    writeFileSync(storyFile, `${variant.flag}: ${variant.what}\nviolates ${property}${where}\n\n${story}\n`);
    const ok = variant.expect.includes(property);
    const steps = number(replay.out, /trail ends after (\d+) steps/);
    return {
      ok,
      text: `variant ${variant.flag}: ${ok ? 'caught' : 'FAILED'}, ${property}${where}, a counterexample of ${steps} steps — ${variant.what}${
        ok ? '' : ` (expected ${variant.expect.join(' or ')})\n${replay.out}`
      }`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Largest searches first; as many at once as there are cores.
const jobs = [...CONFIGS.map((c) => () => checkConfig(c)), ...VARIANTS.map((v) => () => checkVariant(v))];
const results = new Array(jobs.length);
let next = 0;
await Promise.all(
  Array.from({ length: Math.max(1, Math.min(availableParallelism(), jobs.length)) }, async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  }),
);

const configResults = results.slice(0, CONFIGS.length);
const variantResults = results.slice(CONFIGS.length);
for (const r of results) console.log(r.text);

// Coverage: every "reach:" step of the model is reached under at least one set of bounds.
const reachTags = sourceLines.flatMap((line, i) => {
  const m = line.match(/\/\*\s*reach:\s*([^*]+?)\s*\*\//);
  return m ? [{ line: i + 1, name: m[1] }] : [];
});
const missed = configResults.every((r) => r.unreached)
  ? reachTags.filter((t) => configResults.every((r) => r.unreached.has(t.line)))
  : reachTags;
const coverageOk = missed.length === 0;
console.log(
  coverageOk
    ? `coverage: all ${reachTags.length} tagged steps reached (${reachTags.map((t) => t.name).join(', ')})`
    : `coverage: FAILED, never reached: ${missed.map((t) => `${t.name} (${MODEL}:${t.line})`).join(', ')}`,
);

const checks = [...results.map((r) => r.ok), coverageOk];
const passed = checks.filter(Boolean).length;
const failed = checks.length - passed;
const states = configResults.reduce((n, r) => n + (r.states ?? 0), 0);
const modelErrors = configResults.filter((r) => !r.ok).length;
const caught = variantResults.filter((r) => r.ok).length;
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(
  `model: ${states.toLocaleString('en')} states, ${modelErrors === 0 ? '0 errors' : `${modelErrors} of ${CONFIGS.length} searches FAILED`}; ` +
    `broken variants: ${caught === VARIANTS.length ? 'all caught' : `${VARIANTS.length - caught} NOT caught`} (${caught} of ${VARIANTS.length}); ` +
    `${seconds} s; ${passed} passed, ${failed} failed`,
);
process.exit(failed === 0 ? 0 : 1);
