import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Commit } from '../../domain/fairness/hashChain';
import { clockView } from '../../domain/game/clock';
import { evolveGame, type GameState } from '../../domain/game/gameState';
import { startLocalService, type LocalService } from '../../functions/local/localService';
import { TestClock } from '../support/beaconFakes';
import { TestClient } from '../support/httpClient';
import { cli, tempDir, writeJson } from '../verifier/cliHarness';

/**
 * A game played over HTTP at times the test sets: the clock the server answers is the one
 * anyone folds again from the export, and a side past its time per move is flagged on the
 * game and in its tournament's listing.
 */
const clock = new TestClock(Date.parse('2026-11-27T10:00:00.000Z'));
let local: LocalService;
let client: TestClient;

beforeAll(async () => {
  local = await startLocalService({ now: clock.now, observer: { unexpected: (error) => console.error(`unexpected in test server: ${error.stack}`) } });
  client = new TestClient(local.url);
});
afterAll(async () => {
  await local?.close();
});

/** The clock re-derived from the export alone, as of `now`. */
async function clockFromExport(gameId: string, token: string, now: string) {
  const exported = (await client.get(`/games/${gameId}/export`, token)).body as { commits: Commit[] };
  const game = exported.commits.reduce<GameState | undefined>((state, commit) => evolveGame(state, commit), undefined)!;
  return { view: clockView(game, now), exported };
}

describe('turn clocks over HTTP', () => {
  it("GET /games/{id}/clock equals the clock folded from the export; a side past its time per move is overdue on the game and in its tournament's listing", async () => {
    const tournament = (await client.post('/tournaments', { name: 'Club ladder', timeControl: { perMoveSeconds: 600 } })).body as { tournamentId: string; token: string; timeControl: unknown };
    expect(tournament.timeControl).toEqual({ perMoveSeconds: 600 });
    const created = await client.post('/games', { ruleset: 'dice', title: 'Ladder game 1', options: { sides: ['red', 'blue'] } }, tournament.token);
    expect(created.status).toBe(201);
    const { gameId, tokens } = created.body as { gameId: string; tokens: { organizer: string; players: Record<string, string> } };
    const { red, blue } = tokens.players;
    const send = async (token: string, commandId: string, type: string, payload: unknown, afterSeconds: number) => {
      clock.advance(afterSeconds * 1000);
      const reply = await client.command(gameId, token, { commandId, type, payload });
      expect(reply.status, reply.text).toBe(201);
    };
    await send(red, 'r1', 'Roll', { dice: '2d6', purpose: 'artillery' }, 30); // red +30
    await send(red, 'p1', 'PassTurn', { to: 'blue' }, 90.5); // red +90.5, blue to move
    await send(blue, 'r2', 'Roll', { dice: 'd6', purpose: 'morale' }, 200); // blue +200
    await send(blue, 'p2', 'PassTurn', { to: 'red' }, 100); // blue +100, red to move
    const passedAt = clock.now();

    clock.advance(599_000);
    const answered = await client.get(`/games/${gameId}/clock`, blue);
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual({
      toMove: 'red',
      since: passedAt,
      asOf: passedAt,
      sides: { red: { usedSeconds: 120.5 }, blue: { usedSeconds: 300 } },
      timeControl: { perMoveSeconds: 600 },
      overdue: [],
    });
    const { view, exported } = await clockFromExport(gameId, blue, clock.now());
    expect(answered.body).toEqual(view);
    // The game inherited the tournament's time control in the creation its commit 1 records.
    expect(exported.commits[0].command.payload).toMatchObject({ timeControl: { perMoveSeconds: 600 } });

    clock.advance(2_000);
    const late = await client.get(`/games/${gameId}/clock`, blue);
    expect(late.body.overdue).toEqual(['red']);
    expect(late.body).toEqual((await clockFromExport(gameId, blue, clock.now())).view);
    expect((await client.get(`/games/${gameId}`, red)).body.clock).toEqual(late.body);
    const listing = await client.get(`/tournaments/${tournament.tournamentId}`, tournament.token);
    expect(listing.body.games).toEqual([expect.objectContaining({ gameId, toMove: 'red', overdue: ['red'] })]);

    // The hand-over is the move: red passes, blue is to move with a fresh move, nobody is overdue.
    await send(red, 'p3', 'PassTurn', { to: 'blue' }, 0);
    expect((await client.get(`/games/${gameId}/clock`, blue)).body).toMatchObject({ toMove: 'blue', overdue: [], sides: { red: { usedSeconds: 721.5 }, blue: { usedSeconds: 300 } } });
    const relisted = await client.get(`/tournaments/${tournament.tournamentId}`, tournament.token);
    expect(relisted.body.games).toEqual([expect.objectContaining({ gameId, toMove: 'blue', overdue: [] })]);

    // arbiter verify prints the time each side used, from the export alone.
    const file = writeJson(tempDir(), 'ladder.json', (await client.get(`/games/${gameId}/export`, blue)).body);
    const run = await cli(['verify', file, '--allow-unsealed']);
    expect(run.lines).toContain(`  - time used: red 12 min 1.5 s, blue 5 min 0 s (to the last commit, ${clock.now()}); blue to move since ${clock.now()}`);
    const json = await cli(['verify', file, '--allow-unsealed', '--json']);
    expect(JSON.parse(json.stdout).clock).toEqual({ toMove: 'blue', since: clock.now(), asOf: clock.now(), sides: { red: { usedSeconds: 721.5 }, blue: { usedSeconds: 300 } }, timeControl: { perMoveSeconds: 600 } });
  });

  it('a game that sets its own time control keeps it in a tournament that has one; a game of no tournament has none', async () => {
    const tournament = (await client.post('/tournaments', { timeControl: { totalSeconds: 86_400 } })).body as { token: string };
    const own = await client.post('/games', { ruleset: 'dice', timeControl: { perMoveSeconds: 3_600 } }, tournament.token);
    expect((await client.get(`/games/${own.body.gameId}/clock`, own.body.tokens.organizer)).body.timeControl).toEqual({ perMoveSeconds: 3_600 });
    const alone = await client.createGame({ ruleset: 'dice' });
    const view = (await client.get(`/games/${alone.gameId}/clock`, alone.tokens.organizer)).body;
    expect(view).not.toHaveProperty('timeControl');
    expect(view).toMatchObject({ toMove: 'player1', overdue: [] });
  });

  it('refuses a time control out of bounds with 400 naming the field, and a hand-over to no side with 422 in words', async () => {
    const tooShort = await client.post('/games', { ruleset: 'dice', timeControl: { perMoveSeconds: 10 } });
    expect(tooShort.status).toBe(400);
    expect(tooShort.text).toContain('timeControl.perMoveSeconds');
    const empty = await client.post('/tournaments', { timeControl: {} });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('timeControl');
    const game = await client.createGame({ ruleset: 'dice' });
    const refused = await client.command(game.gameId, game.tokens.players.player1, { commandId: 'x', type: 'PassTurn', payload: { to: 'player9' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe('This game has no side "player9": its sides are player1, player2.');
    expect((await client.get(`/games/${game.gameId}`, game.tokens.organizer)).body.version).toBe(1);
  });
});
