import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
 * developer pinned on this machine never changes a test. The command is stopped after `timeoutMs`.
 */
export function run(command: string, args: string[], env: Record<string, string> = {}, cwd = ROOT, timeoutMs = 60_000): Promise<{ code: number; stdout: string; stderr: string }> {
  const isolatedTrust = join(mkdtempSync(join(tmpdir(), 'arbiter-trust-')), 'trusted-keys.json');
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { ...process.env, ARBITER_TRUST_FILE: isolatedTrust, ...env }, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Runs a built Lambda bundle in a fresh Node process, as Lambda would (test/infra/invokeBundle.mjs),
 * with each event in turn: its results, its load time, and what it logged.
 */
export async function invokeBundle(file: string, events: unknown[], env: Record<string, string>, timeoutMs = 60_000): Promise<{ results: unknown[]; loadMs: number; logs: string; maxRssKb: number }> {
  const resultsFile = writeTemp('results.json', '');
  const result = await run('node', ['test/infra/invokeBundle.mjs', file, writeTemp('events.json', JSON.stringify(events)), resultsFile], env, undefined, timeoutMs);
  if (result.code !== 0) throw new Error(`the bundle ${file} exited with ${result.code}: ${result.stderr}`);
  const { results, loadMs, maxRssKb } = JSON.parse(readFileSync(resultsFile, 'utf8')) as { results: unknown[]; loadMs: number; maxRssKb: number };
  return { results, loadMs, logs: result.stdout + result.stderr, maxRssKb };
}
