import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideCreate } from '../../domain/game/decideGame';
import { allRulesets } from '../../domain/rulesets/registry';
import { tableRuleset } from '../../domain/rulesets/table';
import type { EventStore } from '../../functions/ports/eventStore';
import { startLocalService, type LocalService } from '../../functions/local/localService';
import { errorLine } from '../../functions/http/errorAnswer';
import { TestClient, type Reply } from '../support/httpClient';

const ZOD_TEXT = /Too small|Too big|Invalid input|Invalid option|Invalid string|expected \w+, received|Unrecognized key|>=|<=/;
const TEXT = { accept: 'text/plain' };
const RULESET_IDS = allRulesets().map((r) => r.id);
const example = (name: string) => JSON.parse(readFileSync(new URL(`../../docs/examples/tables/${name}.json`, import.meta.url), 'utf8'));

let local: LocalService;
let client: TestClient;
/** A second server: one game an hour per address, and a store that can be made to fail unexpectedly. */
let strict: LocalService;
let strictClient: TestClient;
let storeBroken = false;

/** A store whose every call throws a plain Error while `storeBroken`: the service's own fault, a 500. */
function breakable(store: EventStore): EventStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (storeBroken) throw new Error('disk on fire');
        return value.apply(target, args);
      };
    },
  });
}

beforeAll(async () => {
  local = await startLocalService({ observer: { unexpected: () => {} } });
  client = new TestClient(local.url);
  strict = await startLocalService({ creationQuota: { perHour: 1 }, wrapStore: breakable, observer: { unexpected: () => {} } });
  strictClient = new TestClient(strict.url);
});
afterAll(async () => {
  await local?.close();
  await strict?.close();
});

/** The answer is one error line, `<status> <code>: …`, ended by one line feed and holding no other. */
function expectOneLine(reply: Reply, status: number, code: string): string {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(reply.text.endsWith('\n')).toBe(true);
  const line = reply.text.slice(0, -1);
  expect(line).not.toMatch(/[\n\r\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  expect(line.startsWith(`${status} ${code}: `), line).toBe(true);
  return line;
}

describe('every 400 names the field and says what is wanted in words', () => {
  it('words a list that is too short with its field and both bounds', async () => {
    const reply = await client.post('/games', { ruleset: 'dice', options: { sides: ['solo'] } });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details.issues).toEqual([{ field: 'options.sides', message: 'needs 2 to 8 items' }]);
    expect(reply.body.error.message).toBe('Invalid request: `options.sides` needs 2 to 8 items.');
  });

  it('words a number out of range, a wrong type, a value none of the forms take, and a field that is not taken', async () => {
    const game = await client.createGame();
    const send = (payload: unknown, extra: Record<string, unknown> = {}) =>
      client.command(game.gameId, game.tokens.players.player1, { commandId: `c-${Math.random().toString(36).slice(2)}`, type: 'Roll', payload, ...extra });
    const count = await send({ dice: [{ count: 0, sides: 6 }], purpose: 'p' });
    expect(count.body.error.details.issues).toEqual([{ field: 'payload.dice[0].count', message: 'must be a whole number of at least 1' }]);
    const kind = await send({ dice: true, purpose: 'p' });
    expect(kind.body.error.details.issues).toEqual([{ field: 'payload.dice', message: 'must be text or a list' }]);
    const version = await send({ dice: 'd6', purpose: 'p' }, { expectedVersion: 'two' });
    expect(version.body.error.details.issues).toEqual([{ field: 'expectedVersion', message: 'must be a whole number, not text' }]);
    const extra = await send({ dice: 'd6', purpose: 'p', colour: 'red' });
    expect(extra.body.error.details.issues).toEqual([{ field: 'payload', message: 'does not take the field "colour"; its fields are dice, purpose' }]);
    const missing = await send({ dice: 'd6' });
    expect(missing.body.error.details.issues).toEqual([{ field: 'payload.purpose', message: 'is required: text' }]);
    for (const reply of [count, kind, version, extra, missing]) {
      expect(reply.status).toBe(400);
      expect(reply.body.error.message).not.toMatch(ZOD_TEXT);
    }
  });

  it('keeps the words a schema wrote itself', async () => {
    const game = await client.createGame();
    const reply = await client.command(game.gameId, game.tokens.players.player1, { commandId: 'c', type: 'Roll', payload: { dice: '3d6+x', purpose: 'p' } });
    expect(reply.body.error.details.issues[0]).toMatchObject({ field: 'payload.dice', message: expect.stringMatching(/position 5/) });
  });
});

describe('an unknown ruleset, command or procedure lists the valid ones', () => {
  it('POST /games with an unknown ruleset: 400 naming `ruleset`, the rulesets in the message and in details', async () => {
    const reply = await client.post('/games', { ruleset: 'chess' });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details.issues).toEqual([{ field: 'ruleset', message: expect.stringContaining(RULESET_IDS.join(', ')), valid: RULESET_IDS }]);
    expect(reply.body.error.message).toContain('"chess"');
  });

  it('POST /rulesets/{unknown}/evaluate: 404 with the rulesets', async () => {
    const reply = await client.post('/rulesets/chess/evaluate', { procedure: 'roll' });
    expect(reply.status).toBe(404);
    expect(reply.body.error).toEqual({ code: 'not_found', message: `No ruleset "chess": the rulesets are ${RULESET_IDS.join(', ')}.`, details: { valid: RULESET_IDS } });
  });

  it('an unknown command type: 400 naming `type`, with the commands of the game', async () => {
    const game = await client.createGame();
    const reply = await client.command(game.gameId, game.tokens.players.player1, { commandId: 'c', type: 'Fly', payload: {} });
    expect(reply.status).toBe(400);
    const [issue] = reply.body.error.details.issues;
    expect(issue.field).toBe('type');
    expect(issue.valid).toEqual(expect.arrayContaining(['Roll', 'ContributeEntropy', 'Seal']));
    expect(issue.message).toContain(issue.valid.join(', '));
  });

  it('an unknown procedure: 400 naming `procedure`, with the procedures of the ruleset', async () => {
    const reply = await client.post('/rulesets/dice/evaluate', { procedure: 'fly' });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details.issues).toEqual([{ field: 'procedure', message: 'must be a procedure of the dice ruleset, not "fly": its procedures are roll', valid: ['roll'] }]);
  });
});

