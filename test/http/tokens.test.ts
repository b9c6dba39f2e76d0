import { describe, expect, it } from 'vitest';
import { verifyExport } from '../../domain/verify/verifyExport';
import { useTestServer } from '../support/httpClient';

const server = useTestServer();
const roll = (commandId: string) => ({ commandId, type: 'Roll', payload: { dice: '2d6', purpose: commandId } });

describe('POST and DELETE /games/{id}/tokens/{role}: a lost token reissued, a token revoked', () => {
  it('gives a side a new token, stops the old one at once, and records the change as a commit without any token', async () => {
    const { client, local } = server;
    const game = await client.createGame();
    const old = game.tokens.players.player1;
    await client.command(game.gameId, old, roll('before'));

    const reissued = await client.post(`/games/${game.gameId}/tokens/player1`, undefined, game.tokens.organizer);
    expect(reissued.status, reissued.text).toBe(201);
    expect(reissued.body).toMatchObject({ gameId: game.gameId, role: 'player1', token: expect.stringMatching(/^arb_/), version: 3 });
    const fresh = reissued.body.token as string;
    expect(fresh).not.toBe(old);
    expect(reissued.body.commit.events).toEqual([{ type: 'TokenReissued', data: { role: 'player1', tokenId: expect.stringMatching(/^k-[0-9a-z]+$/) } }]);
    expect(JSON.stringify(reissued.body.commit)).not.toContain(fresh);

    for (const path of ['', '/events', '/head', '/export']) expect((await client.get(`/games/${game.gameId}${path}`, old)).status, path).toBe(401);
    expect((await client.command(game.gameId, old, roll('with-old'))).status).toBe(401);
    const withNew = await client.command(game.gameId, fresh, roll('with-new'));
    expect([withNew.status, withNew.body.commit.actor]).toEqual([201, 'player1']);
    expect((await client.get(`/games/${game.gameId}`, fresh)).body.role).toBe('player1');
    // The other side is untouched.
    expect((await client.command(game.gameId, game.tokens.players.player2, roll('p2'))).status).toBe(201);

    const timeline = await client.get(`/games/${game.gameId}/events`, fresh, { accept: 'text/plain' });
    expect(timeline.text).toMatch(/^#3 organizer ReissueToken new token for player1 \(k-[0-9a-z]+\); the old one no longer works \[[0-9a-f]{8}\]$/m);
    const everything = (await client.get(`/games/${game.gameId}/export`, fresh)).text;
    for (const token of [old, fresh]) expect(everything).not.toContain(token);
    const stored = await local.store.readIssuedTokens(game.gameId);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(fresh);

    // Reissued again: the second token replaces the first.
    const again = (await client.post(`/games/${game.gameId}/tokens/player1`, undefined, game.tokens.organizer)).body.token;
    expect((await client.get(`/games/${game.gameId}`, fresh)).status).toBe(401);
    expect((await client.get(`/games/${game.gameId}`, again)).status).toBe(200);

    // The verifier replays the token commits like any other.
    await client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal' });
    const bundle = (await client.get(`/games/${game.gameId}/export`, again)).body;
    const trusted = [(await client.get('/keys')).body.keys[0].fingerprint];
    expect(verifyExport(bundle, { trusted })).toMatchObject({ exitCode: 0, failures: [] });
  });

  it('revokes a side until the organizer reissues it, and keeps the organizer able to seal', async () => {
    const { client } = server;
    const game = await client.createGame();
    const revoked = await client.request('DELETE', `/games/${game.gameId}/tokens/player2`, { token: game.tokens.organizer });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ gameId: game.gameId, role: 'player2', version: 2, commit: { events: [{ type: 'TokenRevoked', data: { role: 'player2' } }] } });
    expect((await client.get(`/games/${game.gameId}`, game.tokens.players.player2)).status).toBe(401);
    expect((await client.command(game.gameId, game.tokens.players.player2, roll('r'))).status).toBe(401);
    // The organizer still acts for the side.
    expect((await client.command(game.gameId, game.tokens.organizer, { ...roll('for-p2'), as: 'player2' })).status).toBe(201);

    const twice = await client.request('DELETE', `/games/${game.gameId}/tokens/player2`, { token: game.tokens.organizer });
    expect([twice.status, twice.body.error.code, twice.body.error.message]).toEqual([422, 'rule_violation', expect.stringMatching(/already revoked/)]);
    const organizer = await client.request('DELETE', `/games/${game.gameId}/tokens/organizer`, { token: game.tokens.organizer });
    expect([organizer.status, organizer.body.error.code, organizer.body.error.message]).toEqual([403, 'forbidden', expect.stringMatching(/can be reissued but not revoked/)]);

    const back = await client.post(`/games/${game.gameId}/tokens/player2`, undefined, game.tokens.organizer);
    expect(back.status).toBe(201);
    expect((await client.command(game.gameId, back.body.token, roll('back'))).status).toBe(201);

    // The organizer's own token can be replaced: the old one stops.
    const newOrganizer = (await client.post(`/games/${game.gameId}/tokens/organizer`, undefined, game.tokens.organizer)).body.token;
    expect((await client.get(`/games/${game.gameId}`, game.tokens.organizer)).status).toBe(401);
    expect((await client.get(`/games/${game.gameId}`, newOrganizer)).body.role).toBe('organizer');
  });

  it("is the organizer's (the game's or its tournament's) alone, and refuses what it does not know", async () => {
    const { client } = server;
    const tournament = (await client.post('/tournaments', {})).body;
    const game = (await client.post('/games', { ruleset: 'dice' }, tournament.token)).body;
    const other = await client.createGame();
    const path = `/games/${game.gameId}/tokens/player1`;
    expect((await client.post(path, undefined)).status).toBe(401);
    expect((await client.post(path, undefined, other.tokens.organizer)).status).toBe(401);
    expect((await client.post(path, undefined, game.tokens.players.player2)).status).toBe(403);
    const viewer = (await client.post(`/games/${game.gameId}/viewers`, {}, game.tokens.organizer)).body.token;
    expect((await client.request('DELETE', path, { token: viewer })).status).toBe(403);
    expect((await client.post('/games/g-none/tokens/player1', undefined, tournament.token)).status).toBe(404);
    for (const role of ['player3', 'constructor', '__proto__', 'toString', 'x'.repeat(65)]) {
      const unknown = await client.post(`/games/${game.gameId}/tokens/${encodeURIComponent(role)}`, undefined, tournament.token);
      expect([unknown.status, unknown.body.error.code], role).toEqual([404, 'not_found']);
    }
    const byTournament = await client.post(path, undefined, tournament.token);
    expect(byTournament.status).toBe(201);
    expect(byTournament.body.commit.actor).toBe('organizer');

    // Never as a command.
    for (const type of ['ReissueToken', 'RevokeToken']) {
      const sent = await client.command(game.gameId, game.tokens.organizer, { commandId: `c-${type}`, type, payload: { role: 'player2', tokenId: 'k-1' } });
      expect([sent.status, sent.body.error.details.issues[0].field], type).toEqual([400, 'type']);
    }
    expect((await client.get(`/games/${game.gameId}`, game.tokens.players.player2)).status).toBe(200);

    await client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal' });
    const sealed = await client.post(path, undefined, tournament.token);
    expect([sealed.status, sealed.body.error.code]).toEqual([409, 'game_sealed']);
    expect((await client.request('DELETE', path, { token: tournament.token })).status).toBe(409);
    expect(await server.local.store.readIssuedTokens(game.gameId)).toHaveLength(1);
  });
});
