import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach } from 'vitest';

export const ROOT = new URL('../..', import.meta.url).pathname;

export interface StartedServer {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Runs the real `npm start` entry point on an ephemeral port; stops every server after each test. */
export function useNpmStart() {
  const running: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of running.splice(0)) await stop(child);
  });

  async function start(dataDir: string, env: Record<string, string> = {}): Promise<StartedServer> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'functions/local/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', ARBITER_DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.push(child);
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address after 30 s:\n${output}`)), 30_000);
      child.stdout!.on('data', () => {
        const match = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
    });
    return { child, url, output: () => output };
  }

  return { start, stop };
}

export async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}
