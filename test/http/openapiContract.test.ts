import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { commandSpec } from '../../domain/game/decideGame';
import { CreateGameBody } from '../../domain/game/gameCommands';
import { eventDataSchema } from '../../domain/game/gameEvents';
import { findRuleset } from '../../domain/rulesets/registry';
import { GameHeadShape } from '../../domain/trust/gameHead';
import { ClockViewShape } from '../../domain/game/clock';
import { TokenReissued, TokenRevoked, TournamentCreated, TournamentExportHeader, TournamentGame, TournamentListing } from '../../functions/application/tournamentShapes';
import {
  CatalogueShape,
  CommandAcceptedShape,
  CommandPendingShape,
  CommandRevealedShape,
  ErrorShape,
  EvaluateResultShape,
  EventsPageShape,
  ExportBundleShape,
  GameCreatedShape,
  GameViewShape,
  HealthShape,
  KeysShape,
  VerificationShape,
  ViewerCreatedShape,
  ViewerListShape,
  SubscriptionCreatedShape,
  SubscriptionListShape,
  TournamentSubscriptionListShape,
  TableValidationShape,
} from '../../functions/http/apiShapes';
import { openApiDocument } from '../../functions/http/openapi';
import { errorEntry, type ErrorCode } from '../../functions/http/errorCatalogue';
import { matchRoute, ROUTES } from '../../functions/http/routes';
import { GameStatsShape, PublicStatsShape } from '../../functions/http/statsShapes';
import { startLocalService, type LocalService } from '../../functions/local/localService';
import { FaultyStore } from '../support/faultyStore';
import { FAKE_CHAIN, FakeBeaconSource, shortWait, TestClock } from '../support/beaconFakes';
import { TestClient, useTestServer, type Reply } from '../support/httpClient';

/**
 * The document against the server: requests a new user would make, the answers checked
 * against what the document says of that route and status (documented status, content
 * type, headers, error codes) and parsed with the shapes the document is generated from.
 */

type Operation = { operationId: string; tags: string[]; security: unknown[]; responses: Record<string, Response> };
type Response = { headers?: Record<string, unknown>; content?: Record<string, { examples?: Record<string, { value: { error?: { code: string } } }> }> };

const document = openApiDocument() as unknown as { paths: Record<string, Record<string, Operation>> };
const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op })));

/** Routes the document describes whose handlers are written (functions/http/apiDocsHandlers.ts) but not yet in the route table. */


const strict = <T extends z.ZodRawShape>(shape: z.ZodObject<T>) => z.strictObject(shape.shape);
/** A tournament export's 202 (its job runs) or 303 (made), as tournamentExportResult answers them. */
const exportStatusFields = { exportId: z.string().regex(/^[0-9a-f]{40}$/), statusUrl: z.string().startsWith('/tournaments/') };
const TournamentExportStatusShape = z.union([
  z.strictObject({ status: z.literal('running'), ...exportStatusFields, startedAt: z.iso.datetime(), retryAfter: z.int().min(1) }),
  z.strictObject({ status: z.literal('ready'), ...exportStatusFields, url: z.url(), expiresAt: z.iso.datetime(), bytes: z.int().min(0) }),
]);

