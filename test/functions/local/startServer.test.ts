import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TestClient } from '../../support/httpClient';
import { ROOT, stop, useNpmStart } from '../../support/npmStart';

const { start } = useNpmStart();

describe('npm start', () => {
  it('serves on loopback, keeps games and its signing key across a restart, and logs no secrets', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'arbiter-start-')), 'data');
    const first = await start(dataDir);
    const client = new TestClient(first.url);
    expect((await client.get('/health')).body).toEqual({ ok: true });
    const game = await client.createGame({ ruleset: 'dice', title: 'persisted' });
    await client.command(game.gameId, game.tokens.players.player1, { commandId: 'r', type: 'Roll', payload: { dice: '2d6', purpose: 'before restart' } });
    const keysBefore = (await client.get('/keys')).body;
    const keyFile = join(dataDir, 'signing-key.json');
    expect(statSync(keyFile).mode & 0o077).toBe(0);
    expect(await stop(first.child)).toBe(0);

    const second = await start(dataDir);
    const again = new TestClient(second.url);
    expect((await again.get('/keys')).body).toEqual(keysBefore);
    const view = await again.get(`/games/${game.gameId}`, game.tokens.players.player2);
    expect(view.body).toMatchObject({ title: 'persisted', version: 2, state: { rolls: 1 } });
    const roll = await again.command(game.gameId, game.tokens.players.player2, { commandId: 'r2', type: 'Roll', payload: { dice: 'd6', purpose: 'after restart' } });
    expect(roll.body.commit.seq).toBe(3);
    expect((await again.get(`/games/${game.gameId}/verify`, game.tokens.organizer)).body.ok).toBe(true);

    const logs = first.output() + second.output();
    const privateKey = JSON.parse(readFileSync(keyFile, 'utf8')).jwk.d;
    for (const secret of [privateKey, game.tokens.organizer, game.tokens.players.player1]) expect(logs).not.toContain(secret);
  });

  it('refuses a second server on the same data directory, clearly, and takes over after a killed one', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'arbiter-lock-')), 'data');
    const first = await start(dataDir);
    const second = spawn(process.execPath, ['--import', 'tsx', 'functions/local/main.ts'], { cwd: ROOT, env: { ...process.env, PORT: '0', ARBITER_DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    second.stderr!.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => second.once('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Arbiter could not start: the data directory .* is in use by another Arbiter \(pid \d+\)/);
    expect(stderr).not.toMatch(/\n\s+at /);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const third = await start(dataDir);
    expect((await new TestClient(third.url).get('/health')).status).toBe(200);
  });
});
