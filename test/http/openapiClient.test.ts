import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../support/httpClient';
import { run } from '../support/runCli';

const ROOT = new URL('../..', import.meta.url).pathname;
const server = useTestServer();

/**
 * A short program an integrator would write against the generated types: create a dice
 * game, add entropy, roll, read the events (narrowed by their `type`), poll with the
 * ETag, read the game's state, meet a refusal, seal. It throws on any answer it does not
 * expect. Below it, assignments the types must refuse.
 */
const PROGRAM = `
import type { components, paths } from './api';

type Schemas = components['schemas'];
type CreateGameRequest = paths['/games']['post']['requestBody']['content']['application/json'];
type GameCreated = paths['/games']['post']['responses'][201]['content']['application/json'];
type CommandRequest = paths['/games/{id}/commands']['post']['requestBody']['content']['application/json'];
type CommandAccepted = paths['/games/{id}/commands']['post']['responses'][201]['content']['application/json'];
type EventsPage = paths['/games/{id}/events']['get']['responses'][200]['content']['application/json'];
type Game = paths['/games/{id}']['get']['responses'][200]['content']['application/json'];
type ApiError = Schemas['Error'];

interface Answer<T> { status: number; headers: Headers; body: T }

async function send<T>(base: string, method: string, path: string, init: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = 'Bearer ' + init.token;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(base + path, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
}

function expectStatus(answer: Answer<unknown>, status: number, what: string): void {
  if (answer.status !== status) throw new Error(what + ': expected ' + status + ', got ' + answer.status + ' ' + JSON.stringify(answer.body));
}

export async function play(base: string) {
  const request: CreateGameRequest = { ruleset: 'dice', title: 'A typed client', options: { sides: ['red', 'blue'] } };
  const created = await send<GameCreated>(base, 'POST', '/games', { body: request });
  expectStatus(created, 201, 'create');
  const { gameId, tokens } = created.body;
  const red = tokens.players['red'];
  const blue = tokens.players['blue'];

  const entropy: CommandRequest = { commandId: 'entropy-red', type: 'ContributeEntropy', payload: { entropy: 'red sky at night' } };
  expectStatus(await send(base, 'POST', '/games/' + gameId + '/commands', { token: red, body: entropy }), 201, 'entropy');

  const roll: CommandRequest = { commandId: 'roll-1', type: 'Roll', payload: { dice: '2d6+1', purpose: 'opening barrage' } };
  const accepted = await send<CommandAccepted>(base, 'POST', '/games/' + gameId + '/commands', { token: blue, body: roll });
  expectStatus(accepted, 201, 'roll');
  let total = 0;
  let rolls: number[] = [];
  for (const event of accepted.body.commit.events) {
    if (event.type === 'DiceRolled') {
      total = event.data.total;
      rolls = event.data.rolls.map((die) => die.value);
    }
  }

  const page = await send<EventsPage>(base, 'GET', '/games/' + gameId + '/events?after=0', { token: red });
  expectStatus(page, 200, 'events');
  const types: string[] = [];
  for (const commit of page.body.commits) for (const event of commit.events) types.push(event.type);
  const etag = page.headers.get('etag') ?? '';
  const unchanged = await send<undefined>(base, 'GET', '/games/' + gameId + '/events?after=' + page.body.version, { token: red, headers: { 'if-none-match': etag } });
  expectStatus(unchanged, 304, 'poll');

  const game = await send<Game>(base, 'GET', '/games/' + gameId, { token: red });
  expectStatus(game, 200, 'game');
  const lastTotal = game.body.ruleset === 'dice' ? (game.body.state.lastRoll?.total ?? null) : null;

  const seal: CommandRequest = { commandId: 'seal', type: 'Seal', payload: {} };
  const refused = await send<ApiError>(base, 'POST', '/games/' + gameId + '/commands', { token: blue, body: seal });
  expectStatus(refused, 403, 'a side seals');
  const sealed = await send<CommandAccepted>(base, 'POST', '/games/' + gameId + '/commands', { token: tokens.organizer, body: seal });
  expectStatus(sealed, 201, 'seal');
  let serverSeed = '';
  for (const event of sealed.body.commit.events) if (event.type === 'GameSealed') serverSeed = event.data.serverSeed;

  return { gameId, total, rolls, types, etag, version: page.body.version, lastTotal, refusal: refused.body.error.code, serverSeed };
}

// The generated types are strict enough to refuse these.
// @ts-expect-error a Roll needs its purpose
const noPurpose: CommandRequest = { commandId: 'x', type: 'Roll', payload: { dice: 'd6' } };
// @ts-expect-error no ruleset has a command named Fly
const unknownType: CommandRequest = { commandId: 'x', type: 'Fly', payload: {} };
// @ts-expect-error StartTurn takes a turn number
const badTurn: CommandRequest = { commandId: 'x', type: 'StartTurn', payload: { turn: 'one' } };
// @ts-expect-error ReissueToken is sent by its own route, not to /commands
const serviceCommand: CommandRequest = { commandId: 'x', type: 'ReissueToken', payload: { role: 'red', tokenId: 'k-1' } };
// @ts-expect-error no such ruleset
const badRuleset: CreateGameRequest = { ruleset: 'chess' };
// @ts-expect-error the dice ruleset has no option "colour"
const badOption: CreateGameRequest = { ruleset: 'dice', options: { colour: 'red' } };
export const refusedByTheTypes = [noPurpose, unknownType, badTurn, serviceCommand, badRuleset, badOption];
`;

const TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2023', 'DOM'], types: [], strict: true, noEmit: true, skipLibCheck: false },
  files: ['play.ts', 'api.d.ts'],
};

describe('a TypeScript client generated from GET /openapi.json', () => {
  let dir: string;
  let generated: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arbiter-client-'));
    const document = await server.client.get('/openapi.json');
    expect(document.status).toBe(200);
    writeFileSync(join(dir, 'openapi.json'), document.text);
    generated = await run(process.execPath, [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), 'openapi.json', '--output', 'api.d.ts'], {}, dir);
    writeFileSync(join(dir, 'play.ts'), PROGRAM);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  });

  it('is generated by openapi-typescript with its typed commands and events', () => {
    expect(generated.code, generated.stderr).toBe(0);
    const types = readFileSync(join(dir, 'api.d.ts'), 'utf8');
    expect(types).toContain('DiceRollRequest: {');
    expect(types).toMatch(/France44StartTurnRequest: \{\s*commandId: string;[\s\S]{0,200}?type: "StartTurn";\s*payload: components\["schemas"\]\["France44StartTurn"\];/);
    expect(types).toMatch(/Normandy44AttackResolvedEvent: \{[\s\S]{0,200}?type: "AttackResolved";/);
  });

  it("type-checks a program that plays a game with it, with the repo's tsc", async () => {
    const checked = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {}, dir);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);
  });

  it('and that program plays a whole game against the server', async () => {
    const { play } = (await import(pathToFileURL(join(dir, 'play.ts')).href)) as { play: (base: string) => Promise<Record<string, unknown>> };
    const outcome = await play(server.local.url);
    expect(outcome).toMatchObject({ types: ['GameCreated', 'EntropyContributed', 'DiceRolled'], version: 3, etag: '"3"', refusal: 'forbidden' });
    const rolls = outcome.rolls as number[];
    expect(rolls).toHaveLength(2);
    expect(outcome.total).toBe(rolls[0] + rolls[1] + 1);
    expect(outcome.lastTotal).toBe(outcome.total);
    expect(outcome.serverSeed).toMatch(/^[0-9a-f]{64}$/);
  });

  it('and the type check fails when the program misuses a type', async () => {
    writeFileSync(join(dir, 'misuse.ts'), "import type { components } from './api';\nexport const total: string = ({} as components['schemas']['DiceDiceRolledEvent']).data.total;\n");
    writeFileSync(join(dir, 'tsconfig.misuse.json'), JSON.stringify({ ...TSCONFIG, files: ['misuse.ts', 'api.d.ts'] }));
    const checked = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.misuse.json'], {}, dir);
    expect(checked.code).not.toBe(0);
    expect(checked.stdout).toContain("Type 'number' is not assignable to type 'string'");
  });
});
