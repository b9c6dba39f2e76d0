import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../domain/canonicalJson';
import { signatureIsValid } from '../../domain/fairness/hashChain';
import { useTestServer } from '../support/httpClient';

const server = useTestServer();

/** trust.md §1, written out here apart from the code: SHA-256 of the fixed JWK members, base64url. */
const thumbprint = (x: string) => `ed25519:${createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url')}`;
/** trust.md §3 and §4: SHA-256 of the RFC 8785 form without hash and signature. */
const statementHash = ({ hash: _h, signature: _s, ...rest }: Record<string, unknown>) => createHash('sha256').update(canonicalJson(rest)).digest('hex');

describe('the server key and the signed head (trust.md)', () => {
  it('serves GET /keys as a JWK set with each key\'s fingerprint and status, and the key log', async () => {
    const reply = await server.client.get('/keys');
    expect(reply.status).toBe(200);
    const [key] = reply.body.keys;
    expect(reply.body).toEqual({ keys: [key], log: [] });
    expect(key).toEqual({ kty: 'OKP', crv: 'Ed25519', x: expect.any(String), kid: expect.any(String), use: 'sig', alg: 'EdDSA', fingerprint: thumbprint(key.x), status: 'current' });
    expect(key.fingerprint).toBe(server.local.service.signer.fingerprint);
    expect(key.fingerprint).toMatch(/^ed25519:[A-Za-z0-9_-]{43}$/);
  });

  it('answers GET /games/{id}/head to any token of the game with a head signed by the current key, and refuses others', async () => {
    const game = await server.client.createGame();
    await server.client.command(game.gameId, game.tokens.players.player1, { commandId: 'r1', type: 'Roll', payload: { dice: '2d6', purpose: 'head' } });
    const events = await server.client.get(`/games/${game.gameId}/events`, game.tokens.players.player2);
    const last = events.body.commits.at(-1);
    const [key] = (await server.client.get('/keys')).body.keys;
    for (const token of [game.tokens.organizer, game.tokens.players.player1, game.tokens.players.player2]) {
      const head = (await server.client.get(`/games/${game.gameId}/head`, token)).body;
      expect(head).toEqual({ type: 'GameHead', gameId: game.gameId, seq: 2, lastHash: last.hash, sealed: false, at: expect.any(String), kid: key.kid, hash: expect.any(String), signature: expect.any(String) });
      expect(statementHash(head)).toBe(head.hash);
      expect(signatureIsValid(head.hash, head.signature, key)).toBe(true);
    }
    expect((await server.client.get(`/games/${game.gameId}/head`)).status).toBe(401);
    expect((await server.client.get(`/games/g-nothing/head`, game.tokens.organizer)).status).toBe(404);
  });

  it('puts the key log and a head naming its own last commit into every export', async () => {
    const game = await server.client.createGame();
    await server.client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    const bundle = (await server.client.get(`/games/${game.gameId}/export`, game.tokens.players.player1)).body;
    expect(bundle.keyLog).toEqual([]);
    expect(bundle.keys.keys[0].fingerprint).toBe(server.local.service.signer.fingerprint);
    expect(bundle.head).toMatchObject({ type: 'GameHead', gameId: game.gameId, seq: 2, lastHash: bundle.commits[1].hash, sealed: true });
    expect(signatureIsValid(bundle.head.hash, bundle.head.signature, bundle.keys.keys[0])).toBe(true);
  });
});
