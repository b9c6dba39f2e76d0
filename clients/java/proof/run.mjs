#!/usr/bin/env node
/*
 * npm run test:vassal — the Arbiter extension inside a real VASSAL Player (docs/vassal.md, "Proof inside VASSAL").
 *  1. builds VASSAL 3.7.26 from its sources against Debian's Java packages (buildVassal.mjs; cached);
 *  2. packs the test module (proof/module) and the Arbiter extension — ARBITER_VMDX if given; else build:vassal's
 *     (clients/java/build.mjs) pinned to the test server with a France 1944 command template — dropped into the
 *     module's extensions folder;
 *  3. starts a local Arbiter server in this process on an ephemeral loopback port and creates the games;
 *  4. runs the harness (proof/harness, in the Player's JVM) under Xvfb, one Player per step:
 *     a roll twice with the log saved; a second Player replays that log; a roll withheld between two rolls and
 *     its log replayed; the first log with one die altered, replayed; a France 1944 ResolveCombat through the
 *     command button, logged and replayed (an extension without that button fails the run); a roll with the server down.
 * Screenshots go to docs/screenshots/vassal-*.png only with UPDATE_DOCS=1. Ends with "N passed, N failed".
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { javaFiles } from '../javaFiles.mjs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildVassal, ensureDebianPackages, vassalClassPath, vassalDir } from './buildVassal.mjs';
import { packModule } from './packModule.mjs';
import { startLocalService } from '../../../functions/local/localService.ts';

const started = Date.now();
const proof = dirname(fileURLToPath(import.meta.url));
const root = join(proof, '..', '..', '..');
const shots = process.env.UPDATE_DOCS === '1' ? join(root, 'docs', 'screenshots') : null;
const work = mkdtempSync(join(tmpdir(), 'arbiter-vassal-proof-'));
// Each Player's whole output (and VASSAL's error log when a check failed), kept after the run (ignored by git).
const outputs = join(proof, '..', 'build', 'vassal-proof');
rmSync(outputs, { recursive: true, force: true });
mkdirSync(outputs, { recursive: true });
let passed = 0;
let failed = 0;

function check(name, ok, why = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${ok ? '' : `: ${why}`}`);
}


// 1. VASSAL, Xvfb.
let stamp;
try {
  stamp = buildVassal();
  ensureDebianPackages(['xvfb', 'xauth']);
} catch (error) {
  console.error(error.message);
  console.log('0 passed, 1 failed');
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
}
const classPath = vassalClassPath();
const harnessClasses = join(work, 'harness-classes');
mkdirSync(harnessClasses, { recursive: true });
const javac = spawnSync('javac', ['--release', '17', '-Xlint:all', '-Xlint:-path', '-Werror', '-encoding', 'UTF-8', '-cp', classPath.join(':'), '-d', harnessClasses, ...javaFiles(join(proof, 'harness'))], { stdio: 'inherit' });
if (javac.status !== 0) {
  console.error('test:vassal: the harness does not compile against VASSAL');
  process.exit(1);
}

// 2–3. The server, the games, the module and the extension.
const server = await startLocalService({ host: '127.0.0.1', port: 0 });
let serverOpen = true;
const api = async (method, path, body, token) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
};
const newGame = async () => {
  const created = await api('POST', '/games', { ruleset: 'dice' });
  if (created.status !== 201) throw new Error(`POST /games answered ${created.status}`);
  const id = created.body.gameId;
  const token = Object.values(created.body.tokens.players)[0];
  return { id, token, link: `${server.url}/#/games/${id}?token=${token}` }; // the timeline link an organizer sends a player
};
// What a player types into the button's dialogs: the game id and token, or (build:vassal's button) the link.
const seat = (game) => ({ game: game.id, token: game.token, link: game.link });
const COMBAT_TEMPLATE = '{"type":"ResolveCombat","payload":{"combatId":"$CombatId$"}}';
const unit = (unitId, hex, strength) => ({ unitId, hex, strength });
/** A France 1944 game up to a declared set-piece combat c1 (as clients/java/test LiveTests declares it); the allied seat. */
const france44Combat = async () => {
  const created = await api('POST', '/games', { ruleset: 'france44' });
  if (created.status !== 201) throw new Error(`POST /games france44 answered ${created.status}`);
  const { gameId: id, tokens } = created.body;
  const { allied, german } = tokens.players;
  const steps = [
    [tokens.organizer, 'StartTurn', { turn: 1, reactionPoints: { allied: 10, german: 6 } }],
    [german, 'ActivateHQ', { hqId: '7' }],
    [allied, 'ActivateHQ', { hqId: '1US' }],
    [german, 'BeginReactionSegment', {}],
    [german, 'EndReactionSegment', {}],
    [allied, 'BeginAttackIncrement', {}],
    [allied, 'DeclareCombat', { combatId: 'c1', kind: 'set-piece', attackers: [unit('1Inf', '2708', 4), unit('29Inf', '2709', 3), unit('2Arm', '2709', 3)], defenders: [unit('352', '2809', 7)], attackerMorale: 4, defenderMorale: 3, terrainMoraleModifiers: [1] }],
  ];
  for (const [token, type, payload] of steps) {
    const r = await api('POST', `/games/${id}/commands`, { commandId: `proof-${type}-${Math.random().toString(36).slice(2)}`, type, payload }, token);
    if (r.status !== 201) throw new Error(`${type} answered ${r.status}: ${JSON.stringify(r.body)}`);
  }
  return { id, token: allied, link: `${server.url}/#/games/${id}?token=${allied}` };
};

