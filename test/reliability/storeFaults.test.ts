import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBundle } from '../../domain/verify/verifyBundle';
import { startLocalService, type LocalService } from '../../functions/local/localService';
import { FaultyStore, type Fault } from '../support/faultyStore';
import { TestClient, type Reply } from '../support/httpClient';
import { figure } from './figures';

let local: LocalService;
let faulty: FaultyStore;
let client: TestClient;
const FAULTS: Fault[] = ['throttle', 'timeout', 'ambiguous'];

beforeAll(async () => {
  local = await startLocalService({
    observer: { unexpected: (e) => console.error(e) },
    // A fixed schedule: about one call in five fails, by turns throttled, timed out or ambiguous.
    wrapStore: (store) => (faulty = new FaultyStore(store, (operation, call) => (call % 5 === 0 ? FAULTS[(call / 5) % 3] : operation === 'read' && call % 7 === 0 ? 'throttle' : undefined))),
  });
  client = new TestClient(local.url);
});
afterAll(async () => {
  await local?.close();
});

/** Sends until the service answers other than 503 (bounded), checking every 503 carries Retry-After. */
async function untilAnswered(send: () => Promise<Reply>, counts: { unavailable: number }): Promise<Reply> {
  for (let attempt = 0; attempt < 30; attempt++) {
    const reply = await send();
    if (reply.status !== 503) return reply;
    counts.unavailable += 1;
    expect(reply.headers.get('retry-after')).toBe('1');
    expect(reply.body.error.code).toBe('unavailable');
    await new Promise((r) => setTimeout(r, 5)); // the test's own backoff, shorter than Retry-After
  }
  throw new Error('still unavailable after 30 tries');
}

describe('store faults', () => {
  it('throttling, timeouts and lost answers: 503 with Retry-After, and retries converge to one commit each', async () => {
    const counts = { unavailable: 0 };
    const created = await untilAnswered(() => client.request('POST', '/games', { body: { ruleset: 'dice', title: 'faults' } }), counts);
    expect(created.status).toBe(201);
    const game = created.body;
    const CLIENTS = 8;
    const COMMANDS = 40;
    const results = new Map<string, Reply>();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let i = 0; i < COMMANDS; i++) {
          const body = { commandId: `f${c}-${i}`, type: 'Roll', payload: { dice: '3d6', purpose: `c${c} i${i}` } };
          const reply = await untilAnswered(() => client.request('POST', `/games/${game.gameId}/commands`, { token: game.tokens.players.player1, body }), counts);
          expect([200, 201]).toContain(reply.status);
          results.set(body.commandId, reply);
        }
      }),
    );
    const exported = await untilAnswered(() => client.get(`/games/${game.gameId}/export`, game.tokens.organizer), counts);
    const commits = exported.body.commits.slice(1);
    expect(commits).toHaveLength(CLIENTS * COMMANDS);
    expect(new Set(commits.map((c: { commandId: string }) => c.commandId)).size).toBe(CLIENTS * COMMANDS);
    for (const commit of commits) expect(results.get(commit.commandId)!.body.commit).toEqual(commit);
    expect(results.size).toBe(CLIENTS * COMMANDS);

    await untilAnswered(() => client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} }), counts);
    const sealed = await untilAnswered(() => client.get(`/games/${game.gameId}/export`, game.tokens.organizer), counts);
    const report = verifyBundle(sealed.body);
    expect(report.ok).toBe(true);
    expect(faulty.injected.ambiguous).toBeGreaterThan(10);
    const retriedAfterLostAnswer = [...results.values()].filter((r) => r.status === 200).length;
    expect(retriedAfterLostAnswer).toBeGreaterThan(0);

    figure('Store faults', 'commands (8 clients × 40), each acknowledged once', CLIENTS * COMMANDS);
    figure('Store faults', 'faults injected: throttling / timeouts / lost answers', `${faulty.injected.throttle} / ${faulty.injected.timeout} / ${faulty.injected.ambiguous}`);
    figure('Store faults', '503 answers (all with Retry-After)', counts.unavailable);
    figure('Store faults', 'retries answered with the commit a lost answer had stored', retriedAfterLostAnswer);
    figure('Store faults', 'commits stored / verified dice', `${commits.length} / ${report.checkedDice}`);
  });
});
