import { describe, expect, it } from 'vitest';
import { commandName } from '../../verifier/commandName';
import { run } from '../support/runCli';
import { newKey, rotatedExport } from '../domain/verify/signedExports';
import { cli, tempDir, writeJson } from './cliHarness';

describe('the command the CLI tells people to type', () => {
  it('is npx arbiter inside the clone, node and the script as reachable from here otherwise', () => {
    expect(commandName('/home/ann/arbiter/bin/arbiter.mjs', '/home/ann/arbiter', '/home/ann/arbiter/')).toBe('npx arbiter');
    expect(commandName('/home/ann/arbiter/bin/arbiter.mjs', '/home/ann/arbiter/docs', '/home/ann/arbiter/')).toBe('npx arbiter');
    expect(commandName('/home/ann/arbiter/bin/arbiter.mjs', '/home/ann', '/home/ann/arbiter/')).toBe('node arbiter/bin/arbiter.mjs');
    expect(commandName('/home/ann/arbiter/bin/arbiter.mjs', '/tmp', '/home/ann/arbiter/')).toBe('node /home/ann/arbiter/bin/arbiter.mjs');
    expect(commandName('/home/ann/Downloads/verifier.mjs', '/home/ann/Downloads')).toBe('node verifier.mjs');
    expect(commandName('/home/ann/My Games/verifier.mjs', '/tmp')).toBe("node '/home/ann/My Games/verifier.mjs'");
  });

  it('bin/arbiter.mjs says npx arbiter in the clone, and its path from elsewhere', async () => {
    const inClone = await run('node', ['bin/arbiter.mjs', '--help']);
    expect(inClone.code).toBe(0);
    expect(inClone.stdout).toContain('\n  npx arbiter verify FILE|LINK|URL ');
    expect(inClone.stdout).not.toMatch(/^\s*arbiter /m);
    const script = new URL('../../bin/arbiter.mjs', import.meta.url).pathname;
    const outside = await run('node', [script, 'verify'], {}, tempDir());
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain(`(node ${script} --help shows how)`);
  });
});

describe("the verifier's own suggestions inside a failure", () => {
  it('name the command that runs it: a retired key left unpinned is pinned with node verifier.mjs trust add from the download', async () => {
    const a = newKey('key-a');
    const b = newKey('key-b');
    const file = writeJson(tempDir(), 'rotated.json', rotatedExport(a, b, 6));
    const run = await cli(['verify', file, '--trust', b.fingerprint], { command: 'node verifier.mjs' });
    expect(run.code).toBe(1);
    expect(run.lines.at(-1)).toContain(`pin every key it lists: node verifier.mjs trust add <server URL>, or add --trust ${a.fingerprint}`);
    expect(run.stdout).not.toMatch(/(^|[^.\w/])arbiter trust add/m);
  });
});