const moduleFile = packModule(join(work, 'modules', 'ArbiterProof.vmod'));
const extFolder = join(work, 'modules', 'ArbiterProof_ext'); // VASSAL's extensions folder for that module
let vmdx;
try {
  const keys = await api('GET', '/keys');
  const fingerprint = server.service.signer.fingerprint;
  // The extension: ARBITER_VMDX as given; else build:vassal's, built with this server's key pinned and a France 1944 command template.
  if (process.env.ARBITER_VMDX) vmdx = process.env.ARBITER_VMDX;
  else {
    const kitBuild = join(root, 'clients', 'java', 'build.mjs');
    const keysFile = join(work, 'keys.json');
    writeFileSync(keysFile, JSON.stringify(keys.body));
    const built = spawnSync(process.execPath, [kitBuild], {
      stdio: 'inherit',
      env: { ...process.env, ARBITER_PINNED: fingerprint, ARBITER_KEYS_FILE: keysFile, ARBITER_COMMAND_TEMPLATE: COMBAT_TEMPLATE, ARBITER_COMMAND_LABEL: 'Resolve combat', ARBITER_COMMAND_CONFIRM: 'false' },
    });
    if (built.status !== 0) throw new Error(`${kitBuild} failed`);
    vmdx = join(root, 'dist', 'vassal', 'Arbiter.vmdx');
  }
  const hasCommandButton = spawnSync('jar', ['tf', vmdx], { encoding: 'utf8' }).stdout.includes('ArbiterCommandButton.class');
  mkdirSync(extFolder, { recursive: true });
  copyFileSync(vmdx, join(extFolder, 'Arbiter.vmdx'));
  console.log(`test:vassal: VASSAL ${stamp.tag} (${stamp.commit.slice(0, 12)}), module ${moduleFile}, extension ${vmdx}, server ${server.url} (${fingerprint})`);

  // 4. The Players.
  let display = 0;
  const player = (label, scenario, props) =>
    new Promise((resolve) => {
      const n = ++display;
      const conf = join(work, `conf-${n}`);
      const home = join(work, 'home');
      mkdirSync(join(conf, 'prefs'), { recursive: true });
      mkdirSync(home, { recursive: true });
      // A player who has used VASSAL before: no welcome wizard, a name set (VASSAL's own preference files).
      writeFileSync(join(conf, 'prefs', 'V_Global'), 'welcomeWizard=false\nLocale=en\nmainWindowWidth=1200\nmainWindowHeight=760\n');
      writeFileSync(join(conf, 'prefs', 'Arbiter_20_Proof'), 'RealName=Alice\n');
      const args = [
        '-a', '-s', '-screen 0 1280x800x24', 'java', '-Xmx768m', '-Djava.awt.headless=false', `-DVASSAL.conf=${conf}`, '-Dawt.useSystemAAFontSettings=on',
        `-Dproof.module=${moduleFile}`,
        ...Object.entries(props).map(([k, v]) => `-Dproof.${k}=${v}`),
        '-cp', [harnessClasses, ...classPath].join(':'), 'org.arbiter.proof.ProofHarness', scenario,
      ];
      const t0 = Date.now();
      const child = spawn('xvfb-run', args, { env: { ...process.env, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        const lines = out.split('\n');
        writeFileSync(join(outputs, `${n}-${scenario}.log`), out);
        const shown = lines.filter((l) => /^(PASS|FAIL) /.test(l) || l.startsWith('  | ') || l.startsWith('altered') || l.startsWith('dialogs answered') || l.startsWith('screenshot') || l.startsWith('after ') || /Exception|Error/.test(l));
        console.log(`--- ${label} (${((Date.now() - t0) / 1000).toFixed(1)} s, exit ${code})`);
        for (const l of shown.slice(0, 80)) console.log(`  ${l}`);
        const p = lines.filter((l) => l.startsWith('PASS ')).length;
        const f = lines.filter((l) => l.startsWith('FAIL ')).length;
        passed += p;
        failed += f;
        if (code !== 0 && f === 0) check(`${label}: the Player ran to its end`, false, `exit ${code}`);
        if (code !== 0 || f > 0) console.log(`  its whole output: ${join(outputs, `${n}-${scenario}.log`)}`);
        resolve({ code, out });
      });
    });
  const shot = (name) => (shots ? { shot: join(shots, `vassal-${name}.png`) } : {});

  const clean = await newGame();
  const cleanLog = join(work, 'logs', 'two-rolls.vlog');
  mkdirSync(dirname(cleanLog), { recursive: true });
  await player('roll twice, log saved', 'play', { ...seat(clean), vlog: cleanLog, purposes: 'Attack on Caen|Defence of Hill 112', ...shot('roll') });
  await player('a second Player replays that log', 'replay', { vlog: cleanLog, expect: 'verified', rolls: 2, ...shot('replay-verified') });

  const withheld = await newGame();
  const withheldLog = join(work, 'logs', 'withheld.vlog');
  await player('a roll withheld between two rolls', 'play', { ...seat(withheld), vlog: withheldLog, purposes: 'First assault|Second assault', withhold: server.url });
  await player('a second Player replays the log with the withheld roll', 'replay', { vlog: withheldLog, expect: 'gap', rolls: 1, ...shot('replay-gap') });

  const alteredLog = join(work, 'logs', 'altered.vlog');
  const alter = spawnSync('java', ['-cp', [harnessClasses, ...classPath].join(':'), 'org.arbiter.proof.VlogFile', 'alter', cleanLog, alteredLog], { encoding: 'utf8' });
  console.log(`--- one die changed in the saved log: ${(alter.stdout || alter.stderr).trim()}`);
  check('a die of the saved log altered (VASSAL\'s own log codec)', alter.status === 0, alter.stderr);
  await player('a second Player replays the altered log', 'replay', { vlog: alteredLog, expect: 'refused', rolls: 2, ...shot('replay-altered') });

  // The combat needs build:vassal's command button: an extension without it fails here rather than skipping the step.
  check('the extension has the command button (ArbiterCommandButton)', hasCommandButton, vmdx);
  if (hasCommandButton) {
    const combat = await france44Combat();
    const combatLog = join(work, 'logs', 'france44-combat.vlog');
    await player('a France 1944 combat through the command button, log saved', 'combat', { ...seat(combat), vlog: combatLog, ...shot('france44-combat') });
    await player('a second Player replays the combat log', 'replay', { vlog: combatLog, expect: 'verified', rolls: 0, combats: 1, ...shot('replay-france44') });
  }

  await server.close();
  serverOpen = false;
  await player('the server is down', 'down', { ...seat(clean), vlog: join(work, 'logs', 'down.vlog'), purposes: 'Attack while the server is down', ...shot('server-down') });
} catch (error) {
  check('the proof ran to its end', false, error.stack);
} finally {
  if (serverOpen) await server.close();
  rmSync(work, { recursive: true, force: true });
}
console.log(`test:vassal: VASSAL ${stamp.tag} in ${vassalDir} (built in ${stamp.seconds} s); the proof ran in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