const SUCCESS_SHAPES: Record<string, z.ZodType> = {
  getHealth: HealthShape,
  listRulesets: CatalogueShape,
  evaluateProcedure: EvaluateResultShape,
  getTableSchema: z.looseObject({ $schema: z.string(), type: z.literal('object'), properties: z.record(z.string(), z.unknown()) }),
  validateTable: TableValidationShape,
  createGame: GameCreatedShape,
  getGame: GameViewShape,
  sendCommand: z.union([CommandAcceptedShape, CommandPendingShape, CommandRevealedShape]),
  listEvents: EventsPageShape,
  exportGame: ExportBundleShape,
  exportTournament: TournamentExportStatusShape,
  getTournamentExport: TournamentExportStatusShape,
  verifyGame: VerificationShape,
  getGameHead: strict(GameHeadShape),
  getGameClock: ClockViewShape,
  getGameStats: GameStatsShape,
  getPublicStats: PublicStatsShape,
  createViewer: ViewerCreatedShape,
  listViewers: ViewerListShape,
  subscribe: SubscriptionCreatedShape,
  listSubscriptions: SubscriptionListShape,
  subscribeTournament: SubscriptionCreatedShape,
  listTournamentSubscriptions: TournamentSubscriptionListShape,
  getKeys: KeysShape,
  createTournament: strict(TournamentCreated),
  getTournament: strict(TournamentListing).extend({ games: z.array(strict(TournamentGame).extend({ head: strict(GameHeadShape) })) }),
  reissueToken: strict(TokenReissued),
  revokeToken: strict(TokenRevoked),
};

/** The typed parts of a commit: its command's payload and each event's data, by the game's ruleset. */
function expectTypedCommit(rulesetId: string, commit: { command: { type: string; payload: unknown }; events: { type: string; data: unknown }[] }) {
  const ruleset = findRuleset(rulesetId)!;
  const payload = commit.command.type === 'CreateGame' ? CreateGameBody : commandSpec(ruleset, commit.command.type)?.schema;
  expect(payload, `command ${commit.command.type}`).toBeDefined();
  expect(payload!.safeParse(commit.command.payload).success, `payload of ${commit.command.type}`).toBe(true);
  for (const event of commit.events) {
    const schema = eventDataSchema(ruleset, event.type);
    expect(schema, `event ${event.type}`).toBeDefined();
    const parsed = schema!.safeParse(event.data);
    expect(parsed.success, `${event.type}: ${parsed.error?.message}`).toBe(true);
  }
}

const covered = new Map<string, Set<number>>();

/** Runs `story` at most once; every later call waits for that same run. */
function once(story: () => Promise<void>): () => Promise<void> {
  let run: Promise<void> | undefined;
  return () => (run ??= story());
}

const bare = (contentType: string | null) => (contentType ?? '').split(';')[0].trim();

/** Checks one answer against the document; gives the JSON body. */
function expectDocumented(method: string, path: string, reply: Reply, rulesetId?: string) {
  const match = matchRoute(method, path.split('?')[0]);
  expect(match.route, `${method} ${path}`).toBeDefined();
  const template = match.route!.path;
  const op = document.paths[template]?.[method.toLowerCase()];
  expect(op, `${method} ${template} in the document`).toBeDefined();
  const where = `${op.operationId} ${reply.status}`;
  const documented = op.responses[String(reply.status)];
  expect(documented, `${where} is documented: ${reply.text.slice(0, 300)}`).toBeDefined();
  (covered.get(op.operationId) ?? covered.set(op.operationId, new Set()).get(op.operationId)!).add(reply.status);

  const contentType = bare(reply.headers.get('content-type'));
  if (reply.text) expect(Object.keys(documented.content ?? {}), where).toContain(contentType);
  else expect(documented.content, where).toBeUndefined();
  for (const name of ['ETag', 'Retry-After', 'Location']) {
    const isDocumented = Object.hasOwn(documented.headers ?? {}, name);
    // A status whose codes differ (409: beacon_pending carries Retry-After, version_conflict does not): the answer's own code says.
    const code = reply.status >= 400 && name === 'Retry-After' ? (reply.body as { error?: { code?: string } } | undefined)?.error?.code : undefined;
    const expected = code !== undefined && isDocumented ? Boolean(errorEntry(code as ErrorCode)?.retryAfter) : isDocumented;
    expect(reply.headers.has(name), `${where} header ${name}`).toBe(expected);
  }

  if (contentType !== 'application/json') return;
  if (reply.status >= 400) {
    expect(ErrorShape.safeParse(reply.body).success, where).toBe(true);
    const codes = Object.values(documented.content!['application/json'].examples ?? {}).map((e) => e.value.error?.code);
    expect(codes, `${where}: the document names this code`).toContain(reply.body.error.code);
    return;
  }
  const shape = SUCCESS_SHAPES[op.operationId];
  expect(shape, `a shape for ${op.operationId}`).toBeDefined();
  const parsed = shape.safeParse(reply.body);
  expect(parsed.success, `${where}: ${parsed.error?.message}`).toBe(true);
  if (rulesetId) {
    const body = reply.body;
    for (const commit of [...(body.commits ?? []), ...(body.commit ? [body.commit] : [])]) expectTypedCommit(rulesetId, commit);
    if (op.operationId === 'getGame') expect(findRuleset(rulesetId)!.view.safeParse(body.state).success, 'state').toBe(true);
  }
}

