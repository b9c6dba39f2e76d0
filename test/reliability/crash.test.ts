import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyBundle } from '../../domain/verify/verifyBundle';
import { TestClient } from '../support/httpClient';
import { figure } from './figures';

const ROOT = new URL('../..', import.meta.url).pathname;
const children: ChildProcess[] = [];

async function start(dataDir: string): Promise<{ child: ChildProcess; client: TestClient }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'functions/local/main.ts'], { cwd: ROOT, env: { ...process.env, PORT: '0', ARBITER_DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address after 30 s: ${output}`)), 30_000);
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  return { child, client: new TestClient(url) };
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('a crash', () => {
  it('SIGKILL mid-load, restart on the same data: every acknowledged commit is there, verified, and the game goes on', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'arbiter-crash-')), 'data');
    const first = await start(dataDir);
    const game = await first.client.createGame({ ruleset: 'dice', title: 'crash' });
    const token = game.tokens.players.player1;
    const acked = new Map<string, { seq: number; hash: string }>();
    const inFlight = new Set<string>();
    let stop = false;
    const KILL_AFTER = 200;
    const clients = Array.from({ length: 6 }, async (_, c) => {
      for (let i = 0; i < 1000 && !stop; i++) {
        const commandId = `k${c}-${i}`;
        inFlight.add(commandId);
        try {
          const reply = await first.client.command(game.gameId, token, { commandId, type: 'Roll', payload: { dice: '2d6', purpose: commandId } });
          if (reply.status === 201) acked.set(commandId, { seq: reply.body.commit.seq, hash: reply.body.commit.hash });
          inFlight.delete(commandId);
        } catch {
          return; // the connection died with the server: this command was never acknowledged
        }
        if (acked.size >= KILL_AFTER && !stop) {
          stop = true;
          first.child.kill('SIGKILL');
        }
      }
    });
    await Promise.all(clients);
    await new Promise((resolve) => (first.child.exitCode !== null || first.child.signalCode ? resolve(null) : first.child.once('exit', resolve)));
    expect(first.child.signalCode).toBe('SIGKILL');

    const second = await start(dataDir);
    const bundle = (await second.client.get(`/games/${game.gameId}/export`, game.tokens.organizer)).body;
    const bySeq = new Map(bundle.commits.map((c: { seq: number; commandId: string; hash: string }) => [c.commandId, { seq: c.seq, hash: c.hash }]));
    for (const [commandId, ack] of acked) expect(bySeq.get(commandId), commandId).toEqual(ack);
    expect(bundle.commits.map((c: { seq: number }) => c.seq)).toEqual(Array.from({ length: bundle.commits.length }, (_, i) => i + 1));
    const storedUnacked = [...inFlight].filter((id) => bySeq.has(id)).length;

    // An unacknowledged command retried after the restart: stored once, never twice.
    for (const commandId of inFlight) {
      const retry = await second.client.command(game.gameId, token, { commandId, type: 'Roll', payload: { dice: '2d6', purpose: commandId } });
      expect(retry.status).toBe(bySeq.has(commandId) ? 200 : 201);
    }
    const before = (await second.client.get(`/games/${game.gameId}`, token)).body.version;
    const next = await second.client.command(game.gameId, token, { commandId: 'after-restart', type: 'Roll', payload: { dice: 'd6', purpose: 'after' } });
    expect(next.body.commit.seq).toBe(before + 1);
    await second.client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    const report = verifyBundle((await second.client.get(`/games/${game.gameId}/export`, game.tokens.organizer)).body);
    expect(report.ok).toBe(true);

    figure('Crash', 'commands acknowledged before SIGKILL', acked.size);
    figure('Crash', 'acknowledged commits found after restart', [...acked.keys()].filter((id) => bySeq.has(id)).length);
    figure('Crash', 'in flight at the kill (stored / not stored)', `${storedUnacked} / ${inFlight.size - storedUnacked}`);
    figure('Crash', 'export after restart verifies (commits, dice)', `${report.checkedCommits}, ${report.checkedDice}`);
  });
});
