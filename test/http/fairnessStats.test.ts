import { describe, expect, it } from 'vitest';
import type { Commit } from '../../domain/fairness/hashChain';
import { gameStats } from '../../domain/stats/gameStats';
import { useTestServer, type TestClient } from '../support/httpClient';

const server = useTestServer();
const roll = (commandId: string, dice: string) => ({ commandId, type: 'Roll', payload: { dice, purpose: 'stats' } });
const seal = (commandId = 'seal') => ({ commandId, type: 'Seal', payload: {} });

/** A dice game with some d6 and d20 rolled by both sides, and its export's commits. */
async function playedGame(client: TestClient, body: Record<string, unknown> = { ruleset: 'dice' }) {
  const game = await client.createGame(body);
  for (let i = 0; i < 4; i++) {
    expect((await client.command(game.gameId, game.tokens.players.player1, roll(`a${i}`, '10d6'))).status).toBe(201);
    expect((await client.command(game.gameId, game.tokens.players.player2, roll(`b${i}`, i % 2 ? '3d20' : '5d6'))).status).toBe(201);
  }
  return game;
}

const commitsOf = async (client: TestClient, gameId: string, token: string): Promise<Commit[]> => (await client.get(`/games/${gameId}/export`, token)).body.commits;

/** Face counts by die size over these games' commits, counted here directly. */
function countFaces(games: Commit[][]): Map<number, number[]> {
  const counts = new Map<number, number[]>();
  for (const die of games.flat().flatMap((c) => c.dice)) {
    const faces = counts.get(die.sides) ?? new Array<number>(die.sides).fill(0);
    faces[die.value - 1] += 1;
    counts.set(die.sides, faces);
  }
  return counts;
}

describe("a game's dice statistics: GET /games/{id}/stats", () => {
  it('are refused while the game is played, and answered to its readers once sealed', async () => {
    const { client } = server;
    const game = await playedGame(client);
    const path = `/games/${game.gameId}/stats`;
    const early = await client.get(path, game.tokens.players.player1);
    expect([early.status, early.body.error.code]).toEqual([409, 'game_not_sealed']);
    expect(early.text).not.toMatch(/"count"|"faces"/);
    expect((await client.get(path)).status).toBe(401);
    expect((await client.get('/games/g-none/stats', game.tokens.organizer)).status).toBe(404);

    const spectator = (await client.post(`/games/${game.gameId}/viewers`, {}, game.tokens.organizer)).body.token;
    expect((await client.command(game.gameId, game.tokens.organizer, seal())).status).toBe(201);
    expect((await client.get(path, spectator)).status).toBe(200);
    const answered = await client.get(path, game.tokens.players.player2);
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual(JSON.parse(JSON.stringify(gameStats(game.gameId, await commitsOf(client, game.gameId, game.tokens.organizer)))));
    const d6 = answered.body.dice.find((d: { sides: number }) => d.sides === 6);
    expect(d6.all.rolls).toBe(4 * 10 + 2 * 5);
    expect(d6.byRole.map((r: { role: string; figures: { rolls: number } }) => [r.role, r.figures.rolls])).toEqual([
      ['player1', 40],
      ['player2', 10],
    ]);
    expect(d6.all.pValue).toBeGreaterThan(0);
    expect(answered.body.dice.find((d: { sides: number }) => d.sides === 20).all.verdict).toBe('too_few');
  });
});

describe('the public statistics: GET /stats', () => {
  it('add up every sealed game exactly, leave out games that opted out, and never count a game twice', async () => {
    const { client } = server;
    // The games sealed before (the test above): counted already, and the sums start from them.
    const before = new Map<number, { games: number; counts: number[] }>(
      (await client.get('/stats')).body.dice.map((d: { sides: number; games: number; figures: { faces: { count: number }[] } }) => [d.sides, { games: d.games, counts: d.figures.faces.map((f) => f.count) }]),
    );

    const counted = [await playedGame(client), await playedGame(client), await playedGame(client)];
    const optedOut = await playedGame(client, { ruleset: 'dice', publicStats: false });
    const unsealed = await playedGame(client);
    // Sealed at the same moment: their puts race on the same die-size items.
    const seals = await Promise.all([...counted, optedOut].map((g) => client.command(g.gameId, g.tokens.organizer, seal())));
    expect(seals.map((s) => s.status)).toEqual([201, 201, 201, 201]);
    // A sealing retried (the same commandId) answers the stored commit; another Seal is refused.
    expect((await client.command(counted[0].gameId, counted[0].tokens.organizer, seal())).status).toBe(200);
    expect((await client.command(counted[0].gameId, counted[0].tokens.organizer, seal('seal-again'))).status).toBe(409);

    const added = countFaces(await Promise.all(counted.map((g) => commitsOf(client, g.gameId, g.tokens.organizer))));
    const expected = (sides: number) => added.get(sides)!.map((n, i) => n + (before.get(sides)?.counts[i] ?? 0));
    const games = (sides: number) => 3 + (before.get(sides)?.games ?? 0);
    const stats = await client.get('/stats');
    expect(stats.status).toBe(200);
    expect(stats.body.dice.map((d: { sides: number; games: number; figures: { faces: { count: number }[] } }) => [d.sides, d.games, d.figures.faces.map((f) => f.count)])).toEqual([
      [6, games(6), expected(6)],
      [20, games(20), expected(20)],
    ]);
    expect(stats.body.dice[0].figures.rolls).toBe(games(6) * 50);
    expect(stats.body.dice[0].figures.words).toMatch(/sample|too few/);

    // The opted-out game's creation recorded its choice in commit 1, and its own statistics still answer.
    const optedOutCommits = await commitsOf(client, optedOut.gameId, optedOut.tokens.organizer);
    expect(optedOutCommits[0].command.payload).toMatchObject({ publicStats: false });
    expect((await client.get(`/games/${optedOut.gameId}/stats`, optedOut.tokens.organizer)).body.publicStats).toBe(false);
    expect((await client.get(`/games/${unsealed.gameId}/stats`, unsealed.tokens.organizer)).status).toBe(409);
  });

  it('refuses a publicStats that is not true or false, naming the field', async () => {
    const reply = await server.client.post('/games', { ruleset: 'dice', publicStats: 'no' });
    expect([reply.status, reply.body.error.details.issues[0].field]).toEqual([400, 'publicStats']);
  });
});
