#!/usr/bin/env node
/*
 * npm run test:java — builds the VASSAL integration kit (clients/java) with javac --release 17,
 * writes the cross-check vectors with the TypeScript implementation, starts the local server
 * in this process on an ephemeral loopback port, and runs the Java test programs. Each program
 * ends with a line "N passed, N failed"; this driver sums them and exits non-zero on any failure.
 * A second local server, on a data directory of its own, has its key rotated between two runs of
 * RotationLiveTests by the real `npm run rotate-key` script (functions/local/rotateKey.ts).
 * For BeaconLiveTests, a loopback drand relay (test/support/loopbackRelay.ts) serves a test
 * chain in this process, and a third local server offers that chain and reveals from it.
 *
 * The VASSAL adapter (clients/java/vassal) is compiled on every run against our stand-ins of
 * the VASSAL classes it uses (clients/java/vassal-standins), and also against a real VASSAL when
 * VASSAL_JAR=/path/to/Vengine.jar is given, or against VASSAL's own sources when
 * VASSAL_SRC=/path/to/a/vassal/checkout (with VASSAL_DEPS=its third-party jars) is given; with
 * VASSAL_SRC, StandInCheck also compares every stand-in declaration with VASSAL's.
 *
 * It also runs `npm run build:vassal` (clients/java/build.mjs) and opens what it wrote: VassalExtensionTests.
 *
 * Run with tsx (node --import tsx) so that the TypeScript sources can be imported.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { javaFiles } from '../javaFiles.mjs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalJson } from '../../../domain/canonicalJson.ts';
import { commitHash } from '../../../domain/fairness/hashChain.ts';
import { fingerprintOf } from '../../../domain/trust/fingerprint.ts';
import { walkKeyLog } from '../../../domain/trust/keyLog.ts';
import { buildKeyRotation } from '../../../domain/trust/keyRotation.ts';
import { statementHash } from '../../../domain/trust/signedStatement.ts';
import { VECTOR } from '../../../test/domain/fairness/vector.ts';
import { BEACON_VECTOR } from '../../../test/domain/beacon/vector.ts';
import { buildBeaconGame } from '../../../test/support/beaconGame.ts';
import { testBeaconChain } from '../../../test/support/testBeaconChain.ts';
import { roundTimeMs } from '../../../domain/beacon/chain.ts';
import { generateSigningKey, publicJwkOf, signWith } from '../../../functions/application/signer.ts';
import { startLocalService } from '../../../functions/local/localService.ts';
import { BeaconRelay } from '../../../functions/application/beaconRelay.ts';
import { beaconSignatureValid } from '../../../domain/beacon/blsSignature.ts';
import { startLoopbackRelay } from '../../../test/support/loopbackRelay.ts';

const started = Date.now();
const kit = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(kit, '..', '..');
const build = join(kit, 'build');
const classes = join(build, 'classes');


function fail(message) {
  console.error(`test:java: ${message}`);
  process.exit(1);
}

// 1. Compile: the kit and the tests; the VASSAL adapter only against a given VASSAL jar.
rmSync(build, { recursive: true, force: true });
mkdirSync(classes, { recursive: true });
if (spawnSync('javac', ['-version'], { stdio: 'ignore' }).status !== 0) fail('javac not found (install a JDK 17 or later, e.g. Debian default-jdk-headless)');
// The adapter's headless tests (test/adapter) and the VASSAL fakes they run on (test/vassal-fakes) are compiled apart, below.
const sources = [...javaFiles(join(kit, 'src')), ...javaFiles(join(kit, 'test')).filter((f) => !f.startsWith(join(kit, 'test', 'adapter')) && !f.startsWith(join(kit, 'test', 'vassal-fakes')))];
const javac = spawnSync('javac', ['--release', '17', '-Xlint:all', '-Werror', '-encoding', 'UTF-8', '-d', classes, ...sources], { stdio: 'inherit' });
if (javac.status !== 0) fail('javac failed on the kit or its tests');
console.log(`compiled ${sources.length} Java files (--release 17) into ${relative(process.cwd(), classes)}`);
const adapter = javaFiles(join(kit, 'vassal'));
const pathSep = process.platform === 'win32' ? ';' : ':';
function compileAdapter(label, out, extra) {
  mkdirSync(out, { recursive: true });
  const result = spawnSync('javac', ['--release', '17', '-Xlint:all', '-Werror', '-encoding', 'UTF-8', '-d', out, ...extra, ...adapter], { stdio: 'inherit' });
  if (result.status !== 0) fail(`the VASSAL adapter does not compile against ${label}`);
  console.log(`compiled the VASSAL adapter (${adapter.length} files) against ${label}`);
}
// Our stand-ins: declarations with VASSAL's signatures (checked against VASSAL's sources, see docs/vassal.md).
const standIns = javaFiles(join(kit, 'vassal-standins'));
const standInClasses = join(build, 'standin-classes');
mkdirSync(standInClasses, { recursive: true });
if (spawnSync('javac', ['--release', '17', '-Xlint:all', '-Werror', '-encoding', 'UTF-8', '-d', standInClasses, ...standIns], { stdio: 'inherit' }).status !== 0) fail('the VASSAL stand-ins do not compile');
compileAdapter(`the VASSAL stand-ins (${standIns.length} classes in clients/java/vassal-standins)`, join(build, 'vassal-classes-standins'), ['-cp', [standInClasses, classes].join(pathSep)]);
// The adapter once more, on fakes of VASSAL's classes that behave (test/vassal-fakes), with AdapterTests: run headless below.
const adapterTestClasses = join(build, 'adapter-test-classes');
mkdirSync(adapterTestClasses, { recursive: true });
if (spawnSync('javac', ['--release', '17', '-Xlint:all', '-Werror', '-encoding', 'UTF-8', '-cp', classes, '-d', adapterTestClasses, ...javaFiles(join(kit, 'test', 'vassal-fakes')), ...adapter, ...javaFiles(join(kit, 'test', 'adapter'))], { stdio: 'inherit' }).status !== 0) fail('the adapter does not compile against the VASSAL fakes of AdapterTests');
if (process.env.VASSAL_JAR) {
  // -Xlint:-path: a Class-Path entry of Vengine.jar's manifest that is not there is no fault of the adapter.
  compileAdapter(process.env.VASSAL_JAR, join(build, 'vassal-classes'), ['-Xlint:-path', '-cp', [process.env.VASSAL_JAR, classes].join(pathSep)]);
}
if (process.env.VASSAL_SRC) {
  // VASSAL's sources: only what the adapter reaches is read (-implicit:none); their own imports need VASSAL's third-party jars.
  const src = process.env.VASSAL_SRC;
  const sourcepath = [join(src, 'vassal-app/src/main/java'), join(src, 'vassal-deprecation/src/main/java')].join(pathSep);
  const cp = [classes, ...(process.env.VASSAL_DEPS ? [process.env.VASSAL_DEPS] : [])].join(pathSep);
  mkdirSync(join(build, 'vassal-classes-src'), { recursive: true });
  const result = spawnSync('javac', ['--release', '17', '-encoding', 'UTF-8', '-proc:none', '-implicit:none', '-sourcepath', sourcepath, '-cp', cp, '-d', join(build, 'vassal-classes-src'), ...adapter], { stdio: 'inherit' });
  if (result.status !== 0) fail(`the VASSAL adapter does not compile against the sources in ${src}`);
  console.log(`compiled the VASSAL adapter (${adapter.length} files) against VASSAL's sources in ${src}`);
}

// 1b. `npm run build:vassal`: the extension and the kit jar, which VassalExtensionTests opens.
if (spawnSync(process.execPath, [join(kit, 'build.mjs')], { stdio: 'inherit' }).status !== 0) fail('build:vassal failed');
// A wrong setting stops build:vassal with a line that says which and why (no stack trace), and leaves the outputs above alone.
const badKeys = join(build, 'not-keys.json');
writeFileSync(badKeys, '{"keys": [');
for (const [env, expected] of [
  [{ ARBITER_KEYS_FILE: join(build, 'no-such-keys.json') }, /^build:vassal: ARBITER_KEYS_FILE: cannot read .*no-such-keys\.json \(ENOENT\)$/],
  [{ ARBITER_KEYS_FILE: badKeys }, /^build:vassal: ARBITER_KEYS_FILE: .*not-keys\.json is not JSON /],
  [{ ARBITER_COMMAND_TEMPLATE: '{"type":"ResolveCombat","payload":{"combatId":"$CombatId}}' }, /^build:vassal: ARBITER_COMMAND_TEMPLATE: the command template has a '\$' with no closing '\$'/],
]) {
  const bad = spawnSync(process.execPath, [join(kit, 'build.mjs')], { env: { ...process.env, ...env }, encoding: 'utf8' });
  const said = bad.stderr.trim();
  if (bad.status !== 1 || !expected.test(said) || said.includes('\n    at ')) fail(`build:vassal with ${JSON.stringify(env)}: expected exit 1 and ${expected}, got ${bad.status}: ${said}`);
  console.log(`build:vassal refuses ${Object.keys(env)[0]}: ${said.split('\n')[0]}`);
}
for (const output of ['arbiter-vassal-kit.jar', 'Arbiter.vmdx']) statSync(join(root, 'dist/vassal', output));

// 2. Vectors from the TypeScript implementation.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(20261123);
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
const pick = (list) => list[int(0, list.length - 1)];
// Characters that exercise escaping, UTF-8 and UTF-16 key order: controls, quotes, backslash,
// DEL, C1, line separators, bidi overrides, BMP letters, U+FFFF and astral pairs (which sort
// before U+E000..U+FFFF by UTF-16 code units but after them by code point).
const CHARS = ['a', 'b', 'Z', '0', ' ', '/', '"', '\\', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u0001', '\u001f', '\u007f', '\u0085', '\u00e9', '\u00ff',
  '\u0100', '\u4e2d', '\u2028', '\u2029', '\u202e', '\u2066', '\ue000', '\uffef', '\uffff', '\ud83d\ude00', '\ud800\udc00', '\udbff\udfff', '<', '&', "'"];
const str = (max = 8) => Array.from({ length: int(0, max) }, () => pick(CHARS)).join('');
const INTS = [0, 1, -1, 6, 42, 1000, -1000, 2 ** 31, -(2 ** 31), 2 ** 32, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 1e15, 123456789012];
const integer = () => (random() < 0.5 ? pick(INTS) : int(-1e9, 1e9));
function value(depth) {
  const r = random();
  if (depth > 3 || r < 0.3) return pick([() => str(), integer, () => random() < 0.5, () => null])();
  if (r < 0.6) return Array.from({ length: int(0, 4) }, () => value(depth + 1));
  return object(depth + 1);
}
function object(depth) {
  const out = {};
  for (let i = int(0, 5); i > 0; i--) out[str(4)] = value(depth);
  return out;
}
const hex = (n) => Array.from({ length: n }, () => '0123456789abcdef'[int(0, 15)]).join('');
function randomCommit(i) {
  const commit = {
    gameId: `g-${hex(12)}${str(2)}`,
    seq: int(1, 100000),
    commandId: `c-${i}-${str(3)}`,
    actor: pick(['player1', 'player2', 'allied', 'german', 'organizer']),
    command: { type: pick(['Roll', 'ResolveCombat', 'ContributeEntropy', 'Seal']), payload: object(0) },
    events: Array.from({ length: int(0, 3) }, () => ({ type: pick(['DiceRolled', 'CombatResolved', 'EntropyContributed']), data: object(0) })),
    dice: Array.from({ length: int(0, 6) }, () => {
      const sides = pick([2, 6, 10, 20, 100, 1000, int(2, 1000)]);
      return { sides, value: int(1, sides) };
    }),
    recordedAt: new Date(int(0, 4e12)).toISOString(),
    kid: `k-${hex(8)}`,
    prevHash: hex(64),
  };
  if (random() < 0.2) commit.as = 'organizer';
  return { ...commit, hash: commitHash(commit), signature: Buffer.from(hex(128), 'hex').toString('base64') };
}
// The input a receiver might get: keys in any order, any white space, any legal escape.
function scramble(v) {
  const ws = () => pick(['', '', ' ', '\n  ', '\t', '\r\n']);
  const s = (text) => {
    let out = '"';
    for (const c of text) {
      const code = c.codePointAt(0);
      const r = random();
      if (c === '"' || c === '\\') out += '\\' + c;
      else if (code < 0x20) out += r < 0.5 ? JSON.stringify(c).slice(1, -1) : `\\u${code.toString(16).padStart(4, '0').toUpperCase()}`;
      else if (c === '/' && r < 0.5) out += '\\/';
      else if (r < 0.2) out += Array.from({ length: c.length }, (_, k) => `\\u${c.charCodeAt(k).toString(16).padStart(4, '0')}`).join('');
      else out += c;
    }
    return out + '"';
  };
  if (v === null || typeof v === 'boolean' || typeof v === 'number') return JSON.stringify(v);
  if (typeof v === 'string') return s(v);
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => scramble(x)).join(`${ws()},${ws()}`)}${ws()}]`;
  const keys = Object.keys(v).sort(() => random() - 0.5);
  return `{${ws()}${keys.map((k) => `${s(k)}${ws()}:${ws()}${scramble(v[k])}`).join(`,${ws()}`)}${ws()}}`;
}
const lines = [];
for (let i = 0; i < 1000; i++) {
  const commit = randomCommit(i);
  lines.push(JSON.stringify({ input: scramble(commit), canonical: canonicalJson(commit), hash: commit.hash }));
}
const randomFile = join(build, 'random-commits.jsonl');
writeFileSync(randomFile, lines.join('\n') + '\n');
// Key logs (trust.md §3) built and walked by the TypeScript code, for the Java walk to agree with.
const keyRing = Array.from({ length: 6 }, () => generateSigningKey());
const jwkOf = (stored) => publicJwkOf(stored);
const fpOf = (stored) => fingerprintOf(publicJwkOf(stored));
const rotation = (n, from, to, signer = from, at = `2026-11-2${n % 10}T12:00:00.000Z`) =>
  buildKeyRotation({ n, previous: fpOf(from), next: { x: jwkOf(to).x, kid: jwkOf(to).kid }, at }, signWith(signer));
const resigned = (statement, signer) => {
  const { hash: _h, signature: _s, ...unsigned } = statement;
  const hash = statementHash(unsigned);
  return { ...unsigned, hash, signature: signWith(signer)(hash) };
};
const chain = [rotation(1, keyRing[0], keyRing[1]), rotation(2, keyRing[1], keyRing[2]), rotation(3, keyRing[2], keyRing[3]), rotation(4, keyRing[3], keyRing[1])];
const MUTATIONS = [
  (log) => log,
  (log) => log.slice(0, int(0, log.length)),
  (log) => { const i = int(0, log.length - 1); log[i] = { ...log[i], at: '2027-01-01T00:00:00.000Z' }; return log; },
  (log) => { const i = int(0, log.length - 1); log[i] = resigned({ ...log[i], next: { ...log[i].next, x: jwkOf(keyRing[5]).x } }, keyRing[5]); return log; },
  (log) => { const i = int(0, log.length - 1); log[i] = resigned(log[i], pick(keyRing)); return log; },
  (log) => { const i = int(0, log.length - 2); [log[i], log[i + 1]] = [log[i + 1], log[i]]; return log; },
  (log) => { log.splice(int(0, log.length - 1), 1); return log; },
  (log) => [...log, rotation(log.length + 1, pick(keyRing), keyRing[5], keyRing[5])],
  (log) => [...log, rotation(log.length + 1, keyRing[int(0, 3)], keyRing[int(4, 5)])],
  (log) => { const i = int(0, log.length - 1); log[i] = { ...log[i], note: 'unsigned' }; return log; },
  (log) => { const i = int(0, log.length - 1); log[i] = resigned({ ...log[i], note: 'signed' }, pick(keyRing)); return log; },
  (log) => { const i = int(0, log.length - 1); log[i] = { ...log[i], n: pick([0, 7, 1.5, '1']) }; return log; },
  (log) => { const i = int(0, log.length - 1); log[i] = resigned({ ...log[i], next: { ...log[i].next, x: jwkOf(keyRing[4]).x + '=' } }, keyRing[int(0, 5)]); return log; },
  (log) => { const i = int(0, log.length - 1); log[i] = { ...log[i], type: 'GameHead' }; return log; },
  () => pick([{}, 'log', 42]),
];
const keyLogCases = [];
for (let i = 0; i < 400; i++) {
  const log = MUTATIONS[i < MUTATIONS.length ? i : int(0, MUTATIONS.length - 1)](structuredClone(chain));
  const pinned = [...new Set(Array.from({ length: int(0, 3) }, () => (random() < 0.85 ? fpOf(pick(keyRing)) : fpOf(generateSigningKey()))))];
  const known = keyRing.filter(() => random() < 0.6).map(jwkOf);
  const walk = walkKeyLog(log, pinned, known);
  keyLogCases.push({
    log,
    pinned,
    known: known.map((k) => k.x),
    trusted: Object.fromEntries([...walk.trusted.values()].map((t) => [t.fingerprint, t.via === 'pinned' ? 0 : t.via])),
    used: walk.used,
    failure: walk.failure ? walk.failure.n : null,
  });
}
const keyLogFile = join(build, 'key-log-cases.json');
writeFileSync(keyLogFile, JSON.stringify(keyLogCases));
const vectorFile = join(build, 'fairness-vector.json');
const entropyMessage = canonicalJson({ gameId: VECTOR.gameId, entropy: VECTOR.withEntropy.entropy });
writeFileSync(vectorFile, JSON.stringify({
  ...VECTOR,
  withEntropy: { ...VECTOR.withEntropy, message: entropyMessage },
  noEntropyGameKeyInput: { gameId: VECTOR.gameId, entropy: [] },
}));

// Beacon games (docs/beacon.md): the §3 test vector as docs/beacon.md publishes it, a sealed
// beacon game built by the domain on the spec's real quicknet rounds, and that game as a
// dishonest server would sign it (each variant re-chained and re-signed with the game's own key,
// so that only the beacon rules can catch it).
const beaconVectorFile = join(build, 'beacon-vector.json');
writeFileSync(beaconVectorFile, JSON.stringify(BEACON_VECTOR));
const beaconGame = buildBeaconGame();
const resignFrom = (bundle, key, from) => {
  const sign = signWith(key);
  for (let i = from; i < bundle.commits.length; i++) {
    const c = bundle.commits[i];
    c.seq = i + 1;
    c.prevHash = i === 0 ? '0'.repeat(64) : bundle.commits[i - 1].hash;
    const { hash: _h, signature: _s, ...unsigned } = c;
    c.hash = commitHash(unsigned);
    c.signature = sign(c.hash);
  }
  return bundle;
};
const tampered = (name, expect, change) => {
  const bundle = structuredClone(beaconGame.bundle);
  const from = change(bundle.commits);
  return { name, expect, export: resignFrom(bundle, beaconGame.key, from) };
};
const seqOf = (commits, type) => commits.findIndex((c) => c.command.type === type);
const pendingIndex = (commits) => commits.findIndex((c) => c.events[0]?.type === 'BeaconRollPending');
const beaconCases = [
  tampered('a die of a reveal changed', 'the seed and round', (commits) => {
    const i = seqOf(commits, 'RevealBeacon');
    const die = commits[i].dice[0];
    die.value = (die.value % die.sides) + 1;
    return i;
  }),
  tampered("a reveal's round changed", 'it reveals round', (commits) => {
    const i = seqOf(commits, 'RevealBeacon');
    commits[i].command.payload.round += 1;
    return i;
  }),
  tampered('a pending commit and its round moved one round later, reveal alike', 'the first round at least one period after', (commits) => {
    const i = pendingIndex(commits);
    const r = commits[i].events[0].data.round + 1;
    commits[i].events[0].data = { round: r, roundAt: new Date(roundTimeMs(beaconGame.chain, r)).toISOString() };
    commits[i + 1].command.payload.round = r;
    return i;
  }),
  tampered('the reveal before its pending commit (the pair swapped)', 'a reveal, but no commit was waiting', (commits) => {
    const i = pendingIndex(commits);
    [commits[i], commits[i + 1]] = [commits[i + 1], commits[i]];
    return i;
  }),
  tampered('a pending commit naming a round already published (recorded after it)', 'the server may have known that beacon', (commits) => {
    const i = pendingIndex(commits);
    commits[i].recordedAt = new Date(roundTimeMs(beaconGame.chain, commits[i].events[0].data.round) + 500).toISOString();
    return i;
  }),
  tampered('entropy added after the first pending roll', 'entropy added after the first pending roll', (commits) => {
    const seal = seqOf(commits, 'Seal');
    commits.splice(seal, 0, { ...structuredClone(commits[seqOf(commits, 'ContributeEntropy')]), commandId: 'late-entropy', recordedAt: commits[seal].recordedAt });
    return seal;
  }),
  tampered('a commit that draws dice without a beacon (the seal)', 'draws dice outside a reveal', (commits) => {
    const i = seqOf(commits, 'Seal');
    commits[i].dice = [{ sides: 6, value: 3 }];
    return i;
  }),
  tampered('a reveal that also adds entropy', 'a reveal holds the game event', (commits) => {
    const i = seqOf(commits, 'RevealBeacon');
    commits[i].events.push({ type: 'EntropyContributed', data: { by: 'player1', entropy: 'after the beacon' } });
    return i;
  }),
  tampered("quicknet's name with another public key", 'differs from quicknet', (commits) => {
    commits[0].events[0].data.beacon.publicKey = 'a' + commits[0].events[0].data.beacon.publicKey.slice(1);
    return 0;
  }),
  tampered("quicknet's hash under another name", 'differs from quicknet', (commits) => {
    commits[0].events[0].data.beacon.chain = 'mynet';
    commits[0].command.payload.randomness.beacon = 'mynet';
    return 0;
  }),
  tampered('a roll voided: its reveal cut to no dice and recorded as refused', 'cannot tell whether that is true', (commits) => {
    const i = seqOf(commits, 'RevealBeacon');
    commits[i].dice = [];
    commits[i].events = [{ type: 'BeaconRollRefused', data: { code: 'insufficient_dice', message: 'This needs at least 1 dice.' } }];
    return i;
  }),
  tampered('a reveal recorded before its round', 'recorded before its round', (commits) => {
    const i = seqOf(commits, 'RevealBeacon');
    commits[i].recordedAt = new Date(roundTimeMs(beaconGame.chain, commits[i].command.payload.round) - 1).toISOString();
    return i;
  }),
  tampered('a reveal sent "as" the organizer', 'the server reveals for no one', (commits) => {
    const i = seqOf(commits, 'RevealBeacon');
    commits[i] = { ...commits[i], as: 'organizer' };
    return i;
  }),
];
// A game on a chain of the tests' own (its own BLS key): refused unless its hash is pinned.
const ownChain = testBeaconChain({ genesis: 1_700_000_000, period: 1 });
const ownGame = buildBeaconGame({ chain: ownChain.chain, beacons: [100, 110, 120, 130].map((round) => ({ round, signature: ownChain.sign(round) })) });
const unsealedGame = buildBeaconGame({ sealed: false });
const beaconGamesFile = join(build, 'beacon-games.json');
writeFileSync(beaconGamesFile, JSON.stringify({
  game: beaconGame.bundle,
  fingerprint: beaconGame.fingerprint,
  tampered: beaconCases,
  ownChain: { game: ownGame.bundle, fingerprint: ownGame.fingerprint, chainHash: ownChain.chain.chainHash, publicKey: ownChain.chain.publicKey },
  unsealed: { game: unsealedGame.bundle, fingerprint: unsealedGame.fingerprint },
}));

// 3. The local server, in this process, on an ephemeral loopback port.
const local = await startLocalService({ host: '127.0.0.1', port: 0 });
const fingerprint = local.service.signer.fingerprint;
console.log(`local server ${local.url}, signing key ${fingerprint}`);

// 4. The Java programs.
function runJava(main, args, classPath = classes) {
  return new Promise((resolve) => {
    const child = spawn('java', ['-Djava.awt.headless=true', '-cp', classPath, `org.arbiter.kit.test.${main}`, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const last = out.trim().split('\n').pop() ?? '';
      const m = /^(\d+) passed, (\d+) failed$/.exec(last);
      resolve({ main, code, passed: m ? Number(m[1]) : 0, failed: m ? Number(m[2]) : 1, counted: !!m });
    });
  });
}
const results = [];
try {
  if (process.env.VASSAL_SRC) {
    results.push(await runJava('StandInCheck', [join(kit, 'vassal-standins'), join(kit, 'vassal'), join(process.env.VASSAL_SRC, 'vassal-app/src/main/java')]));
  }
  results.push(await runJava('OfflineTests', []));
  results.push(await runJava('TemplateAndLinkTests', []));
  results.push(await runJava('VassalExtensionTests', [join(root, 'dist/vassal/Arbiter.vmdx'), join(root, 'dist/vassal/arbiter-vassal-kit.jar'), standInClasses, join(root, 'docs/vassal.md')]));
  results.push(await runJava('CrossCheckTests', [vectorFile, randomFile, keyLogFile]));
  results.push(await runJava('BeaconTests', [beaconVectorFile, beaconGamesFile]));
  results.push(await runJava('LiveTests', [local.url, fingerprint]));
  results.push(await runJava('AdapterTests', ['live', local.url, fingerprint], [adapterTestClasses, classes].join(pathSep)));
} finally {
  await local.close();
}

// 4b. A beacon game live: a loopback drand relay in this process serving a test chain (its own
// BLS key, 1 s rounds), and a local server that offers that chain and reveals from that relay;
// the kit pins the chain by its hash (docs/beacon.md).
const liveChain = testBeaconChain({ name: 'arbiter-test', period: 1 });
const relay = await startLoopbackRelay({ chains: [liveChain] });
try {
  const beaconServer = await startLocalService({
    host: '127.0.0.1',
    port: 0,
    beaconChains: new Map([[liveChain.chain.chain, liveChain.chain]]),
    beaconSource: new BeaconRelay({ relays: [relay.url], check: beaconSignatureValid }),
  });
  try {
    console.log(`local server ${beaconServer.url} with beacon games on the test chain ${liveChain.chain.chainHash} from the relay ${relay.url}`);
    results.push(await runJava('BeaconLiveTests', [beaconServer.url, beaconServer.service.signer.fingerprint, liveChain.chain.chain, liveChain.chain.chainHash]));
    results.push(await runJava('AdapterTests', ['beacon', beaconServer.url, beaconServer.service.signer.fingerprint, liveChain.chain.chain], [adapterTestClasses, classes].join(pathSep)));
  } finally {
    await beaconServer.close();
  }
} finally {
  await relay.close();
}

// 5. A key rotation: a server on its own data directory, stopped, rotated by `npm run rotate-key`'s
// script on that directory, and started again; a module that pinned only the old key plays on.
const dataDir = mkdtempSync(join(tmpdir(), 'arbiter-java-rotation-'));
try {
  const stateFile = join(build, 'rotation-state.json');
  // Its exports are all stored and linked (303), as a long game's are: the kit follows the link without its token.
  let server = await startLocalService({ host: '127.0.0.1', port: 0, dataDir, exportInlineMaxBytes: 1024 });
  const oldFingerprint = server.service.signer.fingerprint;
  try {
    results.push(await runJava('RotationLiveTests', ['before', server.url, oldFingerprint, stateFile]));
  } finally {
    await server.close();
  }
  const rotate = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'functions/local/rotateKey.ts')], { cwd: root, env: { ...process.env, ARBITER_DATA_DIR: dataDir }, encoding: 'utf8' });
  if (rotate.stdout.trim()) console.log(rotate.stdout.trimEnd().replace(/^/gm, '   rotate-key: '));
  if (rotate.status !== 0) fail(`rotate-key failed on ${dataDir}: ${rotate.stderr}`);
  server = await startLocalService({ host: '127.0.0.1', port: 0, dataDir, exportInlineMaxBytes: 1024 });
  try {
    const newFingerprint = server.service.signer.fingerprint;
    console.log(`local server ${server.url} restarted after the rotation: ${oldFingerprint} -> ${newFingerprint}`);
    const served = server.service.signer.keysDocument();
    const walk = walkKeyLog(served.log, [oldFingerprint], served.keys);
    const expectedFile = join(build, 'rotation-walk.json');
    writeFileSync(expectedFile, JSON.stringify({
      trusted: Object.fromEntries([...walk.trusted.values()].map((t) => [t.fingerprint, t.via === 'pinned' ? 0 : t.via])),
      used: walk.used,
      failure: walk.failure ? walk.failure.n : null,
    }));
    results.push(await runJava('RotationLiveTests', ['after', server.url, oldFingerprint, stateFile, newFingerprint, expectedFile]));
  } finally {
    await server.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
let passed = 0;
let failed = 0;
let ok = true;
for (const r of results) {
  passed += r.passed;
  failed += r.failed;
  if (r.code !== 0 || !r.counted || r.failed > 0) {
    ok = false;
    console.log(`test:java: ${r.main} exited ${r.code}${r.counted ? '' : ' without its "N passed, N failed" line'}`);
  }
}
console.log(`test:java: ${results.length} programs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
