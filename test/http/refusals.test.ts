import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalService } from '../../functions/local/localService';
import { startTestServer, type TestClient } from '../support/httpClient';

let local: LocalService;
let client: TestClient;
let game: Awaited<ReturnType<TestClient['createGame']>>;
let other: Awaited<ReturnType<TestClient['createGame']>>;
beforeAll(async () => {
  ({ local, client } = await startTestServer());
  game = await client.createGame();
  other = await client.createGame();
});
afterAll(async () => {
  await local?.close();
});

const roll = (commandId: string, extra: Record<string, unknown> = {}) => ({ commandId, type: 'Roll', payload: { dice: 'd6', purpose: 'p' }, ...extra });
const code = (reply: { body: any }) => reply.body?.error?.code;

describe('401 / 403 / 404 matrix', () => {
  const reads = ['', '/events', '/export', '/verify'];

  it('answers 404 for an unknown game, whatever the token', async () => {
    for (const token of [undefined, game.tokens.organizer]) {
      expect((await client.command('g-unknown', token!, roll('x'))).status).toBe(404);
      for (const path of reads) expect((await client.get(`/games/g-unknown${path}`, token)).status).toBe(404);
    }
    expect((await client.get('/games/..%2F..%2Fetc')).status).toBe(404);
  });

  it('answers 401 without a token, with a malformed one, or with another game\'s token', async () => {
    for (const token of [undefined, 'not-a-token', other.tokens.organizer, other.tokens.players.player1]) {
      const command = await client.command(game.gameId, token!, roll('x'));
      expect([command.status, code(command)]).toEqual([401, 'unauthenticated']);
      for (const path of reads) expect((await client.get(`/games/${game.gameId}${path}`, token)).status).toBe(401);
    }
    const basic = await client.request('GET', `/games/${game.gameId}`, { headers: { authorization: `Basic ${game.tokens.organizer}` } });
    expect(basic.status).toBe(401);
  });

  it('lets every token of the game read it', async () => {
    for (const token of [game.tokens.organizer, game.tokens.players.player1, game.tokens.players.player2]) {
      for (const path of reads) expect((await client.get(`/games/${game.gameId}${path}`, token)).status).toBe(200);
    }
  });

  it('answers 403 to a side sending an organizer command, or using "as"', async () => {
    const seal = await client.command(game.gameId, game.tokens.players.player1, { commandId: 's', type: 'Seal', payload: {} });
    expect([seal.status, code(seal)]).toEqual([403, 'forbidden']);
    for (const as of ['player2', 'player1']) {
      const reply = await client.command(game.gameId, game.tokens.players.player1, roll(`as-${as}`, { as }));
      expect([reply.status, code(reply)]).toEqual([403, 'forbidden']);
    }
  });

  it('answers 403 to the organizer acting "as" someone who is not a side', async () => {
    for (const as of ['organizer', 'player3']) {
      const reply = await client.command(game.gameId, game.tokens.organizer, roll(`org-${as}`, { as }));
      expect([reply.status, code(reply)]).toEqual([403, 'forbidden']);
    }
  });

  it('serves a public game to anyone, but still wants a token for commands', async () => {
    const open = await client.createGame({ ruleset: 'dice', public: true });
    for (const path of reads) expect((await client.get(`/games/${open.gameId}${path}`)).status).toBe(200);
    expect((await client.command(open.gameId, undefined!, roll('x'))).status).toBe(401);
  });

  it('changes nothing while refusing', async () => {
    const token = game.tokens.organizer;
    const before = await client.get(`/games/${game.gameId}/events?limit=1000`, token);
    const refusals = [
      await client.command(game.gameId, undefined!, roll('unchanged-1')),
      await client.command(game.gameId, other.tokens.players.player1, roll('unchanged-2')),
      await client.command(game.gameId, game.tokens.players.player1, { commandId: 'unchanged-3', type: 'Seal', payload: {} }),
      await client.command(game.gameId, game.tokens.players.player1, roll('unchanged-4', { as: 'player2' })),
      await client.command(game.gameId, game.tokens.organizer, roll('unchanged-5', { as: 'player3' })),
      await client.command(game.gameId, game.tokens.players.player1, { commandId: 'unchanged-6', type: 'Roll', payload: { dice: 'd6' } }),
    ];
    expect(refusals.map((reply) => reply.status)).toEqual([401, 401, 403, 403, 403, 400]);
    const after = await client.get(`/games/${game.gameId}/events?limit=1000`, token);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
    expect((await client.get(`/games/${game.gameId}`, token)).body.version).toBe(1);
  });
});

