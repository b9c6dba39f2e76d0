#!/usr/bin/env node
/*
 * npm run build:vassal — builds, from clients/java, with the JDK only (javac --release 17, jar):
 *   dist/vassal/arbiter-vassal-kit.jar  the kit (org.arbiter.kit) and the VASSAL adapter
 *                                       (org.arbiter.kit.vassal), for designers who compile against it;
 *   dist/vassal/Arbiter.vmdx            a VASSAL module extension that ANY module can load (anyModule="true"):
 *                                       buildFile.xml, extensiondata and the same classes at their package paths.
 * The adapter is compiled against our stand-ins of VASSAL's classes (clients/java/vassal-standins), which
 * go into neither output: inside VASSAL the real classes are used.
 *
 * The extension's buildFile adds the Arbiter buttons to the module's toolbar (VASSAL's ExtensionElement
 * with target="" is the module itself), so no module has to be edited. A league that wants its server's
 * key pinned in the extension itself builds it with ARBITER_PINNED="ed25519:…" (and ARBITER_KEYS_FILE=
 * a saved GET /keys); without them, each player pins the key in VASSAL's Preferences (docs/vassal.md).
 * ARBITER_COMMAND_TEMPLATE (and ARBITER_COMMAND_LABEL) give the command button its template; without it,
 * the button asks the player for the command. ARBITER_COMMAND_CONFIRM=false turns off its "Ask before sending".
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { javaFiles } from './javaFiles.mjs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const kit = dirname(fileURLToPath(import.meta.url));
const root = join(kit, '..', '..');
const out = join(root, 'dist', 'vassal');
const work = join(kit, 'build', 'vassal-dist');
const pathSep = process.platform === 'win32' ? ';' : ':';

export const EXTENSION_VERSION = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
/** The oldest VASSAL the extension is meant for: a newer one here makes older VASSALs warn on loading it. */
export const VASSAL_VERSION = '3.7.0';

function fail(message) {
  console.error(`build:vassal: ${message}`);
  process.exit(1);
}

/** The JSON of GET /keys, from a file, on one line; a build stops on a file that is missing or not a JSON object. */
function keysFile(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    fail(`ARBITER_KEYS_FILE: cannot read ${path} (${e.code ?? e.message})`);
  }
  let keys;
  try {
    keys = JSON.parse(text);
  } catch (e) {
    fail(`ARBITER_KEYS_FILE: ${path} is not JSON (${e.message}); save what GET /keys answers, e.g. curl -s <server URL>/keys > keys.json`);
  }
  if (keys === null || typeof keys !== 'object' || Array.isArray(keys)) fail(`ARBITER_KEYS_FILE: ${path} is not the JSON object GET /keys answers`);
  return JSON.stringify(keys);
}


function run(cmd, args, what) {
  const result = spawnSync(cmd, args, { stdio: 'inherit' });
  if (result.error) fail(`${cmd} not found (install a JDK 17 or later, e.g. Debian default-jdk-headless)`);
  if (result.status !== 0) fail(`${what} failed`);
}

const xmlAttr = (value) => String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
const element = (name, attributes) =>
  `<${name} ${Object.entries(attributes).map(([k, v]) => `${k}="${xmlAttr(v)}"`).join(' ')}/>`;

/**
 * The extension's buildFile.xml. VASSAL's ModuleExtension reads the root's attributes (AbstractBuildable.build,
 * in the DOM's alphabetical order: anyModule first, so that module/moduleVersion are not checked), then builds
 * each ExtensionElement, whose only child is added to its target ("" = the module itself).
 */
export function extensionBuildFile({ pinned = '', keysJson = '', commandTemplate = '', commandLabel = '', commandConfirm = true } = {}) {
  const trust = { arbiterPinnedFingerprints: pinned, arbiterKeys: keysJson };
  const dice = element('org.arbiter.kit.vassal.ArbiterDiceButton', {
    name: 'Arbiter roll', text: 'Arbiter roll', tooltip: 'Roll through Arbiter (verified dice)',
    ...trust, arbiterDice: '2d6', arbiterCommandType: 'Roll',
  });
  const command = element('org.arbiter.kit.vassal.ArbiterCommandButton', {
    name: 'Arbiter command', text: 'Arbiter command', tooltip: 'Send a command of the game through Arbiter (verified)',
    ...trust, arbiterCommandTemplate: commandTemplate, arbiterLabel: commandLabel, arbiterConfirm: String(commandConfirm),
  });
  const wrap = (child) => `  <VASSAL.build.module.ExtensionElement target="">\n    ${child}\n  </VASSAL.build.module.ExtensionElement>`;
  return [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    `<VASSAL.build.module.ModuleExtension anyModule="true" description="Arbiter: verified dice and combat results (docs/vassal.md)" extensionId="arbiter" module="" moduleVersion="" nextPieceSlotId="0" vassalVersion="${VASSAL_VERSION}" version="${EXTENSION_VERSION}">`,
    wrap(dice),
    wrap(command),
    '</VASSAL.build.module.ModuleExtension>',
    '',
  ].join('\n');
}

