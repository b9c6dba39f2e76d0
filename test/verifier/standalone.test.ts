import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_VERIFIER_BYTES, buildVerifierBundle } from '../../verifier/bundle';
import { forged, newKey, rotatedExport } from '../domain/verify/signedExports';
import { serviceExport } from '../support/serviceExport';
import { run } from '../support/runCli';
import { tempDir } from './cliHarness';

const a = newKey('key-a');
const b = newKey('key-b');
let source: string;
let dir: string;
let verifier: (args: string[]) => ReturnType<typeof run>;
let serverFingerprint: string;


beforeAll(async () => {
  source = await buildVerifierBundle();
  const { bundle: real, fingerprint } = await serviceExport('standalone');
  serverFingerprint = fingerprint;
  // Alone in an empty directory outside the project: no node_modules to lean on.
  dir = tempDir();
  writeFileSync(join(dir, 'verifier.mjs'), source);
  writeFileSync(join(dir, 'game.json'), JSON.stringify(real));
  writeFileSync(join(dir, 'forged.json'), JSON.stringify(forged(real, newKey(real.keys.keys[0].kid))));
  writeFileSync(join(dir, 'rotated.json'), JSON.stringify(rotatedExport(a, b, 5)));
  const env = { ARBITER_TRUST_FILE: join(dir, 'no-trust.json'), NODE_PATH: '' };
  verifier = (args) => run('node', ['verifier.mjs', ...args], env, dir);
});

describe('the standalone verifier (dist/arbiter-verify.mjs, GET /verifier.mjs, saved as verifier.mjs)', () => {
  it(`is one file of at most ${MAX_VERIFIER_BYTES / 1024} KB that imports nothing but Node built-ins`, () => {
    expect(Buffer.byteLength(source)).toBeLessThanOrEqual(MAX_VERIFIER_BYTES);
    // Import statements (`import{a as b}from"node:fs"`, `import*as c from"…"`, `import"…"`), dynamic imports and requires; never the word "from" inside a string.
    const statement = /\bimport\s*(?:(?:\{[^}]*\}|\*\s*as\s+[\w$]+|[\w$]+)(?:\s*,\s*(?:\{[^}]*\}|\*\s*as\s+[\w$]+))?\s*from\s*)?["']([^"']+)["']/g;
    const call = /\bimport\s*\(\s*["']([^"']+)["']|\brequire\s*\(\s*["']([^"']+)["']/g;
    const imports = [...[...source.matchAll(statement)].map((m) => m[1]), ...[...source.matchAll(call)].map((m) => m[1] ?? m[2])];
    expect(imports.length).toBeGreaterThan(0);
    for (const name of imports) expect(name).toMatch(/^node:/);
  });

  it('run with plain node, alone in an empty directory, verifies a real export with --trust of its key', async () => {
    const result = await verifier(['game.json', '--trust', serverFingerprint]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('18 dice re-derived');
    expect(result.stdout.trim().split('\n').at(-1)).toBe('OK');
    expect((await verifier(['rotated.json', '--trust', a.fingerprint])).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['forged.json', 'game.json', 'rotated.json', 'verifier.mjs']);
  });

  it('refuses a copy re-signed with a fresh key: exit 3 without trust, exit 1 with the real fingerprint', async () => {
    const untrusted = await verifier(['forged.json']);
    expect(untrusted.code).toBe(3);
    expect(untrusted.stdout).toContain('\n    node verifier.mjs verify forged.json --trust ed25519:');
    expect(untrusted.stdout).toContain('\n    node verifier.mjs trust add ed25519:');
    const trusted = await verifier(['forged.json', '--trust', serverFingerprint]);
    expect(trusted.code).toBe(1);
    expect(trusted.stdout).toContain('FAILED at seq 1 (trust)');
  });

  it('answers --help and --json like arbiter verify', async () => {
    const help = await verifier(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('  node verifier.mjs verify FILE|LINK|URL [--trust FINGERPRINT]');
    const json = await verifier(['game.json', '--json', '--trust', serverFingerprint]);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, exitCode: 0, commits: 9, dice: 18, sealed: true });
    const missing = await verifier(['nothing.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('arbiter verify: there is no file "nothing.json"\n');
  });
});
