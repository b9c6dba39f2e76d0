import { spawn } from 'node:child_process';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { honestExport, newKey } from '../domain/verify/signedExports';
import { run } from '../support/runCli';
import { cli, tempDir, writeJson } from './cliHarness';

const a = newKey('key-a');
const dir = tempDir();
const honestText = JSON.stringify(honestExport(a));
const honestFile = writeJson(dir, 'honest.json', honestText);

/** Input that cannot be used, and what the message must say about it. */
const UNUSABLE: [name: string, content: string | undefined, message: string][] = [
  ['missing.json', undefined, 'there is no file'],
  ['empty-object.json', '{}', 'is not an Arbiter export: gameId'],
  ['null.json', 'null', 'is not an Arbiter export: it holds null, not an object'],
  ['list.json', '[1, 2]', 'is not an Arbiter export: it holds a list, not an object'],
  ['text.txt', 'this is not JSON', 'is not valid JSON: unexpected "t" at line 1, column 1'],
  ['empty.json', '', 'is not valid JSON: the text ends where a value should be'],
  ['truncated.json', honestText.slice(0, Math.floor(honestText.length * 0.6)), '(is it truncated?)'],
  // Readers disagree on which of two values counts: refused, not guessed.
  ['duplicate.json', honestText.replace('"dice":[{"sides":6,"value":', '"dice":[{"sides":6,"value":6,"value":'), 'duplicate key "value" in commits[3].dice[0]'],
  ['surrogate.json', honestText.replaceAll('"entropy":"alpha"', '"entropy":"alpha\\ud800"'), 'a string with a lone surrogate'],
  ['deep.json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'nested deeper than 256 levels'],
  ['latin1.json', '"\xe9"', 'is not UTF-8 text'],
];

function materialize(name: string, content: string | undefined): string {
  const file = join(dir, name);
  if (content !== undefined) writeFileSync(file, name === 'latin1.json' ? Buffer.from(content, 'latin1') : content);
  return file;
}

describe('arbiter verify: exit 2, with a clear message, for input it cannot use', () => {
  it.each(UNUSABLE)('%s', async (name, content, message) => {
    const result = await cli(['verify', materialize(name, content), '--trust', a.fingerprint]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it('refuses a file over 50 MB before reading it', async () => {
    const huge = join(dir, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, 51 * 1024 * 1024);
    const started = Date.now();
    const result = await cli(['verify', huge]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`arbiter verify: "${huge}" is 51 MB; files over 50 MB are refused`);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses unknown options, missing or extra arguments and unknown commands', async () => {
    const cases: [string[], string][] = [
      [['verify', honestFile, '--trusted', a.fingerprint], 'unknown option "--trusted"'],
      [['verify', honestFile, '--json=yes'], '--json takes no value'],
      [['verify', honestFile, '--trust'], '--trust needs a value'],
      [['verify'], "which export? give a file, a game's link or a URL (npx arbiter --help shows how)"],
      [['verify', honestFile, honestFile], 'give one export: a file, a link or a URL'],
      [['vérify', honestFile], 'unknown command "vérify"'],
      [['trust', 'remove', a.fingerprint], 'trust takes "add FINGERPRINT|URL|FILE" or "list"'],
      [['export', honestFile], "export takes one game's link or URL"],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
  });
});

describe('arbiter --help', () => {
  it('prints the usage and exits 0 for --help, -h and verify --help; no arguments prints it and exits 2', async () => {
    for (const args of [['--help'], ['-h'], ['verify', '--help'], ['trust', '--help'], ['export', '-h']]) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.lines[0]).toBe('Arbiter verifier: checks a game exported from an Arbiter server, with no network.');
      expect(result.stdout).toContain('  npx arbiter verify FILE|LINK|URL [--trust FINGERPRINT]... [--trust-file FILE] [--trust-beacon CHAINHASH[:PUBLICKEY]]... [--allow-unsealed] [--json] [--token TOKEN]');
      expect(result.stdout).toContain('  3  consistent, but no trusted fingerprint is configured, or the game is not sealed yet');
    }
    const bare = await cli([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('usage:');
  });
});

describe('bin/arbiter.mjs, as a process', () => {
  const env = { ARBITER_TRUST_FILE: join(dir, 'no-trust-file.json') };

  it('exits 0, 1, 2 and 3 as trust.md §5 says', async () => {
    const tampered = writeJson(dir, 'tampered.json', honestText.replace('"purpose":"fire 0"', '"purpose":"fire 9"'));
    const [ok, failed, unusable, inconclusive] = await Promise.all([
      run('node', ['bin/arbiter.mjs', 'verify', honestFile, '--trust', a.fingerprint], env),
      run('node', ['bin/arbiter.mjs', 'verify', tampered, '--trust', a.fingerprint], env),
      run('node', ['bin/arbiter.mjs', 'verify', join(dir, 'nothing.json')], env),
      run('node', ['bin/arbiter.mjs', 'verify', honestFile], env),
    ]);
    expect([ok.code, failed.code, unusable.code, inconclusive.code]).toEqual([0, 1, 2, 3]);
    expect(ok.stdout.trim().split('\n').at(-1)).toBe('OK');
  });

  it('never prints a stack trace for bad input', async () => {
    const results = await Promise.all(
      UNUSABLE.map(async ([name, content]) => ({ name, result: await run('node', ['bin/arbiter.mjs', 'verify', materialize(name, content)], env) })),
    );
    for (const { name, result } of results) {
      expect(result.code, name).toBe(2);
      expect(result.stderr.trim().split('\n'), name).toHaveLength(1);
      expect(result.stderr, name).toMatch(/^arbiter verify: /);
      expect(result.stderr, name).not.toMatch(/\n\s+at |Error:/);
    }
  });

  it('stops quietly when its output is closed early (| head)', async () => {
    const child = spawn('node', ['bin/arbiter.mjs', '--help'], { cwd: new URL('../..', import.meta.url).pathname, env: { ...process.env, ...env } });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
