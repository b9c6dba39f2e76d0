import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/httpClient';
import { figure } from './figures';

const server = useTestServer();

type Credential = 'none' | 'malformed' | 'other game' | 'wrong side' | 'own side' | 'organizer';

describe('authorization matrix', () => {
  it('every route × every credential gets the documented answer; a side never acts as another', async () => {
    const game = await server.client.createGame({ ruleset: 'france44' });
    const other = await server.client.createGame({ ruleset: 'france44' });
    const token: Record<Credential, string | undefined> = {
      none: undefined,
      malformed: 'not a token at all',
      'other game': other.tokens.players.allied,
      'wrong side': game.tokens.players.german,
      'own side': game.tokens.players.allied,
      organizer: game.tokens.organizer,
    };
    await server.client.command(game.gameId, game.tokens.organizer, { commandId: 'turn', type: 'StartTurn', payload: { turn: 1 } });
    await server.client.command(game.gameId, game.tokens.players.allied, { commandId: 'inc', type: 'BeginAttackIncrement', payload: {} });
    let n = 0;
    const cases: { route: string; send: (t: string | undefined) => Promise<number>; expected: Record<Credential, number> }[] = [];
    const read = (path: string) => ({
      route: `GET ${path}`,
      send: async (t: string | undefined) => (await server.client.get(`/games/${game.gameId}${path}`, t)).status,
      expected: { none: 401, malformed: 401, 'other game': 401, 'wrong side': 200, 'own side': 200, organizer: 200 } as Record<Credential, number>,
    });
    cases.push(read(''), read('/events'), read('/export'), read('/verify'));
    const command = (label: string, body: Record<string, unknown>, expected: Record<Credential, number>) => ({
      route: `POST /commands ${label}`,
      send: async (t: string | undefined) => (await server.client.command(game.gameId, t!, { commandId: `auth-${++n}`, ...body })).status,
      expected,
    });
    // Air power is the allied side's: the German token is forbidden; the organizer must act "as" allied.
    cases.push(command('RollAirPower (allied only)', { type: 'RollAirPower', payload: { combatId: 'none', availability: 3 } }, { none: 401, malformed: 401, 'other game': 401, 'wrong side': 403, 'own side': 422, organizer: 403 }));
    cases.push(command('Seal (organizer only)', { type: 'Seal', payload: {}, expectedVersion: 1 }, { none: 401, malformed: 401, 'other game': 401, 'wrong side': 403, 'own side': 403, organizer: 409 }));
    cases.push(command('acting "as" allied', { type: 'StartTurn', payload: { turn: 9 }, as: 'allied' }, { none: 401, malformed: 401, 'other game': 401, 'wrong side': 403, 'own side': 403, organizer: 422 }));
    cases.push(command('a side\'s own command', { type: 'ActivateHQ', payload: { hqId: 'hq' } }, { none: 401, malformed: 401, 'other game': 401, 'wrong side': 201, 'own side': 201, organizer: 403 }));
    for (const route of ['/health', '/rulesets', '/keys', '/openapi.json']) {
      cases.push({ route: `GET ${route}`, send: async (t) => (await server.client.get(route, t)).status, expected: { none: 200, malformed: 200, 'other game': 200, 'wrong side': 200, 'own side': 200, organizer: 200 } });
    }
    cases.push({
      route: 'POST /rulesets/france44/evaluate',
      send: async (t) => (await server.client.post('/rulesets/france44/evaluate', { procedure: 'air-power', input: { availability: 3 } }, t)).status,
      expected: { none: 200, malformed: 200, 'other game': 200, 'wrong side': 200, 'own side': 200, organizer: 200 },
    });
    // No token, or a tournament's: a game's token (or anything else) is refused rather than ignored.
    cases.push({ route: 'POST /games', send: async (t) => (await server.client.post('/games', { ruleset: 'dice' }, t)).status, expected: { none: 201, malformed: 401, 'other game': 401, 'wrong side': 401, 'own side': 401, organizer: 401 } });
    // The organizer's alone; a role the game lacks is 404 (so nothing changes while the matrix runs).
    for (const method of ['POST', 'DELETE']) {
      cases.push({
        route: `${method} /games/{id}/tokens/{role}`,
        send: async (t) => (await server.client.request(method, `/games/${game.gameId}/tokens/referee`, { token: t })).status,
        expected: { none: 401, malformed: 401, 'other game': 401, 'wrong side': 403, 'own side': 403, organizer: 404 },
      });
    }
    const tournament = (await server.client.post('/tournaments', {})).body;
    // The status of an export (tournamentExportJobs.ts) asks for the tournament's token before it looks for the export.
    for (const path of ['', '/export', `/exports/${'0'.repeat(40)}`]) {
      cases.push({
        route: `GET /tournaments/{id}${path}`,
        send: async (t) => (await server.client.get(`/tournaments/${tournament.tournamentId}${path}`, t)).status,
        expected: { none: 401, malformed: 401, 'other game': 401, 'wrong side': 401, 'own side': 401, organizer: 401 },
      });
    }

    let checked = 0;
    for (const c of cases) {
      for (const credential of Object.keys(token) as Credential[]) {
        expect(await c.send(token[credential]), `${c.route} with ${credential}`).toBe(c.expected[credential]);
        checked += 1;
      }
    }

    // Every commit of the game was made by the side whose token sent it.
    const commits = (await server.client.get(`/games/${game.gameId}/events?limit=1000`, game.tokens.organizer)).body.commits;
    const hq = commits.filter((c: { command: { type: string } }) => c.command.type === 'ActivateHQ');
    expect(hq.map((c: { actor: string }) => c.actor)).toEqual(['german', 'allied']);
    expect(commits.every((c: { as?: string; actor: string }) => c.as === undefined || c.actor !== 'organizer')).toBe(true);
    figure('Authorization', 'routes × credentials checked', `${cases.length} × 6 = ${checked}`);
  });

  it('unknown games answer 404 whatever the credential, before any token check', async () => {
    const game = await server.client.createGame();
    for (const t of [undefined, 'x', game.tokens.organizer]) {
      expect((await server.client.get('/games/g-does-not-exist', t)).status).toBe(404);
      expect((await server.client.command('g-does-not-exist', t!, { commandId: 'x', type: 'Roll', payload: {} })).status).toBe(404);
    }
  });
});
