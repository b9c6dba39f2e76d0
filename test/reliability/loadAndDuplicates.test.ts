import { describe, expect, it } from 'vitest';
import { verifyBundle } from '../../domain/verify/verifyBundle';
import { useTestServer } from '../support/httpClient';
import { figure } from './figures';

const server = useTestServer();

const CLIENTS = 32;
const COMMANDS = 50;

describe('concurrency', () => {
  it(`${CLIENTS} clients × ${COMMANDS} commands on one game: every acknowledged commit exactly once, contiguous, verified`, async () => {
    const game = await server.client.createGame({ ruleset: 'dice', title: 'load' });
    const tokens = [game.tokens.players.player1, game.tokens.players.player2];
    const acked = new Map<string, { seq: number; hash: string; dice: unknown }>();
    const statuses = new Map<number, number>();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let i = 0; i < COMMANDS; i++) {
          const commandId = `client${c}-cmd${i}`;
          const reply = await server.client.request('POST', `/games/${game.gameId}/commands`, {
            token: tokens[c % 2],
            body: { commandId, type: 'Roll', payload: { dice: '2d6', purpose: `client ${c}, command ${i}` } },
          });
          statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
          if (reply.status === 201) acked.set(commandId, { seq: reply.body.commit.seq, hash: reply.body.commit.hash, dice: reply.body.commit.dice });
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    server.client.transcript.length = 0;
    expect([...statuses.keys()]).toEqual([201]);
    expect(acked.size).toBe(CLIENTS * COMMANDS);

    const bundle = (await server.client.get(`/games/${game.gameId}/export`, game.tokens.organizer)).body;
    const stored = bundle.commits.slice(1);
    expect(stored.map((c: { seq: number }) => c.seq)).toEqual(Array.from({ length: CLIENTS * COMMANDS }, (_, i) => i + 2));
    const ids = stored.map((c: { commandId: string }) => c.commandId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const commit of stored) {
      const ack = acked.get(commit.commandId)!;
      expect({ seq: commit.seq, hash: commit.hash, dice: commit.dice }).toEqual(ack);
    }
    await server.client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    const report = verifyBundle((await server.client.get(`/games/${game.gameId}/export`, game.tokens.organizer)).body);
    expect(report.ok).toBe(true);
    figure('Concurrency', 'clients × commands on one game', `${CLIENTS} × ${COMMANDS}`);
    figure('Concurrency', 'commands acknowledged / stored exactly once', `${acked.size} / ${stored.length}`);
    figure('Concurrency', 'answers other than 201', 0);
    figure('Concurrency', 'commands per second (local server)', Math.round((CLIENTS * COMMANDS) / seconds));
    figure('Concurrency', 'dice verified in the export', report.checkedDice);
  });
});

describe('duplicates', () => {
  it('the same command 5 times at once, and again after success: one commit, the same commit and dice in every answer', async () => {
    const game = await server.client.createGame({ ruleset: 'dice' });
    const token = game.tokens.players.player1;
    const ROUNDS = 20;
    for (let round = 0; round < ROUNDS; round++) {
      const command = { commandId: `dup-${round}`, type: 'Roll', payload: { dice: '4d6', purpose: `round ${round}` } };
      const burst = await Promise.all(Array.from({ length: 5 }, () => server.client.command(game.gameId, token, command)));
      const later = await server.client.command(game.gameId, token, command);
      const replies = [...burst, later];
      expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
      expect(replies.filter((r) => r.status === 200)).toHaveLength(5);
      for (const r of replies) expect(r.body.commit).toEqual(burst.find((b) => b.status === 201)!.body.commit);
    }
    const events = (await server.client.get(`/games/${game.gameId}/events?limit=1000`, token)).body;
    expect(events.version).toBe(ROUNDS + 1);
    figure('Duplicates', 'commands each sent 5 times at once and once more after success', ROUNDS);
    figure('Duplicates', 'commits stored (one each)', events.commits.length - 1);
  });
});
