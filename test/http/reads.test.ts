import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/http/routes';
import { signatureIsValid } from '../../domain/fairness/hashChain';
import type { LocalService } from '../../functions/local/localService';
import { startTestServer, type TestClient } from '../support/httpClient';

let local: LocalService;
let client: TestClient;
let game: Awaited<ReturnType<TestClient['createGame']>>;
let token: string;
beforeAll(async () => {
  ({ local, client } = await startTestServer());
  game = await client.createGame();
  token = game.tokens.players.player1;
  for (let i = 0; i < 9; i++) await client.command(game.gameId, token, { commandId: `r${i}`, type: 'Roll', payload: { dice: 'd20', purpose: `r${i}` } });
});
afterAll(async () => {
  await local?.close();
});

describe('GET /games/{id}/events', () => {
  it('pages with after and limit, and tags the version as ETag', async () => {
    const page = await client.get(`/games/${game.gameId}/events?after=2&limit=3`, token);
    expect(page.body.version).toBe(10);
    expect(page.body.commits.map((c: { seq: number }) => c.seq)).toEqual([3, 4, 5]);
    expect(page.headers.get('etag')).toBe('"10"');
    const all = await client.get(`/games/${game.gameId}/events`, token);
    expect(all.body.commits).toHaveLength(10);
  });

  it('answers 304 when If-None-Match holds the current version and nothing is newer', async () => {
    const reply = await client.get(`/games/${game.gameId}/events?after=10`, token, { 'if-none-match': '"10"' });
    expect(reply.status).toBe(304);
    expect(reply.text).toBe('');
    const stale = await client.get(`/games/${game.gameId}/events?after=8`, token, { 'if-none-match': '"8"' });
    expect(stale.status).toBe(200);
    expect(stale.body.commits.map((c: { seq: number }) => c.seq)).toEqual([9, 10]);
    // http-api.md: the current version in If-None-Match is a 304 whatever the page: this URL at this version answered before.
    const unchanged = await client.get(`/games/${game.gameId}/events?after=8`, token, { 'if-none-match': '"10"' });
    expect([unchanged.status, unchanged.headers.get('etag'), unchanged.text]).toEqual([304, '"10"', '']);
  });

  it('holds a wait=S request until the next commit arrives', async () => {
    // A game of its own: the commit it waits for would change the versions the other tests read.
    const quiet = await client.createGame();
    const player = quiet.tokens.players.player1;
    const waiting = client.get(`/games/${quiet.gameId}/events?after=1&wait=10`, player);
    await new Promise((r) => setTimeout(r, 200));
    await client.command(quiet.gameId, player, { commandId: 'wake', type: 'Roll', payload: { dice: 'd6', purpose: 'wake' } });
    const reply = await waiting;
    expect(reply.status).toBe(200);
    expect(reply.body.commits.map((c: { commandId: string }) => c.commandId)).toEqual(['wake']);
  });

  it('answers a wait that times out with 304 when If-None-Match matches, else with an empty page', async () => {
    const version = (await client.get(`/games/${game.gameId}`, token)).body.version;
    const tagged = await client.get(`/games/${game.gameId}/events?after=${version}&wait=1`, token, { 'if-none-match': `"${version}"` });
    expect(tagged.status).toBe(304);
    const untagged = await client.get(`/games/${game.gameId}/events?after=${version}&wait=1`, token);
    expect(untagged.status).toBe(200);
    expect(untagged.body.commits).toEqual([]);
  });
});

