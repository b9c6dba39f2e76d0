import { describe, expect, it } from 'vitest';
import { verifyExport } from '../../domain/verify/verifyExport';
import { useTestServer, type TestClient } from '../support/httpClient';
import { cli } from '../verifier/cliHarness';

const server = useTestServer();
const roll = (commandId: string) => ({ commandId, type: 'Roll', payload: { dice: '2d6', purpose: commandId } });

async function newTournament(client: TestClient, name = 'Club championship, round 1') {
  const reply = await client.post('/tournaments', { name });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as { tournamentId: string; name: string; createdAt: string; token: string };
}

async function fingerprint(client: TestClient): Promise<string> {
  return (await client.get('/keys')).body.keys[0].fingerprint;
}

describe('tournaments: POST /tournaments, games created with its token, GET /tournaments/{id}', () => {
  it('creates a tournament whose token is shown once and stored hashed', async () => {
    const { client, local } = server;
    const created = await newTournament(client);
    expect(created).toEqual({ tournamentId: expect.stringMatching(/^t-[A-Za-z0-9_-]+$/), name: 'Club championship, round 1', createdAt: expect.any(String), token: expect.stringMatching(/^arb_/) });
    const stored = await local.store.readTournament(created.tournamentId);
    expect(stored?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(created.token);
    const listing = await client.get(`/tournaments/${created.tournamentId}`, created.token);
    expect(listing.text).not.toContain(created.token);

    const bad = await client.post('/tournaments', { name: 'round\n#3 organizer Seal' });
    expect([bad.status, bad.body.error.details.issues[0].field]).toEqual([400, 'name']);
    expect((await client.post('/tournaments', { name: 'x', games: 3 })).status).toBe(400);
    expect((await client.post('/tournaments', {})).body.name).toBe('');
  });

  it("lists the games created with its token, in order, each with its ruleset, sides, version, seal and signed head", async () => {
    const { client } = server;
    const tournament = await newTournament(client);
    const dice = await client.post('/games', { ruleset: 'dice', title: 'Table 1' }, tournament.token);
    expect([dice.status, dice.body.tournamentId]).toEqual([201, tournament.tournamentId]);
    const france = await client.post('/games', { ruleset: 'france44', title: 'Table 2' }, tournament.token);
    expect(france.status).toBe(201);
    const alone = await client.createGame();
    await client.command(dice.body.gameId, dice.body.tokens.players.player1, roll('r1'));
    await client.command(dice.body.gameId, dice.body.tokens.organizer, { commandId: 'seal', type: 'Seal' });

    const listing = await client.get(`/tournaments/${tournament.tournamentId}`, tournament.token);
    expect(listing.status).toBe(200);
    expect(listing.body).toMatchObject({ tournamentId: tournament.tournamentId, name: tournament.name, createdAt: tournament.createdAt });
    expect(listing.body.games.map((g: { gameId: string }) => g.gameId)).toEqual([dice.body.gameId, france.body.gameId]);
    expect(listing.body.games.map((g: { gameId: string }) => g.gameId)).not.toContain(alone.gameId);
    const [first, second] = listing.body.games;
    expect(first).toMatchObject({ ruleset: 'dice', title: 'Table 1', sides: ['player1', 'player2'], version: 3, sealed: true });
    expect(second).toMatchObject({ ruleset: 'france44', title: 'Table 2', sides: france.body.sides, version: 1, sealed: false });
    // Each head is the one the game itself answers, signed by the server's key.
    const head = (await client.get(`/games/${dice.body.gameId}/head`, dice.body.tokens.organizer)).body;
    expect({ ...first.head, at: '', hash: '', signature: '' }).toEqual({ ...head, at: '', hash: '', signature: '' });
    const exported = (await client.get(`/games/${dice.body.gameId}/export`, dice.body.tokens.organizer)).body;
    const report = verifyExport({ ...exported, head: first.head }, { trusted: [await fingerprint(client)] });
    expect([report.exitCode, report.failures]).toEqual([0, []]);
  });

  it("makes the tournament's token the organizer of its games, and of no other game", async () => {
    const { client } = server;
    const tournament = await newTournament(client);
    const other = await newTournament(client);
    const game = (await client.post('/games', { ruleset: 'dice' }, tournament.token)).body;
    expect((await client.get(`/games/${game.gameId}`, tournament.token)).body.role).toBe('organizer');
    expect((await client.get(`/games/${game.gameId}`, other.token)).status).toBe(401);
    const alone = await client.createGame();
    expect((await client.get(`/games/${alone.gameId}`, tournament.token)).status).toBe(401);
    const asSide = await client.command(game.gameId, tournament.token, { ...roll('for-p1'), as: 'player1' });
    expect([asSide.status, asSide.body.commit.actor, asSide.body.commit.as]).toEqual([201, 'player1', 'organizer']);
    const sealed = await client.command(game.gameId, tournament.token, { commandId: 'seal', type: 'Seal' });
    expect(sealed.status).toBe(201);
  });

  it('refuses what it does not know: 404 before 401, and no game from a token that is not a tournament\'s', async () => {
    const { client } = server;
    const tournament = await newTournament(client);
    const other = await newTournament(client);
    const path = `/tournaments/${tournament.tournamentId}`;
    expect((await client.get(path)).status).toBe(401);
    expect((await client.get(path, other.token)).status).toBe(401);
    expect((await client.get(`${path}/export`, other.token)).status).toBe(401);
    const game = await client.createGame();
    expect((await client.get(path, game.tokens.organizer)).status).toBe(401);
    for (const id of ['t-none', 'g-none', 'constructor', '__proto__', 't-' + 'x'.repeat(80)]) {
      expect((await client.get(`/tournaments/${encodeURIComponent(id)}`, tournament.token)).status, id).toBe(404);
    }
    for (const token of [game.tokens.organizer, 'arb_not-a-token']) {
      const refused = await client.post('/games', { ruleset: 'dice' }, token);
      expect([refused.status, refused.body.error.code]).toEqual([401, 'unauthenticated']);
    }
    expect((await client.get(path, tournament.token)).body.games).toEqual([]);
    const invalid = await client.post('/games', { ruleset: 'no-such-ruleset' }, tournament.token);
    expect(invalid.status).toBe(400);
    expect((await client.get(path, tournament.token)).body.games).toEqual([]);
  });
});

describe('GET /tournaments/{id}/export', () => {
  it('answers NDJSON: a header line, then every game\'s export, each verifying on its own', async () => {
    const { client } = server;
    const tournament = await newTournament(client, 'Export round');
    const games = [];
    for (let table = 1; table <= 3; table++) {
      const game = (await client.post('/games', { ruleset: 'dice', title: `Table ${table}` }, tournament.token)).body;
      for (let i = 0; i < table; i++) await client.command(game.gameId, game.tokens.players.player2, roll(`r${i}`));
      await client.command(game.gameId, tournament.token, { commandId: 'seal', type: 'Seal' });
      games.push(game);
    }
    const started = await client.get(`/tournaments/${tournament.tournamentId}/export`, tournament.token);
    expect([started.status, started.body.status, started.headers.get('location')]).toEqual([202, 'running', started.body.statusUrl]);
    expect(started.body.statusUrl).toBe(`/tournaments/${tournament.tournamentId}/exports/${started.body.exportId}`);
    const reply = await client.exported(`/tournaments/${tournament.tournamentId}/export`, tournament.token);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(reply.text.endsWith('\n')).toBe(true);
    const lines = reply.text.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines[0]).toEqual({
      format: 'arbiter-tournament-export/1',
      tournamentId: tournament.tournamentId,
      name: 'Export round',
      exportedAt: lines[0].tournamentHead.at,
      games: 3,
      tournamentHead: expect.objectContaining({ type: 'TournamentHead', tournamentId: tournament.tournamentId }),
      keys: { keys: (await client.get('/keys')).body.keys },
      keyLog: [],
    });
    expect(lines[0].tournamentHead.games).toEqual(lines.slice(1).map((bundle) => ({ gameId: bundle.gameId, head: bundle.head.hash })));
    expect(lines.slice(1).map((bundle) => bundle.gameId)).toEqual(games.map((g) => g.gameId));
    const trusted = [await fingerprint(client)];
    for (const [i, bundle] of lines.slice(1).entries()) {
      expect(bundle.commits).toHaveLength(i + 3);
      const alone = (await client.get(`/games/${bundle.gameId}/export`, tournament.token)).body;
      expect(bundle.commits).toEqual(alone.commits);
      expect(verifyExport(bundle, { trusted }).exitCode).toBe(0);
    }
  });

  it('is what arbiter verify reads from the tournament\'s URL, with its token', async () => {
    const { client } = server;
    const tournament = await newTournament(client, 'Verified round');
    for (let table = 1; table <= 2; table++) {
      const game = (await client.post('/games', { ruleset: 'dice' }, tournament.token)).body;
      await client.command(game.gameId, game.tokens.players.player1, roll('r'));
      await client.command(game.gameId, tournament.token, { commandId: 'seal', type: 'Seal' });
    }
    const url = `${client.baseUrl}/tournaments/${tournament.tournamentId}`;
    const run = await cli(['verify', url, '--token', tournament.token, '--trust', await fingerprint(client)]);
    expect([run.code, run.lines.at(-2), run.lines.at(-1)]).toEqual([0, '2 games: 2 OK', 'OK: every game verified']);
    // The server made the file first (202): the verifier said it was waiting, and asked again after Retry-After.
    expect(run.stderr).toContain('the server is making the export; asking again in 1 s');
    // `export` saves the same file, made once: the second ask is answered at once by its link.
    const saved = await cli(['export', url, '--token', tournament.token]);
    expect([saved.code, saved.stderr]).toEqual([0, '']);
    expect(saved.written.trimEnd().split('\n')).toHaveLength(3);
    expect((await cli(['verify', url, '--trust', await fingerprint(client)])).code).toBe(2);
  });
});