describe('malformed requests get 400 with the field named', () => {
  const post = (body: unknown) => client.command(game.gameId, game.tokens.players.player1, body as Record<string, unknown>);
  const fields = (reply: { body: any }) => reply.body.error.details.issues.map((i: { field: string }) => i.field);

  it.each([
    [{ type: 'Roll', payload: { dice: 'd6', purpose: 'p' } }, 'commandId'],
    [{ commandId: 'has space', type: 'Roll', payload: { dice: 'd6', purpose: 'p' } }, 'commandId'],
    [{ commandId: 'a', type: 'Fly', payload: {} }, 'type'],
    [{ commandId: 'a', type: 'Roll', payload: { dice: 'd6' } }, 'payload.purpose'],
    [{ commandId: 'a', type: 'Roll', payload: { dice: '2d6*3', purpose: 'p' } }, 'payload.dice'],
    [{ commandId: 'a', type: 'Roll', payload: { dice: [{ count: 0, sides: 6 }], purpose: 'p' } }, 'payload.dice[0].count'],
    [{ commandId: 'a', type: 'Roll', payload: { dice: 'd6', purpose: 'p', extra: 1 } }, 'payload'],
    [{ commandId: 'a', type: 'Roll', payload: { dice: 'd6', purpose: 'p' }, expectedVersion: 'two' }, 'expectedVersion'],
    [{ commandId: 'a', type: 'ContributeEntropy', payload: { entropy: 'x'.repeat(129) } }, 'payload.entropy'],
    [[1, 2], '(body)'],
  ])('%j → %s', async (body, field) => {
    const reply = await post(body);
    expect(reply.status).toBe(400);
    expect(code(reply)).toBe('invalid_request');
    expect(fields(reply)).toContain(field);
  });

  it('names the position in a bad dice expression', async () => {
    const reply = await post({ commandId: 'a', type: 'Roll', payload: { dice: '3d6+x', purpose: 'p' } });
    expect(reply.body.error.details.issues[0].message).toMatch(/position 5/);
  });

  it('refuses a body that is not JSON, or holds a lone surrogate', async () => {
    const broken = await client.request('POST', `/games/${game.gameId}/commands`, { token: game.tokens.players.player1, raw: '{"commandId":' });
    expect([broken.status, code(broken)]).toEqual([400, 'invalid_request']);
    const surrogate = await client.request('POST', `/games/${game.gameId}/commands`, {
      token: game.tokens.players.player1,
      raw: '{"commandId":"s","type":"Roll","payload":{"dice":"d6","purpose":"\\ud800"}}',
    });
    expect(surrogate.status).toBe(400);
    expect(fields(surrogate)).toEqual(['payload.purpose']);
  });

  it('refuses bytes that are not UTF-8 with a 400 rather than storing U+FFFD, however many', async () => {
    const token = game.tokens.players.player1;
    const before = (await client.get(`/games/${game.gameId}`, token)).body.version;
    const invalid = Buffer.concat([Buffer.from('{"commandId":"utf8","type":"Roll","payload":{"dice":"d6","purpose":"caf'), Buffer.from([0xe9]), Buffer.from('"}}')]);
    const reply = await client.request('POST', `/games/${game.gameId}/commands`, { token, raw: invalid });
    expect([reply.status, code(reply), fields(reply)]).toEqual([400, 'invalid_request', ['(body)']]);
    expect(reply.body.error.details.issues[0].message).toMatch(/not valid UTF-8/);
    const ff = await client.request('POST', `/games/${game.gameId}/commands`, { token, raw: Buffer.alloc(30_000, 0xff) });
    expect([ff.status, code(ff)]).toEqual([400, 'invalid_request']);
    expect((await client.get(`/games/${game.gameId}`, token)).body.version).toBe(before);
  });

  it('refuses JSON nested deeper than 64 levels on every route with a body, with a 400 naming the field', async () => {
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const bodies = [
      ['POST', '/games', `{"ruleset":"dice","options":{"sides":${deep(8_000)}}}`],
      ['POST', `/games/${game.gameId}/commands`, `{"commandId":"deep","type":"Roll","payload":{"dice":${deep(8_000)},"purpose":"p"}}`],
      ['POST', '/rulesets/dice/evaluate', `{"procedure":"roll","input":{"dice":${deep(8_000)}}}`],
    ];
    for (const [method, path, raw] of bodies) {
      const reply = await client.request(method, path, { token: game.tokens.players.player1, raw });
      expect([reply.status, code(reply)], path).toEqual([400, 'invalid_request']);
      expect(reply.body.error.details.issues[0].message).toMatch(/nested more than 64 levels deep/);
    }
  });

  it('answers 413 to a body over 64 KB', async () => {
    const reply = await client.request('POST', '/games', { raw: JSON.stringify({ ruleset: 'dice', title: 'x'.repeat(70_000) }) });
    expect([reply.status, code(reply)]).toEqual([413, 'payload_too_large']);
  });

  it('refuses a game title that would break or disguise a line', async () => {
    for (const title of ['Kursk\n#2 organizer Seal', 'Kursk\u202e', '   ']) {
      const reply = await client.post('/games', { ruleset: 'dice', title });
      expect([reply.status, fields(reply)], JSON.stringify(title)).toEqual([400, ['title']]);
    }
  });

  it('checks game creation', async () => {
    const unknown = await client.post('/games', { ruleset: 'chess' });
    expect(fields(unknown)).toEqual(['ruleset']);
    const badSides = await client.post('/games', { ruleset: 'dice', options: { sides: ['only-one'] } });
    expect(badSides.status).toBe(400);
    expect(fields(badSides)[0]).toMatch(/^options\.sides/);
  });

  it('checks paging parameters', async () => {
    for (const query of ['limit=0', 'limit=1001', 'after=-1', 'wait=21', 'after=abc']) {
      const reply = await client.get(`/games/${game.gameId}/events?${query}`, game.tokens.organizer);
      expect(reply.status).toBe(400);
      expect(fields(reply)).toContain(query.split('=')[0]);
    }
  });

  it('answers unknown routes with JSON 404 and wrong methods with 405', async () => {
    const missing = await client.get('/nothing');
    expect([missing.status, code(missing)]).toEqual([404, 'not_found']);
    // Found by the fuzzer: a path starting "//" once read as a host and answered 500.
    const { request } = await import('node:http');
    const url = new URL(local.url);
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: url.hostname, port: url.port, path: '//_%~-/x', method: 'POST' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject).end();
    });
    expect(status).toBe(404);
    expect((await client.request('DELETE', '/games')).status).toBe(405);
  });

  it('never shows a stack trace', async () => {
    const token = game.tokens.players.player1;
    const from = client.transcript.length;
    const refused = [
      await client.request('POST', `/games/${game.gameId}/commands`, { token, raw: '{"commandId":' }),
      await client.request('POST', `/games/${game.gameId}/commands`, { token, raw: Buffer.from([0x7b, 0xff, 0x7d]) }),
      await client.command(game.gameId, token, { commandId: 'trace', type: 'Roll', payload: { dice: '3d6+x', purpose: 'p' } }),
      await client.command(game.gameId, token, { commandId: 'trace', type: 'Fly', payload: { constructor: { prototype: 1 } } }),
      await client.command(game.gameId, 'not-a-token', roll('trace')),
      await client.get(`/games/${game.gameId}/events?after=abc`, token),
      await client.post('/games', { ruleset: '__proto__' }),
      await client.post('/rulesets/dice/evaluate', { procedure: 'roll', input: { dice: '1d6' }, dice: [7] }),
      await client.get('/nothing'),
    ];
    expect(refused.map((reply) => Math.floor(reply.status / 100))).toEqual(Array(refused.length).fill(4));
    expect(client.transcript.length - from).toBe(refused.length);
    // Every response of this file so far, these included.
    for (const text of client.transcript) expect(text).not.toMatch(/at .+\.(ts|js):\d+/);
  });
});