/** VASSAL's extensiondata (ExtensionMetaData): VassalVersion 3.5 or later makes VASSAL read buildFile.xml. */
export function extensionData(savedAtMs) {
  return [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    '<data version="1">',
    `  <version>${EXTENSION_VERSION}</version>`,
    `  <VassalVersion>${VASSAL_VERSION}</VassalVersion>`,
    `  <dateSaved>${savedAtMs}</dateSaved>`,
    '  <description>Arbiter: verified dice and combat results</description>',
    '  <universal>true</universal>',
    '</data>',
    '',
  ].join('\n');
}

function main() {
  // The settings first: a wrong one stops the build before anything is compiled or written.
  const pinned = (process.env.ARBITER_PINNED ?? '').trim();
  for (const fp of pinned.split(/[,\s]+/).filter(Boolean)) {
    if (!/^ed25519:[A-Za-z0-9_-]{43}$/.test(fp)) fail(`ARBITER_PINNED: "${fp}" is not a key fingerprint (ed25519: and 43 characters, as npm start prints it)`);
  }
  const keysJson = process.env.ARBITER_KEYS_FILE ? keysFile(process.env.ARBITER_KEYS_FILE) : '';
  if (spawnSync('javac', ['-version'], { stdio: 'ignore' }).status !== 0) fail('javac not found (install a JDK 17 or later, e.g. Debian default-jdk-headless)');
  rmSync(work, { recursive: true, force: true });
  const standInClasses = join(work, 'standin-classes');
  const classes = join(work, 'classes');
  const ext = join(work, 'extension');
  mkdirSync(standInClasses, { recursive: true });
  mkdirSync(classes, { recursive: true });
  mkdirSync(ext, { recursive: true });
  const javac = ['--release', '17', '-Xlint:all', '-Werror', '-encoding', 'UTF-8'];
  run('javac', [...javac, '-d', standInClasses, ...javaFiles(join(kit, 'vassal-standins'))], 'compiling the VASSAL stand-ins');
  const sources = [...javaFiles(join(kit, 'src')), ...javaFiles(join(kit, 'vassal'))];
  // -implicit:none: javac writes only the classes of the sources given, never a stand-in's.
  run('javac', [...javac, '-implicit:none', '-cp', standInClasses, '-d', classes, ...sources], 'compiling the kit and the VASSAL adapter');
  if (existsSync(join(classes, 'VASSAL'))) fail('a stand-in class reached the output');

  const commandTemplate = (process.env.ARBITER_COMMAND_TEMPLATE ?? '').trim();
  if (commandTemplate) {
    // The kit's own parser, as the button reads the template when the module loads.
    const check = spawnSync('java', ['-cp', classes, 'org.arbiter.kit.CommandTemplate', commandTemplate], { encoding: 'utf8' });
    if (check.status !== 0) fail(`ARBITER_COMMAND_TEMPLATE: ${(check.stderr || check.error?.message || '').trim()}`);
  }
  const commandLabel = (process.env.ARBITER_COMMAND_LABEL ?? '').trim();
  const commandConfirm = process.env.ARBITER_COMMAND_CONFIRM !== 'false';
  writeFileSync(join(ext, 'buildFile.xml'), extensionBuildFile({ pinned, keysJson, commandTemplate, commandLabel, commandConfirm }));
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  writeFileSync(join(ext, 'extensiondata'), extensionData(Number.isFinite(epoch) && epoch > 0 ? epoch * 1000 : Date.now()));

  mkdirSync(out, { recursive: true });
  const jarFile = join(out, 'arbiter-vassal-kit.jar');
  const vmdxFile = join(out, 'Arbiter.vmdx');
  rmSync(jarFile, { force: true });
  rmSync(vmdxFile, { force: true });
  run('jar', ['--create', '--file', jarFile, '-C', classes, '.'], 'writing the kit jar');
  // A VASSAL archive is a plain zip: no manifest (M), the build file and metadata at its root, classes at their paths.
  run('jar', ['cfM', vmdxFile, '-C', ext, 'buildFile.xml', '-C', ext, 'extensiondata', '-C', classes, 'org'], 'writing the extension');
  console.log(`build:vassal: ${sources.length} Java files (--release 17) -> ${relative(process.cwd(), jarFile)} (${statSync(jarFile).size} bytes), ${relative(process.cwd(), vmdxFile)} (${statSync(vmdxFile).size} bytes)${pinned ? `, pinning ${pinned}` : ''}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
