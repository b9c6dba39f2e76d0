import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendItem } from '../../functions/store/commitItems';
import type { EventStore } from '../../functions/store/eventStore';
import { ITEM_BUDGET, itemBytes } from '../../functions/store/itemSize';
import { startLocalService, type LocalService } from '../../functions/local/localService';
import { TestClient } from '../support/httpClient';
import { largeFire, longName } from '../support/largeEuropaFire';
import { HOSTILE_AA_TABLE } from './europaDriver';
import { figure } from './figures';

let local: LocalService;
let client: TestClient;
/** While set, the store's writes of commits wait for it: the commands sent meanwhile queue up as one group would. */
let held: Promise<void> | undefined;
/** Every write of commits: how many it held, and its item's size as DynamoDB counts it. */
const writes: { commits: number; bytes: number }[] = [];

/** The local server (dynalite, which refuses items over 400 KB as DynamoDB does), its commit writes held on demand. */
beforeAll(async () => {
  local = await startLocalService({
    observer: { unexpected: (error) => console.error(`unexpected in test server: ${error.stack}`) },
    wrapStore: (store) =>
      new Proxy(store, {
        get(target, name) {
          const member = Reflect.get(target, name);
          if (name !== 'appendGroup' && name !== 'append') return typeof member === 'function' ? member.bind(target) : member;
          return async (...args: Parameters<EventStore['appendGroup']>) => {
            await held;
            const [first, head] = args;
            const commits = Array.isArray(first) ? first : [first];
            writes.push({ commits: commits.length, bytes: itemBytes(appendItem(commits, head)) });
            return member.apply(target, args);
          };
        },
      }),
  });
  client = new TestClient(local.url);
});
afterAll(async () => {
  await local?.close();
});

async function europaGame(title: string) {
  // An AA table whose columns clamp: every large fire resolves.
  const game = await client.createGame({ ruleset: 'europa', title, options: { aaTable: HOSTILE_AA_TABLE } });
  const entropy = await client.command(game.gameId, game.tokens.organizer, { commandId: 'entropy', type: 'ContributeEntropy', payload: { entropy: 'organizer entropy' } });
  expect(entropy.status, entropy.text).toBe(201);
  return game;
}

const fortification = (gameId: string, token: string, commandId: string, payload: Record<string, unknown>) =>
  client.command(gameId, token, { commandId, type: 'FortificationEvent', payload });

describe('every write stays under the 400 KB item limit', () => {
  it('fifteen large Europa commands sent at once, and the opponent’s command beside them, are all stored', async () => {
    const game = await europaGame('fifteen large fires');
    const { axis, allied } = game.tokens.players;
    writes.length = 0;
    let release!: () => void;
    held = new Promise<void>((resolve) => (release = resolve));
    // The opponent's command is written first and held there; the fifteen fires arrive meanwhile and wait, as one group.
    const opponent = fortification(game.gameId, axis, 'opponent', { action: 'place', site: 'Aachen', kind: 'westwall', owner: 'axis', level: 2 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const fires = Array.from({ length: 15 }, (_, n) => client.command(game.gameId, allied, { commandId: `large-${n}`, type: 'AAFire', payload: largeFire(n) }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The opponent's next command arrives among them, in the same group.
    const concurrent = fortification(game.gameId, axis, 'opponent-concurrent', { action: 'place', site: 'Trier', kind: 'westwall', owner: 'axis', level: 1 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    release();
    held = undefined;
    const replies = await Promise.all([opponent, ...fires, concurrent]);
    const statuses = replies.map((reply) => reply.status);
    figure('Item size', 'fifteen large Europa fires and the opponent’s command queued together: 201 / 500 (of 17 with the command before them)', `${statuses.filter((s) => s === 201).length} / ${statuses.filter((s) => s === 500).length}`);
    expect(statuses, replies.find((r) => r.status !== 201)?.text).toEqual(Array(17).fill(201));
    const commitBytes = Math.max(...replies.map((r) => Buffer.byteLength(JSON.stringify(r.body.commit))));
    figure('Item size', 'largest Europa fire commit (bytes)', commitBytes);
    // The fifteen waited as one group of commits too large for one item: split over several writes, each within the budget.
    expect(writes.reduce((sum, w) => sum + w.commits, 0)).toBe(17);
    expect(writes.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...writes.map((w) => w.bytes))).toBeLessThanOrEqual(ITEM_BUDGET);
    figure('Item size', 'their writes: commits per item / largest item (bytes, budget 389,120)', `${writes.map((w) => w.commits).join(' + ')} / ${Math.max(...writes.map((w) => w.bytes))}`);
    const state = await client.get(`/games/${game.gameId}`, game.tokens.organizer);
    expect(state.body.version).toBe(2 + 17);
    const verified = await client.get(`/games/${game.gameId}/verify`, axis);
    expect(verified.body).toMatchObject({ ok: true, checkedCommits: 19 });
  });

  it('a Europa game with 2,000 Westwall hexes, all improved at once, plays on to turn 4 and verifies', async () => {
    const HEXES = 2_000;
    const game = await europaGame('the whole Westwall');
    const { axis, allied } = game.tokens.players;
    writes.length = 0;
    const site = (i: number) => longName('Westwall', i);
    // Built through the service itself (the same code as the route, without 4,000 HTTP round trips).
    const submit = (commandId: string, payload: Record<string, unknown>) => local.service.submit(game.gameId, axis, { commandId, type: 'FortificationEvent', payload });
    for (let i = 0; i < HEXES; i++) await submit(`place-${i}`, { action: 'place', site: site(i), kind: 'westwall', owner: 'axis', level: 3 });
    await submit('turn-1', { action: 'turn', turn: 1 });
    for (let i = 0; i < HEXES; i++) await submit(`improve-${i}`, { action: 'begin-improvement', site: site(i), quickConstruction: true });
    expect((await fortification(game.gameId, axis, 'turn-2', { action: 'turn', turn: 2 })).status).toBe(201);
    // Turn 3 completes all 2,000 improvements at once.
    const turn3 = await fortification(game.gameId, axis, 'turn-3', { action: 'turn', turn: 3 });
    expect(turn3.status, turn3.text).toBe(201);
    figure('Item size', 'Europa, 2,000 Westwall hexes improved at once: the turn 3 commit (bytes)', Buffer.byteLength(JSON.stringify(turn3.body.commit)));
    const turn4 = await fortification(game.gameId, allied, 'turn-4', { action: 'turn', turn: 4 });
    expect(turn4.status, turn4.text).toBe(201);
    const view = (await client.get(`/games/${game.gameId}`, game.tokens.organizer)).body;
    expect(view.state.turn).toBe(4);
    expect(view.state.sites.filter((s: { condition: string }) => s.condition === 'improved')).toHaveLength(HEXES);
    const verified = await client.get(`/games/${game.gameId}/verify`, allied);
    expect(verified.body).toMatchObject({ ok: true, checkedCommits: 2 * HEXES + 6 });
    expect(writes).toHaveLength(2 * HEXES + 4);
    expect(Math.max(...writes.map((w) => w.bytes))).toBeLessThanOrEqual(ITEM_BUDGET);
    figure('Item size', 'Europa, 2,000 Westwall hexes: commits written / largest item (bytes)', `${writes.length} / ${Math.max(...writes.map((w) => w.bytes))}`);
  });
});
