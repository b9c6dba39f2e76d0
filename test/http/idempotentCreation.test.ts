import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/httpClient';

const server = useTestServer();

describe('POST /games with an Idempotency-Key', () => {
  it('answers the same game and the same tokens when the same request comes again, and the tokens work', async () => {
    const { client } = server;
    const key = { 'idempotency-key': randomUUID() };
    const first = await client.post('/games', { ruleset: 'dice', title: 'Table 1' }, undefined, key);
    const again = await client.post('/games', { ruleset: 'dice', title: 'Table 1' }, undefined, key);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    const { gameId, tokens } = first.body;
    const roll = await client.command(gameId, tokens.players.player1, { commandId: 'r', type: 'Roll', payload: { dice: 'd6', purpose: 'works' } });
    expect(roll.status).toBe(201);
    expect((await client.get(`/games/${gameId}`, tokens.organizer)).body.role).toBe('organizer');
    // Still the same game, though it has moved on since.
    expect((await client.post('/games', { ruleset: 'dice', title: 'Table 1' }, undefined, key)).body.gameId).toBe(gameId);
    // Another key is another game, with other tokens.
    const other = await client.post('/games', { ruleset: 'dice', title: 'Table 1' }, undefined, { 'idempotency-key': `${key['idempotency-key']}-b` });
    expect(other.body.gameId).not.toBe(gameId);
    expect(other.body.tokens.organizer).not.toBe(tokens.organizer);
    // Tokens are still stored hashed only.
    expect(JSON.stringify(await server.local.store.readSecrets(gameId))).not.toContain(tokens.organizer);
  });

  it('refuses the key with another request (422), and a key that is not a UUID or 22 to 200 base64url characters (400)', async () => {
    const { client } = server;
    const key = { 'idempotency-key': randomUUID() };
    const first = await client.post('/games', { ruleset: 'dice' }, undefined, key);
    const different = await client.post('/games', { ruleset: 'france44' }, undefined, key);
    expect([different.status, different.body.error.code, different.body.error.details.gameId]).toEqual([422, 'idempotency_key_reused', first.body.gameId]);
    for (const bad of ['a', 'game-1', 'x'.repeat(21), 'has space and is long enough', 'x'.repeat(201), 'é'.repeat(22), `${randomUUID()}!`]) {
      const refused = await client.post('/games', { ruleset: 'dice' }, undefined, { 'idempotency-key': bad });
      expect([refused.status, refused.body.error.details.issues[0].field], bad).toEqual([400, 'Idempotency-Key']);
    }
  });

  it('creates one game for many requests sent at once with one key', async () => {
    const { client } = server;
    const key = { 'idempotency-key': randomUUID() };
    const answers = await Promise.all(Array.from({ length: 8 }, () => client.post('/games', { ruleset: 'dice' }, undefined, key)));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([201]));
    expect(new Set(answers.map((a) => a.body.gameId)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.tokens.organizer)).size).toBe(1);
  });

  it('works with a tournament token: the game is listed once', async () => {
    const { client } = server;
    const tournament = (await client.post('/tournaments', {})).body;
    const key = { 'idempotency-key': randomUUID() };
    const first = await client.post('/games', { ruleset: 'dice' }, tournament.token, key);
    const again = await client.post('/games', { ruleset: 'dice' }, tournament.token, key);
    expect(again.body).toEqual(first.body);
    expect(first.body.tournamentId).toBe(tournament.tournamentId);
    const listing = (await client.get(`/tournaments/${tournament.tournamentId}`, tournament.token)).body;
    expect(listing.games.map((g: { gameId: string }) => g.gameId)).toEqual([first.body.gameId]);
    // The key belongs to the tournament: without its token the same key is another key, with a game of its own.
    const alone = await client.post('/games', { ruleset: 'dice' }, undefined, key);
    expect([alone.status, alone.body.tournamentId, alone.body.gameId === first.body.gameId]).toEqual([201, undefined, false]);
  });
});
