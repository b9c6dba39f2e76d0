import fc from 'fast-check';
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../functions/local/localService';
import { TestClient } from '../support/httpClient';
import { figure } from './figures';

let local: LocalService;
let client: TestClient;
let game: Awaited<ReturnType<TestClient['createGame']>>;
const unexpected: string[] = [];
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

beforeAll(async () => {
  local = await startLocalService({ observer: { unexpected: (e) => unexpected.push(`${e.name}: ${e.message}`) } });
  client = new TestClient(local.url);
  game = await client.createGame({ ruleset: 'france44' });
  await client.command(game.gameId, game.tokens.organizer, { commandId: 'turn-1', type: 'StartTurn', payload: { turn: 1, reactionPoints: { allied: 6, german: 6 } } });
});
afterAll(async () => {
  agent.destroy();
  await local?.close();
});

interface Raw {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Sends exactly what it is given (no URL normalization), on loopback. */
function send(raw: Raw): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(local.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method: raw.method, path: raw.path, headers: raw.headers, agent, timeout: 20_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    if (raw.body !== undefined) req.write(raw.body);
    req.end();
  });
}

const segment = fc.oneof(
  fc.constantFrom('games', 'commands', 'events', 'export', 'verify', 'rulesets', 'evaluate', 'keys', 'health', 'openapi.json', 'dice', 'france44', '..', '%2e%2e', '%00', '%ZZ', ''),
  fc.stringMatching(/^[A-Za-z0-9._~%-]{1,12}$/),
);
const paths = (gameId: string) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant(`/games/${gameId}/commands`) },
    fc.constantFrom('/health', '/rulesets', '/keys', '/openapi.json', '/games', `/games/${gameId}`, `/games/${gameId}/commands`, `/games/${gameId}/events`, `/games/${gameId}/export`, `/games/${gameId}/verify`, '/rulesets/france44/evaluate', '/rulesets/dice/evaluate'),
    fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => `/${parts.join('/')}`),
  );
const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?after=0', '?after=-1', '?limit=0', '?limit=1001', '?limit=abc', '?wait=0', '?wait=99', '?after=99999999999999', '?after=1&after=2', '?%ZZ', '?limit=5&after=1'),
  fc.dictionary(fc.constantFrom('after', 'limit', 'wait', 'x'), fc.stringMatching(/^[0-9a-z-]{0,6}$/)).map((q) => `?${new URLSearchParams(q)}`),
);
const jsonValue = fc.jsonValue({ maxDepth: 4 });
const commandBody = fc.record(
  {
    commandId: fc.oneof(fc.stringMatching(/^[A-Za-z0-9._:-]{1,20}$/), fc.string(), fc.integer()),
    type: fc.oneof(fc.constantFrom('StartTurn', 'DeclareCombat', 'ResolveCombat', 'RollAirPower', 'ReactionPhase', 'Seal', 'ContributeEntropy', 'BeginAttackIncrement'), fc.string()),
    payload: fc.oneof(jsonValue, fc.record({ turn: fc.integer({ min: -2, max: 4 }) }), fc.record({ entropy: fc.string({ maxLength: 200 }) }), fc.record({ combatId: fc.string(), availability: fc.integer({ min: -1, max: 7 }) })),
    expectedVersion: fc.oneof(fc.integer({ min: -1, max: 5 }), fc.string()),
    as: fc.constantFrom('allied', 'german', 'organizer', 'nobody'),
  },
  { requiredKeys: [] },
);
/** Commands that may well be accepted, so that the accounting below is tested. */
const plausibleCommand = fc.record({
  commandId: fc.stringMatching(/^[a-z0-9]{6,12}$/),
  type: fc.constantFrom('ContributeEntropy', 'ActivateHQ', 'BeginReactionSegment', 'DeclineReactionSegment'),
  payload: fc.oneof(fc.record({ entropy: fc.string({ minLength: 1, maxLength: 20 }) }), fc.record({ hqId: fc.constantFrom('7', '15', '1US') }), fc.constant({})),
});
const body = fc.oneof(
  { weight: 3, arbitrary: plausibleCommand.map((v) => JSON.stringify(v)) },
  fc.constant(undefined),
  jsonValue.map((v) => JSON.stringify(v)),
  commandBody.map((v) => JSON.stringify(v)),
  fc.record({ ruleset: fc.constantFrom('dice', 'france44', 'memoir44-d6', 'nope'), options: jsonValue, public: fc.boolean() }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
  fc.record({ procedure: fc.constantFrom('combat', 'crdt', 'air-power', 'roll', 'x'), input: jsonValue, dice: fc.array(fc.integer({ min: -2, max: 8 }), { maxLength: 4 }) }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 300 }),
  fc.constantFrom('{', '{"a":"\\ud800"}', '[]', 'null', '{"commandId":"x","type":"Roll","payload":{"dice":"999999999d6","purpose":"p"}}', `{"title":"${'x'.repeat(70_000)}"}`),
);

