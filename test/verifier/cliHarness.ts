import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Io } from '../../verifier/io';
import { main } from '../../verifier/main';

/** A fresh directory for one test's files; the trust file lives here unless told otherwise. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'arbiter-verifier-'));
}

export function writeJson(dir: string, name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

export interface CliRun {
  code: number;
  /** stdout lines. */
  lines: string[];
  stdout: string;
  stderr: string;
  written: string;
  /** Status lines drawn in place, when run as on a terminal. */
  progress: string[];
}

/**
 * Runs the CLI in this process, as `npx arbiter <args>` in a clone (or as `command` says),
 * with its own home directory: no trust file unless the test writes one.
 */
export async function cli(args: string[], options: { env?: Record<string, string | undefined>; home?: string; tty?: boolean; command?: string } = {}): Promise<CliRun> {
  const home = options.home ?? tempDir();
  const lines: string[] = [];
  const errors: string[] = [];
  let written = '';
  const progress: string[] = [];
  const io: Io = {
    command: options.command ?? 'npx arbiter',
    ...(options.tty ? { progress: (text: string) => void progress.push(text) } : {}),
    out: (line) => void lines.push(line),
    err: (line) => void errors.push(line),
    write: (text) => void (written += text),
    env: { ARBITER_TRUST_FILE: join(home, 'trusted-keys.json'), ...options.env },
    home,
    now: () => new Date('2026-11-23T09:00:00.000Z'),
  };
  const code = await main(args, io);
  return { code, lines, stdout: lines.join('\n'), stderr: errors.join('\n'), written, progress };
}
