/*
 * A throwaway Arbiter extension (.vmdx) for the proof, until `npm run build:vassal` (dist/vassal/Arbiter.vmdx)
 * is on main: the kit (clients/java/src) and the adapter (clients/java/vassal) compiled with --release 17
 * against the REAL VASSAL built by buildVassal.mjs (not the stand-ins), in the same layout as build:vassal's
 * extension: buildFile.xml (a ModuleExtension for any module, its button added to the module itself),
 * extensiondata, and the classes at their package paths. The server's pin and keys go into the button's
 * attributes, as build:vassal does with ARBITER_PINNED and ARBITER_KEYS_FILE.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const kit = join(dirname(fileURLToPath(import.meta.url)), '..');

function javaFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...javaFiles(path));
    else if (name.endsWith('.java')) out.push(path);
  }
  return out;
}

const xmlAttr = (value) => String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '&#10;');

function check(result, what) {
  if (result.error || result.status !== 0) throw new Error(`${what} failed: ${result.error?.message ?? ''}${result.stdout ?? ''}${result.stderr ?? ''}`);
}

/** Writes the extension to `file`; `vassalJar` is the real Vengine.jar the classes are compiled against. */
export function packExtension({ file, work, vassalJar, serverUrl, pinned, keysJson }) {
  rmSync(work, { recursive: true, force: true });
  const classes = join(work, 'classes');
  mkdirSync(classes, { recursive: true });
  const sources = [...javaFiles(join(kit, 'src')), ...javaFiles(join(kit, 'vassal'))];
  // -Xlint:-path: Vengine.jar has no Class-Path of its own to check; -implicit:none: no VASSAL class is written.
  check(spawnSync('javac', ['--release', '17', '-Xlint:all', '-Xlint:-path', '-Werror', '-encoding', 'UTF-8', '-implicit:none', '-cp', vassalJar, '-d', classes, ...sources], { encoding: 'utf8' }),
    'compiling the kit and the adapter against the real VASSAL');
  const button = `<org.arbiter.kit.vassal.ArbiterDiceButton arbiterCommandType="Roll" arbiterDice="2d6" arbiterKeys="${xmlAttr(keysJson)}" arbiterPinnedFingerprints="${xmlAttr(pinned)}" arbiterUrl="${xmlAttr(serverUrl)}" hotkey="" icon="" name="Arbiter roll" text="Arbiter roll" tooltip="Roll through Arbiter (verified dice)"/>`;
  writeFileSync(join(work, 'buildFile.xml'), [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    '<VASSAL.build.module.ModuleExtension anyModule="true" description="Arbiter (proof build)" extensionId="arbiter" module="" moduleVersion="" nextPieceSlotId="0" vassalVersion="3.7.0" version="0.1.0">',
    `  <VASSAL.build.module.ExtensionElement target="">\n    ${button}\n  </VASSAL.build.module.ExtensionElement>`,
    '</VASSAL.build.module.ModuleExtension>',
    '',
  ].join('\n'));
  writeFileSync(join(work, 'extensiondata'), [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    '<data version="1">',
    '  <version>0.1.0</version>',
    '  <VassalVersion>3.7.0</VassalVersion>',
    '  <dateSaved>1795780800000</dateSaved>',
    '  <description>Arbiter (proof build)</description>',
    '  <universal>true</universal>',
    '</data>',
    '',
  ].join('\n'));
  mkdirSync(dirname(file), { recursive: true });
  rmSync(file, { force: true });
  check(spawnSync('jar', ['cfM', file, '-C', work, 'buildFile.xml', '-C', work, 'extensiondata', '-C', classes, 'org'], { encoding: 'utf8' }), 'writing the extension');
  return file;
}

/** The test module (clients/java/proof/module): its buildFile.xml and moduledata in a .vmod (a zip). */
export function packModule(file) {
  const module = join(kit, 'proof', 'module');
  mkdirSync(dirname(file), { recursive: true });
  rmSync(file, { force: true });
  check(spawnSync('jar', ['cfM', file, '-C', module, 'buildFile.xml', '-C', module, 'moduledata'], { encoding: 'utf8' }), 'writing the module');
  return file;
}