describe('public documents', () => {
  it('serves /health', async () => {
    expect((await client.get('/health')).body).toEqual({ ok: true });
  });

  it('serves the signing keys as a JWK set that checks the commits', async () => {
    const keys = (await client.get('/keys')).body.keys;
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
    expect(keys[0]).not.toHaveProperty('d');
    const [commit] = (await client.get(`/games/${game.gameId}/events?after=1&limit=1`, token)).body.commits;
    expect(commit.kid).toBe(keys[0].kid);
    expect(signatureIsValid(commit.hash, commit.signature, keys[0])).toBe(true);
  });

  it('lists the rulesets with their commands, who sends them, procedures and schemas', async () => {
    const { rulesets } = (await client.get('/rulesets')).body;
    const dice = rulesets.find((r: { id: string }) => r.id === 'dice');
    expect(dice.sides).toEqual(['player1', 'player2']);
    expect(dice.options.properties.sides.maxItems).toBe(8);
    const roll = dice.commands.find((c: { type: string }) => c.type === 'Roll');
    expect(roll.who).toMatchObject({ sides: 'all', organizer: true });
    // One roll, or several labelled rolls at once.
    expect(roll.payload.anyOf.map((branch: { required: string[] }) => branch.required)).toEqual([['dice', 'purpose'], ['rolls']]);
    expect(dice.commands.find((c: { type: string }) => c.type === 'Seal').who.text).toBe('the organizer only');
    expect(dice.procedures.map((p: { name: string }) => p.name)).toEqual(['roll']);
    expect(dice.state.properties).toHaveProperty('rolls');
  });

  it('serves an OpenAPI 3.1 document generated from the request schemas', async () => {
    const doc = (await client.get('/openapi.json')).body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.schemas.DiceRoll.anyOf[0].properties.purpose.maxLength).toBe(200);
    expect(doc.components.schemas.DiceRoll.anyOf[1].properties.rolls.items.properties.purpose.maxLength).toBe(200);
    expect(doc.components.schemas.DiceContributeEntropy.properties.entropy.maxLength).toBe(128);
    expect(doc.components.schemas.CommandRequest.required).toEqual(['commandId', 'type']);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/games', '/games/{id}/commands', '/games/{id}/events', '/games/{id}/export', '/games/{id}/verify', '/keys', '/rulesets/{ruleset}/evaluate']),
    );
    // Every route the server answers is described, with its method.
    for (const route of ROUTES) expect(doc.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
  });
});

describe('POST /rulesets/{ruleset}/evaluate', () => {
  it('uses given dice in order, ignoring extras', async () => {
    const reply = await client.post('/rulesets/dice/evaluate', { procedure: 'roll', input: { dice: '2d6+1' }, dice: [6, 5, 4] });
    expect(reply.body).toEqual({
      result: { total: 12, rolls: [6, 5] },
      breakdown: { dice: '2d6+1', modifier: 1, text: '6 5 +1 = 12' },
      dice: [
        { sides: 6, value: 6 },
        { sides: 6, value: 5 },
      ],
    });
  });

  it('draws fresh dice when none are given', async () => {
    const reply = await client.post('/rulesets/dice/evaluate', { procedure: 'roll', input: { dice: '4d8' } });
    expect(reply.status).toBe(200);
    expect(reply.body.dice).toHaveLength(4);
    for (const die of reply.body.dice) expect(die.value).toBeGreaterThanOrEqual(1);
  });

  it('answers 400 insufficient_dice with how many are needed, and 400 for a value the die cannot show', async () => {
    const few = await client.post('/rulesets/dice/evaluate', { procedure: 'roll', input: { dice: '3d6' }, dice: [1] });
    expect(few.status).toBe(400);
    expect(few.body.error).toMatchObject({ code: 'insufficient_dice', details: { needed: 3 } });
    const bad = await client.post('/rulesets/dice/evaluate', { procedure: 'roll', input: { dice: '1d6' }, dice: [7] });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_request']);
  });

  it('checks the rules before any die: a refused input needs no dice', async () => {
    const reply = await client.post('/rulesets/dice/evaluate', { procedure: 'roll', input: { dice: '200d6' }, dice: [] });
    expect([reply.status, reply.body.error.code]).toEqual([422, 'rule_violation']);
  });

  it('answers 404 for an unknown ruleset and 400 for an unknown procedure', async () => {
    expect((await client.post('/rulesets/chess/evaluate', { procedure: 'x' })).status).toBe(404);
    const reply = await client.post('/rulesets/dice/evaluate', { procedure: 'fly' });
    expect(reply.body.error.details.issues[0].field).toBe('procedure');
  });
});