describe('fuzzing the HTTP API', () => {
  it('never answers 5xx or a stack trace, always the error shape, and a refused request changes nothing', async () => {
    const tokens = [undefined, 'garbage', 'Bearer', game.tokens.organizer, game.tokens.players.allied, game.tokens.players.german];
    const request = fc.record({
      method: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('GET', 'POST') }, fc.constantFrom('PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS')),
      path: paths(game.gameId),
      query,
      token: fc.constantFrom(...tokens),
      scheme: fc.oneof({ weight: 3, arbitrary: fc.constant('Bearer ') }, fc.constantFrom('bearer ', 'Basic ', '')),
      accept: fc.constantFrom(undefined, 'application/json', 'text/plain', '*/*', 'text/html;q=0.9, text/plain'),
      ifNoneMatch: fc.constantFrom(undefined, '"1"', 'W/"2"', '*', 'garbage'),
      contentType: fc.constantFrom(undefined, 'application/json', 'text/plain', 'application/x-www-form-urlencoded'),
      body,
    });
    let tried = 0;
    let accepted = 0;
    const statuses = new Map<number, number>();
    const versionBefore = (await client.get(`/games/${game.gameId}`, game.tokens.organizer)).body.version;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers: Record<string, string> = {};
        if (r.token !== undefined) headers.authorization = `${r.scheme}${r.token}`;
        if (r.accept) headers.accept = r.accept;
        if (r.ifNoneMatch) headers['if-none-match'] = r.ifNoneMatch;
        if (r.contentType) headers['content-type'] = r.contentType;
        const hasBody = r.body !== undefined && !['GET', 'HEAD'].includes(r.method);
        if (hasBody) headers['content-length'] = String(Buffer.byteLength(r.body!));
        const reply = await send({ method: r.method, path: `${r.path}${r.query}`, headers, body: hasBody ? r.body : undefined });
        tried += 1;
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        expect(reply.status, `${r.method} ${r.path}${r.query}`).toBeLessThan(500);
        expect(reply.body).not.toMatch(/\n\s+at .+(\.ts|\.js|\.mjs):\d+/);
        if (reply.status >= 400 && r.method !== 'HEAD' && /^text\/plain/.test(String(reply.headers['content-type']))) {
          // Accept preferred text/plain: the error is one line (docs/http-api.md "Errors as one line of text").
          expect(r.accept === 'text/plain' || r.accept === 'text/html;q=0.9, text/plain').toBe(true);
          expect(reply.body).toMatch(new RegExp(`^${reply.status} [a-z_]+: [^\\n\\r]*\\n$`));
        } else if (reply.status >= 400 && r.method !== 'HEAD') {
          const parsed = JSON.parse(reply.body);
          expect(Object.keys(parsed)).toEqual(['error']);
          expect(typeof parsed.error.code).toBe('string');
          expect(typeof parsed.error.message).toBe('string');
        }
        if (r.method === 'POST' && r.path === `/games/${game.gameId}/commands` && reply.status === 201) accepted += 1;
      }),
      { numRuns: 5000, seed: 44, endOnFailure: true },
    );
    const versionAfter = (await client.get(`/games/${game.gameId}`, game.tokens.organizer)).body.version;
    // Only the accepted commands moved the game: every refused request left it as it was.
    expect(versionAfter - versionBefore).toBe(accepted);
    expect(unexpected).toEqual([]);
    figure('Fuzzing', 'generated requests (methods, paths, queries, headers, bodies)', tried);
    figure('Fuzzing', 'answers by status', [...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', '));
    figure('Fuzzing', 'commands accepted / game versions added', `${accepted} / ${versionAfter - versionBefore}`);
    figure('Fuzzing', '5xx answers, stack traces, unexpected errors', 0);
  });
});
