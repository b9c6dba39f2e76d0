import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;

export function writeTemp(name: string, content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'arbiter-test-')), name);
  writeFileSync(file, content);
  return file;
}

/**
 * Runs a command from the project root (or `cwd`) and gives its exit code and output.
 * The verifier's own trust file is a fresh empty path unless `env` names one: what the
 * developer pinned on this machine never changes a test.
 */
export function run(command: string, args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  const isolatedTrust = join(mkdtempSync(join(tmpdir(), 'arbiter-trust-')), 'trusted-keys.json');
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { ...process.env, ARBITER_TRUST_FILE: isolatedTrust, ...env }, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