const server = useTestServer();

async function call(method: string, path: string, options: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string>; ruleset?: string; client?: TestClient } = {}) {
  const client = options.client ?? server.client;
  const reply = await client.request(method, path, { token: options.token, body: options.body, raw: options.raw, headers: options.headers });
  expectDocumented(method, path, reply, options.ruleset);
  return reply;
}

describe('the OpenAPI document describes the routes the server has', () => {
  it('every route, and no route the table lacks but those awaiting their wiring', () => {
    const routes = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    const described = new Set(operations.map((o) => `${o.method} ${o.path}`));
    for (const route of routes) expect(described, route).toContain(route);
    for (const operation of described) expect(routes.has(operation), operation).toBe(true);
  });

  it('each operation with an operationId, a tag, its security and a success answer', () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of operations) {
      expect(op.tags?.length, `${method} ${path}`).toBe(1);
      expect(Array.isArray(op.security), `${method} ${path}`).toBe(true);
      expect(Object.keys(op.responses).some((s) => /^2\d\d$/.test(s)), `${method} ${path}`).toBe(true);
    }
  });
});

describe('the answers a new user meets are the ones the document gives', () => {
  // Each story runs once, whichever test asks first: the coverage test below asks for all three.
  const diceGameStory = once(async () => {
    await call('GET', '/health');
    await call('GET', '/rulesets');
    await call('GET', '/keys');
    await call('POST', '/rulesets/dice/evaluate', { body: { procedure: 'roll', input: { dice: '2d6+1' }, dice: [6, 5] } });
    await call('POST', '/rulesets/dice/evaluate', { body: { procedure: 'roll', input: { dice: '3d6' }, dice: [1] } });
    await call('POST', '/rulesets/chess/evaluate', { body: { procedure: 'roll' } });
    await call('POST', '/rulesets/france44/evaluate', { body: { procedure: 'combat', input: { kind: 'set-piece', attackers: [{ strength: 1 }], defenders: [{ strength: 9 }], attackerMorale: 3, defenderMorale: 3 } } });
    await call('GET', '/schemas/table.json');
    const table = { format: 'arbiter-table/1', id: 'contract', title: 'Contract', dice: '1d6', columns: { kind: 'differential', labels: ['0', '+1'], landing: 'defender', belowFirst: 'refuse', aboveLast: 'last-column', shiftPastLeft: 'clamp', shiftPastRight: 'clamp' }, rows: [{ atMost: 3 }, { atLeast: 4 }], rowsOffTable: 'clamp', results: [{ code: '-', effects: [] }, { code: 'DR', effects: [{ effect: 'retreat', side: 'defender', value: 1 }] }], cells: [['-', '-'], ['-', 'DR']] };
    expect((await call('POST', '/tables/validate', { body: table })).body.valid).toBe(true);
    expect((await call('POST', '/tables/validate', { body: { ...table, cells: [['-'], ['-', 'XX']] } })).body.valid).toBe(false);
    await call('POST', '/tables/validate', { raw: '{', headers: { 'content-type': 'application/json' } });

    const created = await call('POST', '/games', { body: { ruleset: 'dice', title: 'contract' } });
    const { gameId, tokens } = created.body;
    const { player1, player2 } = tokens.players;
    const commands = `/games/${gameId}/commands`;
    await call('POST', '/games', { body: { ruleset: 'chess' } });
    await call('POST', '/games', { body: { ruleset: 'dice' }, token: tokens.organizer });
    await call('POST', '/games', { raw: JSON.stringify({ ruleset: 'dice', title: 'x'.repeat(70_000) }) });

    await call('GET', `/games/${gameId}`, { token: player1, ruleset: 'dice' });
    await call('GET', `/games/${gameId}`);
    await call('GET', '/games/g-nobody', { token: player1 });
    await call('POST', commands, { token: player1, body: { commandId: 'e1', type: 'ContributeEntropy', payload: { entropy: 'alpha' } }, ruleset: 'dice' });
    await call('POST', commands, { token: player2, body: { commandId: 'r1', type: 'Roll', payload: { dice: '2d6', purpose: 'p' } }, ruleset: 'dice' });
    await call('POST', commands, { token: player2, body: { commandId: 'r1', type: 'Roll', payload: { dice: '2d6', purpose: 'p' } }, ruleset: 'dice' });
    const text = await call('POST', commands, { token: player1, body: { commandId: 'r2', type: 'Roll', payload: { dice: 'd6', purpose: 'p' } }, headers: { accept: 'text/plain' } });
    expect(text.text).toMatch(/^#4 player1 Roll /);
    await call('POST', commands, { token: player1, body: { commandId: 'r1', type: 'Roll', payload: { dice: 'd8', purpose: 'p' } } });
    await call('POST', commands, { token: player1, body: { commandId: 'r3', type: 'Roll', payload: { dice: 'd6', purpose: 'p' }, expectedVersion: 1 } });
    await call('POST', commands, { token: player1, body: { commandId: 'e2', type: 'ContributeEntropy', payload: { entropy: 'late' } } });
    await call('POST', commands, { token: player1, body: { commandId: 'x', type: 'Fly' } });
    await call('POST', commands, { token: player1, body: { commandId: 's', type: 'Seal' } });
    await call('GET', `/games/${gameId}/stats`, { token: player1 });
    await call('POST', commands, { token: player1, body: { commandId: 'a', type: 'Roll', payload: { dice: 'd6', purpose: 'p' }, as: 'player2' } });
    await call('POST', commands, { body: { commandId: 'n', type: 'Roll', payload: { dice: 'd6', purpose: 'p' } } });

    const page = await call('GET', `/games/${gameId}/events`, { token: player1, ruleset: 'dice' });
    const etag = page.headers.get('etag')!;
    await call('GET', `/games/${gameId}/events?after=${page.body.version}`, { token: player1, headers: { 'if-none-match': etag } });
    await call('GET', `/games/${gameId}/events?after=0&limit=2`, { token: player1, headers: { accept: 'text/plain' } });
    await call('GET', `/games/${gameId}/events?limit=0`, { token: player1 });
    await call('GET', `/games/${gameId}/export`, { token: player2, ruleset: 'dice' });
    await call('GET', `/games/${gameId}/verify`, { token: player2 });
    await call('GET', `/games/${gameId}/head`, { token: player2 });
    await call('GET', `/games/${gameId}/clock`, { token: player2 });
    await call('GET', `/games/${gameId}/clock`);

    const viewer = await call('POST', `/games/${gameId}/viewers`, { token: tokens.organizer, body: { label: 'stream' } });
    await call('POST', `/games/${gameId}/viewers`, { token: player1 });
    await call('GET', `/games/${gameId}/viewers`, { token: tokens.organizer });
    await call('GET', `/games/${gameId}/viewers`, { token: player1 });
    await call('POST', commands, { token: viewer.body.token, body: { commandId: 'v', type: 'Roll', payload: { dice: 'd6', purpose: 'p' } } });
    await call('DELETE', `/games/${gameId}/viewers/${viewer.body.viewerId}`, { token: tokens.organizer });
    await call('DELETE', `/games/${gameId}/viewers/v-nobody`, { token: tokens.organizer });

    const subscriptions = `/games/${gameId}/subscriptions`;
    const subscription = await call('POST', subscriptions, { token: player1, body: { kind: 'webhook', url: 'https://hooks.example.org/arbiter', digest: 'turn' } });
    await call('POST', subscriptions, { token: player1, body: { kind: 'webhook', url: 'http://hooks.example.org/arbiter' } });
    await call('POST', subscriptions, { token: player1, body: { kind: 'email', address: 'anna@example.org' } });
    await call('GET', subscriptions, { token: tokens.organizer });
    await call('GET', subscriptions, { token: viewer.body.token });
    await call('DELETE', `${subscriptions}/${subscription.body.subscriptionId}`, { token: player2 });
    await call('DELETE', `${subscriptions}/${subscription.body.subscriptionId}`, { token: player1 });
    for (const action of ['confirm', 'unsubscribe']) {
      await call('GET', `/subscriptions/s-nobody/${action}?code=abc`);
      await call('POST', `/subscriptions/s-nobody/${action}?code=abc`);
    }

    await call('POST', `/games/${gameId}/tokens/player2`, { token: tokens.organizer, ruleset: 'dice' });
    await call('POST', `/games/${gameId}/tokens/nobody`, { token: tokens.organizer });
    await call('POST', `/games/${gameId}/tokens/player2`, { token: player1 });
    await call('DELETE', `/games/${gameId}/tokens/player1`, { token: tokens.organizer, ruleset: 'dice' });
    await call('DELETE', `/games/${gameId}/tokens/player1`, { token: tokens.organizer });
    await call('DELETE', `/games/${gameId}/tokens/player1`);

    await call('POST', commands, { token: tokens.organizer, body: { commandId: 'seal', type: 'Seal' }, ruleset: 'dice' });
    await call('GET', `/games/${gameId}/stats`, { token: tokens.organizer });
    await call('GET', '/stats');
    await call('POST', commands, { token: tokens.organizer, body: { commandId: 'late', type: 'Roll', payload: { dice: 'd6', purpose: 'p' }, as: 'player2' } });
    await call('POST', `/games/${gameId}/tokens/player2`, { token: tokens.organizer });
    await call('GET', `/games/${gameId}/export`, { token: tokens.organizer, ruleset: 'dice' });
  });
  it('a dice game from creation to seal, with its refusals', () => diceGameStory());

  const tournamentStory = once(async () => {
    const tournament = await call('POST', '/tournaments', { body: { name: 'Round 1' } });
    await call('POST', '/tournaments', { body: { nam: 'typo' } });
    const { tournamentId, token } = tournament.body;
    const created = await call('POST', '/games', { token, body: { ruleset: 'france44', options: { cAttackerLoss: true } } });
    expect(created.body.tournamentId).toBe(tournamentId);
    const { gameId, tokens } = created.body;
    const commands = `/games/${gameId}/commands`;
    await call('POST', commands, { token: tokens.players.allied, body: { commandId: 'a', type: 'ActivateHQ', payload: { hqId: 'h1' } } });
    await call('POST', commands, { token, body: { commandId: 't1', type: 'StartTurn', payload: { turn: 1, reactionPoints: { allied: 3, german: 3 } } }, ruleset: 'france44' });
    await call('POST', commands, { token: tokens.players.allied, body: { commandId: 'b', type: 'BeginAttackIncrement' }, ruleset: 'france44' });
    const declaration = { combatId: 'c1', kind: 'set-piece', attackers: [{ unitId: 'a', hex: '2708', strength: 6 }], defenders: [{ unitId: 'd', hex: '2709', strength: 3 }], attackerMorale: 3, defenderMorale: 3 };
    await call('POST', commands, { token: tokens.players.allied, body: { commandId: 'd', type: 'DeclareCombat', payload: declaration }, ruleset: 'france44' });
    await call('POST', commands, { token: tokens.players.allied, body: { commandId: 'r', type: 'ResolveCombat', payload: { combatId: 'c1' } }, ruleset: 'france44' });
    await call('GET', `/games/${gameId}`, { token, ruleset: 'france44' });
    await call('GET', `/games/${gameId}/events`, { token, ruleset: 'france44' });

    await call('GET', `/tournaments/${tournamentId}`, { token });
    await call('GET', `/tournaments/${tournamentId}`, { token: tokens.organizer });
    await call('GET', '/tournaments/t-nobody', { token });
    const tournamentSubscriptions = `/tournaments/${tournamentId}/subscriptions`;
    const subscribed = await call('POST', tournamentSubscriptions, { token, body: { kind: 'slack', url: 'https://hooks.slack.example.org/services/T/B/x', digest: { everyMinutes: 30 } } });
    await call('POST', tournamentSubscriptions, { token: tokens.organizer, body: { kind: 'slack', url: 'https://hooks.slack.example.org/services/T/B/x' } });
    await call('POST', tournamentSubscriptions, { token, body: { kind: 'slack', url: 'https://hooks.slack.example.org/not-slack' } });
    await call('GET', tournamentSubscriptions, { token });
    await call('GET', '/tournaments/t-nobody/subscriptions', { token });
    await call('DELETE', `${tournamentSubscriptions}/s-nobody`, { token });
    await call('DELETE', `${tournamentSubscriptions}/${subscribed.body.subscriptionId}`, { token });
    // Made by a job: 202 and its status, asked (with the token) until 303 to the file.
    const started = await call('GET', `/tournaments/${tournamentId}/export`, { token });
    expect(started.status).toBe(202);
    const { statusUrl } = started.body;
    await call('GET', `/tournaments/${tournamentId}/exports/${'0'.repeat(40)}`, { token });
    await call('GET', statusUrl, { token: tokens.organizer });
    const manual = async (): Promise<Reply> => {
      const response = await fetch(`${server.client.baseUrl}${statusUrl}`, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
    };
    let ready = await manual();
    expectDocumented('GET', statusUrl, ready);
    await expect.poll(async () => (ready = await manual()).status).toBe(303);
    expectDocumented('GET', statusUrl, ready);
    const exported = await server.client.get(ready.headers.get('location')!.replace(server.client.baseUrl, ''));
    const [header, ...games] = exported.text.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(z.strictObject(TournamentExportHeader.shape).safeParse(header).success).toBe(true);
    expect(games).toHaveLength(1);
    for (const game of games) {
      expect(ExportBundleShape.safeParse(game).success).toBe(true);
      for (const commit of game.commits) expectTypedCommit(game.ruleset, commit);
    }
  });
  it('a France 1944 game in a tournament: listing, export, and a refusal of the rules', () => tournamentStory());

  const throttledStoreStory = once(async () => {
    let local: LocalService | undefined;
    try {
      local = await startLocalService({ wrapStore: (store) => new FaultyStore(store, (operation) => (['read', 'append', 'tournaments'].includes(operation) ? 'throttle' : undefined)) });
      const client = new TestClient(local.url);
      const created = await call('POST', '/games', { body: { ruleset: 'dice' }, client });
      await call('GET', `/games/${created.body.gameId}/events`, { token: created.body.tokens.organizer, client });
      await call('POST', `/games/${created.body.gameId}/commands`, { token: created.body.tokens.organizer, body: { commandId: 's', type: 'Seal' }, client });
      await call('POST', '/tournaments', { client });
    } finally {
      await local?.close();
    }
  });
  it('a store that throttles: 503 with Retry-After, as documented', () => throttledStoreStory());

  const beaconStory = once(async () => {
    const clock = new TestClock();
    let local: LocalService | undefined;
    try {
      local = await startLocalService({ now: clock.now, beaconChains: new Map([[FAKE_CHAIN.chain, FAKE_CHAIN]]), beaconSource: new FakeBeaconSource(clock), revealWait: shortWait });
      const client = new TestClient(local.url);
      const created = await call('POST', '/games', { body: { ruleset: 'dice', randomness: { beacon: 'fake' } }, client });
      const { gameId, tokens } = created.body;
      const roll = { commandId: 'r', type: 'Roll', payload: { dice: '2d6', purpose: 'beacon' } };
      expect((await call('POST', `/games/${gameId}/commands`, { token: tokens.players.player1, body: roll, client, ruleset: 'dice' })).status).toBe(202);
      await call('POST', `/games/${gameId}/commands`, { token: tokens.players.player1, body: roll, headers: { accept: 'text/plain' }, client });
      const waiting = await call('POST', `/games/${gameId}/commands`, { token: tokens.organizer, body: { commandId: 's', type: 'Seal' }, client });
      expect(waiting.body.error.code).toBe('beacon_pending');
      await call('GET', `/games/${gameId}`, { token: tokens.organizer, client, ruleset: 'dice' });
      clock.advance(4_000);
      await expect.poll(async () => (await client.get(`/games/${gameId}`, tokens.organizer)).body.version).toBe(3);
      expect((await call('POST', `/games/${gameId}/commands`, { token: tokens.players.player1, body: roll, client, ruleset: 'dice' })).body.reveal.seq).toBe(3);
    } finally {
      await local?.close();
    }
  });
  it("a beacon game: 202 while a roll waits, 409 beacon_pending with Retry-After, then the pair", () => beaconStory());

  const mailLinksStory = once(async () => {
    const links: { confirmUrl: string; unsubscribeUrl: string }[] = [];
    let local: LocalService | undefined;
    try {
      local = await startLocalService({ notifications: { email: { confirmations: { send: async (_address, mail) => void links.push(mail) }, channel: { deliver: async () => undefined } } } });
      const client = new TestClient(local.url);
      const { gameId, tokens } = await client.createGame({ ruleset: 'dice', title: 'Mailed' });
      await call('POST', `/games/${gameId}/subscriptions`, { token: tokens.organizer, body: { kind: 'email', address: 'anna@example.org' }, client });
      const path = (url: string) => url.slice(local!.url.length);
      for (const link of [links[0]!.confirmUrl, links[0]!.unsubscribeUrl]) {
        await call('GET', path(link), { client });
        await call('POST', path(link), { client });
      }
    } finally {
      await local?.close();
    }
  });
  it("an e-mail's links: each page, then confirmed and ended", () => mailLinksStory());

  it('covered every operation the route table serves but the web files, with a success and a refusal', async () => {
    for (const story of [diceGameStory, tournamentStory, throttledStoreStory, beaconStory, mailLinksStory]) await story();
    const statuses = Object.fromEntries([...covered].map(([id, set]) => [id, [...set].sort()]));
    const routed = operations.filter((o) => ROUTES.some((r) => r.method === o.method && r.path === o.path)).map((o) => o.op.operationId);
    for (const id of routed.filter((id) => !['getVerifier', 'getOpenApiDocument', 'getWebApp', 'getWebAsset', 'getApiReference', 'getApiReferenceAsset'].includes(id))) {
      // A made export's status answers 303 (to its file): that is its success; 202 only while a job runs.
      expect(statuses[id]?.some((s) => s < 300 || (id === 'getTournamentExport' && s === 303)), `${id}: ${statuses[id]}`).toBe(true);
    }
    for (const id of ['createGame', 'getGame', 'sendCommand', 'listEvents', 'createViewer', 'listViewers', 'revokeViewer', 'subscribe', 'listSubscriptions', 'unsubscribe', 'subscribeTournament', 'listTournamentSubscriptions', 'unsubscribeTournament', 'reissueToken', 'revokeToken', 'getTournament', 'getTournamentExport', 'evaluateProcedure', 'validateTable']) {
      expect(statuses[id]?.some((s) => s >= 400), `${id}: ${statuses[id]}`).toBe(true);
    }
    expect(statuses.sendCommand).toEqual([200, 201, 202, 400, 401, 403, 409, 422, 503]);
  });
});
