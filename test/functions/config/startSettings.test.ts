import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TestClient } from '../../support/httpClient';
import { ROOT, useNpmStart } from '../../support/npmStart';

const { start } = useNpmStart();
const dataDir = () => join(mkdtempSync(join(tmpdir(), 'arbiter-settings-')), 'data');

/** `npm start` expected to refuse its settings: its exit code and stderr (killed after 30 s if it starts after all). */
async function refused(env: Record<string, string>) {
  const data = dataDir();
  const child = spawn(process.execPath, ['--import', 'tsx', 'functions/local/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '', HOST: '', ARBITER_DATA_DIR: data, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stderr, created: existsSync(data) };
}

describe('npm start and its settings', () => {
  it('refuses a setting it cannot take, in one line naming it, before it opens its data directory', async () => {
    const port = await refused({ ARBITER_PORT: 'http' });
    expect(port.code).toBe(1);
    expect(port.created).toBe(false);
    expect(port.stderr).toBe('Arbiter could not start: ARBITER_PORT is a whole number from 0 to 65535 (the port; 0 for any free one): got "http"\n');
    const both = await refused({ ARBITER_PORT: '0', ARBITER_ABANDONED_GAME_DAYS: 'ninety', ARBITER_PUSH_CONNECTIONS_PER_ADDRESS: 'many' });
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/^Arbiter could not start: ARBITER_ABANDONED_GAME_DAYS .*; ARBITER_PUSH_CONNECTIONS_PER_ADDRESS .*\n$/);
    expect(both.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a mail setting it cannot send with (ARBITER_SMTP_URL, ARBITER_SMTP_FROM), naming it, never repeating a password', async () => {
    const from = await refused({ ARBITER_SMTP_URL: 'smtp://127.0.0.1:2525', ARBITER_SMTP_FROM: 'Arbiter, the dice' });
    expect(from.code).toBe(1);
    expect(from.created).toBe(false);
    expect(from.stderr).toBe('Arbiter could not start: ARBITER_SMTP_FROM is one address, name@domain or Name <name@domain>: got "Arbiter, the dice"\n');
    const url = await refused({ ARBITER_SMTP_URL: 'smtp://arbiter:hunter2@127.0.0.1:2525/mail' });
    expect(url.code).toBe(1);
    expect(url.stderr).toMatch(/^Arbiter could not start: ARBITER_SMTP_URL is an smtp:\/\/ or smtps:\/\/ URL with a host and nothing after it/);
    expect(url.stderr).not.toContain('hunter2');
  });

  it('still starts on the old names PORT and HOST, warning on stderr, and says nothing of them under the new names', async () => {
    const old = await start(dataDir(), { PORT: '0', HOST: '127.0.0.1' });
    expect((await new TestClient(old.url).get('/health')).status).toBe(200);
    expect(old.output()).toContain('PORT is the old name of ARBITER_PORT: rename it');
    expect(old.output()).toContain('HOST is the old name of ARBITER_HOST: rename it');
    const current = await start(dataDir(), { PORT: '', HOST: '', ARBITER_PORT: '0', ARBITER_HOST: '127.0.0.1' });
    expect((await new TestClient(current.url).get('/health')).status).toBe(200);
    expect(current.output()).not.toContain('old name');
  });
});
