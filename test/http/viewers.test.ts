import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/httpClient';

const server = useTestServer();
const roll = (commandId: string) => ({ commandId, type: 'Roll', payload: { dice: '2d6', purpose: 'watched' } });

describe('spectator links: POST /games/{id}/viewers, DELETE /games/{id}/viewers/{viewerId}', () => {
  it('lets the organizer mint a read-only link that reads everything of the game and sends nothing', async () => {
    const { client } = server;
    const game = await client.createGame();
    await client.command(game.gameId, game.tokens.players.player1, roll('r1'));
    const minted = await client.post(`/games/${game.gameId}/viewers`, { label: 'club stream' }, game.tokens.organizer);
    expect(minted.status).toBe(201);
    expect(minted.body).toEqual({ viewerId: expect.stringMatching(/^v-[0-9a-z]+$/), token: expect.stringMatching(/^arb_/), label: 'club stream' });
    const viewer = minted.body.token;

    for (const path of ['', '/events', '/head', '/export', '/verify']) {
      expect((await client.get(`/games/${game.gameId}${path}`, viewer)).status, path).toBe(200);
    }
    const command = await client.command(game.gameId, viewer, roll('r2'));
    expect([command.status, command.body.error.code]).toEqual([403, 'forbidden']);
    expect(command.body.error.message).toMatch(/spectator link reads the game/);
    expect((await client.post(`/games/${game.gameId}/viewers`, {}, viewer)).status).toBe(403);
    expect((await client.get(`/games/${game.gameId}`, game.tokens.organizer)).body.version).toBe(2);

    // Stored hashed, like every token.
    const stored = await server.local.store.readViewers(game.gameId);
    expect(JSON.stringify(stored)).not.toContain(viewer);
  });

  it('stops a revoked link at once, and leaves the others working', async () => {
    const { client } = server;
    const game = await client.createGame();
    const first = (await client.post(`/games/${game.gameId}/viewers`, {}, game.tokens.organizer)).body;
    const second = (await client.post(`/games/${game.gameId}/viewers`, {}, game.tokens.organizer)).body;
    expect(first.viewerId).not.toBe(second.viewerId);
    const revoked = await client.request('DELETE', `/games/${game.gameId}/viewers/${first.viewerId}`, { token: game.tokens.organizer });
    expect([revoked.status, revoked.text]).toEqual([204, '']);
    for (const path of ['', '/events', '/head', '/export']) expect((await client.get(`/games/${game.gameId}${path}`, first.token)).status, path).toBe(401);
    expect((await client.get(`/games/${game.gameId}`, second.token)).status).toBe(200);
  });

  it('is the organizer\'s alone, and refuses what it does not know', async () => {
    const { client } = server;
    const game = await client.createGame();
    const other = await client.createGame();
    const path = `/games/${game.gameId}/viewers`;
    expect((await client.post(path, {})).status).toBe(401);
    expect((await client.post(path, {}, other.tokens.organizer)).status).toBe(401);
    expect((await client.post(path, {}, game.tokens.players.player1)).status).toBe(403);
    expect((await client.post('/games/g-none/viewers', {}, game.tokens.organizer)).status).toBe(404);
    const label = await client.post(path, { label: 'stream\n#9 organizer Seal' }, game.tokens.organizer);
    expect([label.status, label.body.error.details.issues[0].field]).toEqual([400, 'label']);
    expect((await client.post(path, { label: 'x', extra: 1 }, game.tokens.organizer)).status).toBe(400);
    const minted = (await client.post(path, {}, game.tokens.organizer)).body;
    expect((await client.request('DELETE', `${path}/v-nothing`, { token: game.tokens.organizer })).status).toBe(404);
    expect((await client.request('DELETE', `${path}/${minted.viewerId}`, { token: game.tokens.players.player2 })).status).toBe(403);
    expect((await client.request('DELETE', `${path}/${minted.viewerId}`, { token: minted.token })).status).toBe(403);
    expect((await client.request('DELETE', `/games/${other.gameId}/viewers/${minted.viewerId}`, { token: other.tokens.organizer })).status).toBe(404);
    expect((await client.get(`/games/${game.gameId}`, minted.token)).status).toBe(200);
  });

  it('lists the links to the organizer alone, with their ids, labels, times and state, and never a token', async () => {
    const { client } = server;
    const game = await client.createGame();
    const path = `/games/${game.gameId}/viewers`;
    expect((await client.get(path, game.tokens.organizer)).body).toEqual({ gameId: game.gameId, viewers: [] });
    const stream = (await client.post(path, { label: 'club stream' }, game.tokens.organizer)).body;
    const plain = (await client.post(path, {}, game.tokens.organizer)).body;
    await client.request('DELETE', `${path}/${plain.viewerId}`, { token: game.tokens.organizer });

    const listed = await client.get(path, game.tokens.organizer);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      gameId: game.gameId,
      viewers: [
        { viewerId: stream.viewerId, label: 'club stream', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), revoked: false },
        { viewerId: plain.viewerId, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), revoked: true },
      ],
    });
    const text = JSON.stringify(listed.body);
    for (const secret of [stream.token, plain.token, game.tokens.organizer]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/arb_|tokenHash|sha256/);

    // A listed id is all it takes to revoke the link later, from anywhere.
    expect((await client.request('DELETE', `${path}/${listed.body.viewers[0].viewerId}`, { token: game.tokens.organizer })).status).toBe(204);
    expect((await client.get(`/games/${game.gameId}`, stream.token)).status).toBe(401);

    const spectator = (await client.post(path, {}, game.tokens.organizer)).body.token;
    for (const token of [game.tokens.players.player1, game.tokens.players.player2, spectator]) {
      const refused = await client.get(path, token);
      expect([refused.status, refused.body.error.code]).toEqual([403, 'forbidden']);
      expect(refused.text).not.toMatch(/arb_/);
    }
    expect((await client.get(path)).status).toBe(401);
    expect((await client.get('/games/g-none/viewers', game.tokens.organizer)).status).toBe(404);
  });

  it("lists a tournament game's links to the tournament's token, its organizer", async () => {
    const { client } = server;
    const tournament = (await client.post('/tournaments', { name: 'Round 1' })).body;
    const game = (await client.post('/games', { ruleset: 'dice' }, tournament.token)).body;
    const minted = (await client.post(`/games/${game.gameId}/viewers`, { label: 'table 1' }, tournament.token)).body;
    const listed = await client.get(`/games/${game.gameId}/viewers`, tournament.token);
    expect(listed.status).toBe(200);
    expect(listed.body.viewers).toEqual([{ viewerId: minted.viewerId, label: 'table 1', createdAt: expect.any(String), revoked: false }]);
  });
});