describe('Accept: text/plain makes every error one line', () => {
  it('a refused command: `422 rule_violation: …` with its rule folded in', async () => {
    const game = await client.createGame();
    const reply = await client.command(game.gameId, game.tokens.players.player1, { commandId: 'many', type: 'Roll', payload: { dice: '101d6', purpose: 'p' } }, TEXT);
    const line = expectOneLine(reply, 422, 'rule_violation');
    expect(line).toMatch(/\(rule: dice: /);
  });

  it('a 400 before the handler (a body that is not JSON), a 400 of the schema, a 401 and a 404 of the game', async () => {
    const game = await client.createGame();
    const notJson = await client.request('POST', `/games/${game.gameId}/commands`, { token: game.tokens.players.player1, raw: '{"commandId":', headers: TEXT });
    expect(expectOneLine(notJson, 400, 'invalid_request')).toMatch(/^400 invalid_request: Invalid request: the body is not valid JSON/);
    const schema = await client.post('/games', { ruleset: 'dice', options: { sides: ['solo'] } }, undefined, TEXT);
    expect(expectOneLine(schema, 400, 'invalid_request')).toBe('400 invalid_request: Invalid request: `options.sides` needs 2 to 8 items.');
    expectOneLine(await client.get(`/games/${game.gameId}`, undefined, TEXT), 401, 'unauthenticated');
    expectOneLine(await client.get('/games/g-nothing-here', game.tokens.organizer, TEXT), 404, 'not_found');
  });

  it('a 404 and a 405 of the router, a 413 of the body', async () => {
    expectOneLine(await client.get('/no/such/route', undefined, TEXT), 404, 'not_found');
    expectOneLine(await client.request('DELETE', '/health', { headers: TEXT }), 405, 'method_not_allowed');
    const big = await client.request('POST', '/games', { raw: JSON.stringify({ ruleset: 'dice', title: 'x'.repeat(70_000) }), headers: TEXT });
    expect(expectOneLine(big, 413, 'payload_too_large')).toMatch(/\(maxBytes: 65536\)$/);
  });

  it('a 429 with its Retry-After, and a 500', async () => {
    await strictClient.createGame();
    const quota = await strictClient.post('/games', { ruleset: 'dice' }, undefined, TEXT);
    expectOneLine(quota, 429, 'creation_quota');
    expect(Number(quota.headers.get('retry-after'))).toBeGreaterThan(0);
    storeBroken = true;
    try {
      expectOneLine(await strictClient.get('/games/g-any', 'token', TEXT), 500, 'internal_error');
    } finally {
      storeBroken = false;
    }
  });

  it('escapes what a client sent: a line break or a direction control in a path stays inside the line', async () => {
    for (const path of ['/assets/a%0A500%20internal_error', '/assets/b%E2%80%AEtxt.exe', '/docs/assets/c%0D%0Ad']) {
      const line = expectOneLine(await client.get(path, undefined, TEXT), 404, 'not_found');
      expect(line).toMatch(/\\(n|r|u202e)/);
    }
  });

  it('folds short details into the line and leaves long ones to the JSON answer, saying so', async () => {
    const unknown = expectOneLine(await client.post('/rulesets/chess/evaluate', { procedure: 'roll' }, undefined, TEXT), 404, 'not_found');
    expect(unknown).toBe(`404 not_found: No ruleset "chess": the rulesets are ${RULESET_IDS.join(', ')}.`);
    expect(errorLine(409, 'version_conflict', 'The game is at version 5, not the expected one.', { currentVersion: 5 })).toBe(
      '409 version_conflict: The game is at version 5, not the expected one. (currentVersion: 5)',
    );
    expect(errorLine(422, 'rule_violation', 'No.', { rule: 'r', trace: 'x'.repeat(500) })).toBe('422 rule_violation: No. (rule: r; more with Accept: application/json)');
  });

  it('answers JSON unless text/plain is preferred: q-values compared, ties and */* are JSON', async () => {
    const cases: [string, 'text' | 'json'][] = [
      ['text/plain', 'text'],
      ['text/plain, */*;q=0.1', 'text'],
      ['application/json;q=0.5, text/plain', 'text'],
      ['text/plain, application/json', 'json'],
      ['text/plain;q=0.5, application/json', 'json'],
      ['*/*', 'json'],
      ['text/plain;q=0.5, */*;q=0.5', 'json'],
      ['text/plain;q=0', 'json'],
      ['text/html', 'json'],
    ];
    for (const [accept, expected] of cases) {
      const reply = await client.get('/games/g-nothing-here', undefined, { accept });
      expect(reply.status).toBe(404);
      expect(reply.headers.get('content-type'), accept).toMatch(expected === 'text' ? /^text\/plain/ : /^application\/json/);
    }
  });

  it('a refused command sent from a chat client reads as one line, a JSON client still gets JSON', async () => {
    const game = await client.createGame();
    const command = { commandId: 'seal-by-side', type: 'Seal', payload: {} };
    const asText = await client.command(game.gameId, game.tokens.players.player1, command, TEXT);
    expect(expectOneLine(asText, 403, 'forbidden')).toBe('403 forbidden: The player1 side may not send Seal.');
    const asJson = await client.command(game.gameId, game.tokens.players.player1, command);
    expect(asJson.body.error).toEqual({ code: 'forbidden', message: 'The player1 side may not send Seal.' });
  });
});

describe('a table game needs at least one table at creation (400 naming options.tables)', () => {
  it('refuses a table game created with no tables, or an empty list', async () => {
    for (const options of [undefined, {}, { tables: [] }]) {
      const reply = await client.post('/games', { ruleset: 'table', ...(options ? { options } : {}) });
      expect(reply.status, JSON.stringify(options)).toBe(400);
      expect(reply.body.error.details.issues).toEqual([{ field: 'options.tables', message: expect.stringMatching(/needs at least one table/) }]);
    }
  });

  it('still creates one with a table, and /evaluate of `table` needs no tables in its options', async () => {
    const table = example('france44-crt-set-piece');
    expect((await client.post('/games', { ruleset: 'table', options: { tables: [table] } })).status).toBe(201);
    const evaluated = await client.post('/rulesets/table/evaluate', { procedure: 'resolve', input: { table, attack: 6, defence: 2 }, dice: [4] });
    expect(evaluated.status).toBe(200);
    const noTable = await client.post('/rulesets/table/evaluate', { procedure: 'resolve', input: { attack: 6, defence: 2 }, dice: [4] });
    expect([noTable.status, noTable.body.error.details.issues]).toEqual([400, [{ field: 'input.table', message: 'is required: an object' }]]);
  });

  it('publishes that a new game needs a table, in the catalogue', async () => {
    const catalogue = await client.get('/rulesets');
    const table = catalogue.body.rulesets.find((r: { id: string }) => r.id === 'table');
    expect(table.options.required).toContain('tables');
    expect(table.options.properties.tables.minItems).toBe(1);
  });

  it('a game recorded with no table (before creations needed one) still replays its creation', () => {
    expect(decideCreate(tableRuleset, { ruleset: 'table' }, 'c'.repeat(64)).data).toMatchObject({ options: { tables: [] } });
  });
});
