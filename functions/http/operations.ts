import { TOURNAMENT_PAGE_DEFAULT, TOURNAMENT_PAGE_MAX } from '../application/tournamentPages';
import type { HandlerName } from './handlerNames';
import type { LambdaGroup } from './lambdaGroups';
import * as example from './openapiExamples';
import { gameStatsExample, publicStatsExample } from './statsShapes';
import { jsonContent, one, ref, type ErrorSpec, type Json } from './openapiParts';
import { headerParameter, integerQuery, pathParameter, textQuery, type Parameter } from './parameters';

/**
 * Who may call an operation, as the OpenAPI document's security says it and the stack's
 * public routes read it: `anyone`, `anyoneOrTournament` (a tournament's token adds
 * something), `read` (a token of the game, none for a public game), `act` (a token of the
 * game or its tournament), `tournament` (the tournament's token).
 */
export type Role = 'anyone' | 'anyoneOrTournament' | 'read' | 'act' | 'tournament';

export type Tag = 'games' | 'commands' | 'tokens' | 'spectators' | 'notifications' | 'tournaments' | 'rulesets' | 'trust' | 'service';

export type { DocumentFacts } from './parameters';

/** One HTTP operation: routed, deployed, authorized and documented from this entry alone. */
export interface Operation {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  operationId: string;
  /** The handler that answers it (handlers.ts). */
  handler: HandlerName;
  /** The Lambda function that serves it (routeGroups.ts). */
  group: LambdaGroup;
  role: Role;
  tag: Tag;
  summary: string;
  description?: string;
  /** Its path, query and header parameters: documented from here, and path and query checked from here before the handler runs (middleware.ts). */
  parameters?: readonly Parameter[];
  requestBody?: Json;
  /** Its answers other than errors, by status. */
  responses: Record<number, Json>;
  /** The errors it answers besides 500 (errorCatalogue.ts); one that takes no body also answers 400 and 413 for the body. */
  errors: ErrorSpec[];
  takesBody?: true;
}

const gameIdParameter = pathParameter('id', 'the game id, as POST /games answered it');
const tournamentIdParameter = pathParameter('id', 'the tournament id, as POST /tournaments answered it');
/** `?after=<gameId>&limit=`: absent both, the handler asks for no page (a listing's first, a whole export). */
export const TOURNAMENT_PAGE = [
  textQuery('after', 'the `next` of the page before: the games listed after this game', 128, 'is a game id: 1 to 128 printable characters'),
  integerQuery('limit', 'at most this many games', {
    min: 1,
    max: TOURNAMENT_PAGE_MAX,
    fallback: undefined,
    default: TOURNAMENT_PAGE_DEFAULT,
    digits: 4,
    blankIsAbsent: false,
  }),
] as const;
/** The longest a long poll (`wait`) may hold a request: http-api.md's 20 s, or less where a held request costs (AWS: ARBITER_LONG_POLL_MAX_SECONDS). */
export const LONG_POLL_MAX_SECONDS = 20;

/** `?after=<seq>&limit=&wait=` of a game's commits. */
export const EVENTS_PAGE = [
  integerQuery('after', 'the last seq already read', { min: 0, max: 999_999_999, fallback: 0, default: 0, digits: 9, blankIsAbsent: true }),
  integerQuery('limit', 'at most this many commits', { min: 1, max: 1000, fallback: 100, default: 100, digits: 9, blankIsAbsent: true }),
  integerQuery('wait', 'long-poll: seconds to wait for a commit after `after`', { min: 0, max: LONG_POLL_MAX_SECONDS, fallback: 0, default: 0, digits: 9, blankIsAbsent: true }),
] as const;
const tournamentPageErrors: ErrorSpec[] = [
  [400, `invalid_request: \`after\` is not a game of this tournament, \`limit\` is not 1 to ${TOURNAMENT_PAGE_MAX}, or a body was sent that is not JSON`],
  [401, "unauthenticated: no token, or not this tournament's"],
  [404, 'not_found: no such tournament'],
  503,
];
const etag = { ETag: { $ref: '#/components/headers/ETag' } };
const file = (type: string) => ({ [type]: { schema: { type: 'string' } } });

/** An export too large for one response: stored, and answered with its link (docs/exports.md). */
const STORED_EXPORT = {
  description: 'stored: follow Location (without the Authorization header) within five minutes; the body repeats the link',
  headers: { Location: { $ref: '#/components/headers/Location' } },
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['url', 'expiresAt', 'bytes'],
        properties: { url: { type: 'string', format: 'uri' }, expiresAt: { type: 'string', format: 'date-time' }, bytes: { type: 'integer', minimum: 0 } },
        additionalProperties: false,
      },
      example: { url: 'http://127.0.0.1:8787/exports/games/g-7rT2kQ9xLmN4pW8vYc3Z/12-3f9a.json?X-Amz-Expires=300', expiresAt: '2026-11-23T12:05:00.000Z', bytes: 6_481_220 },
    },
  },
};

const EXPORT_ID = { type: 'string', pattern: '^[0-9a-f]{40}$' };
const EXPORT_STATUS_URL = '/tournaments/t-9kQ2rT7xLmN4pW8vYc3Z/exports/3f9a0c4b7e21d8a65f0b9c3e7d1a2b4c5e6f7a8b';
/** The 202 and 303 of a tournament export (tournamentExportJobs.ts): `fields` besides status, exportId and statusUrl. */
const exportStatus = (status: string, fields: Record<string, Json>, example: Record<string, unknown>) => ({
  'application/json': {
    schema: {
      type: 'object',
      required: ['status', 'exportId', 'statusUrl', ...Object.keys(fields)],
      properties: { status: { const: status }, exportId: EXPORT_ID, statusUrl: { type: 'string' }, ...fields },
      additionalProperties: false,
    },
    example: { status, exportId: EXPORT_STATUS_URL.slice(-40), statusUrl: EXPORT_STATUS_URL, ...example },
  },
});

/** A tournament export still being made. */
const EXPORT_RUNNING = {
  description: 'being made: GET `Location` (with your token) after `Retry-After` seconds',
  headers: { Location: { description: "the export's status", schema: { type: 'string' } }, 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
  content: exportStatus('running', { startedAt: { type: 'string', format: 'date-time' }, retryAfter: { type: 'integer', minimum: 1 } }, { startedAt: '2026-11-23T12:00:00.000Z', retryAfter: 1 }),
};

/** A tournament export made: its link. */
const EXPORT_READY = {
  description: 'made: follow Location (without the Authorization header) within five minutes; the body repeats the link',
  headers: { Location: { $ref: '#/components/headers/Location' } },
  content: exportStatus(
    'ready',
    { url: { type: 'string', format: 'uri' }, expiresAt: { type: 'string', format: 'date-time' }, bytes: { type: 'integer', minimum: 0 } },
    { url: `http://127.0.0.1:8787/exports${EXPORT_STATUS_URL.replace('/exports/', '/')}.ndjson?X-Amz-Expires=300`, expiresAt: '2026-11-23T12:05:00.000Z', bytes: 10_912_004 },
  ),
};

const commandAnswer = (description: string) => ({
  description,
  content: { ...jsonContent(ref('CommandAccepted'), one(example.commandAccepted)), 'text/plain': { schema: { type: 'string' }, example: example.commandText } },
});

/**
 * Every operation of http-api.md, once, in the order the document lists them. A new endpoint is
 * an entry here and its handler (handlers.ts): the local router (routes.ts), the Lambda function
 * that serves it (routeGroups.ts), its API Gateway route (infra/arbiterStack.ts) and its part of
 * GET /openapi.json (openapi.ts) all follow.
 */
export const OPERATIONS: readonly Operation[] = [
  {
    method: 'GET',
    path: '/health',
    operationId: 'getHealth',
    handler: 'health',
    group: 'catalogue',
    role: 'anyone',
    tag: 'service',
    summary: 'Liveness',
    responses: { 200: { description: 'alive', content: jsonContent(ref('Health'), one({ ok: true })) } },
    errors: [],
  },
  {
    method: 'GET',
    path: '/rulesets',
    operationId: 'listRulesets',
    handler: 'listRulesets',
    group: 'catalogue',
    role: 'anyone',
    tag: 'rulesets',
    summary: 'The catalogue of rulesets',
    description: 'Per ruleset: its sides, options, commands with their payload schemas and who may send them, procedures, and the schema of its state.',
    responses: { 200: { description: 'the rulesets', content: jsonContent(ref('Catalogue')) } },
    errors: [],
  },
  {
    method: 'POST',
    path: '/rulesets/{ruleset}/evaluate',
    operationId: 'evaluateProcedure',
    handler: 'evaluate',
    group: 'catalogue',
    role: 'anyone',
    tag: 'rulesets',
    summary: 'Stateless calculator: run a procedure, nothing stored',
    description:
      'With `dice`, those values are used in draw order (extra ones are ignored; too few is 400 insufficient_dice with details.needed; a value a die cannot show is 400). ' +
      'Without, fresh random dice are drawn and returned. The rules are checked before any die is drawn.',
    parameters: [pathParameter('ruleset', 'a ruleset id', ({ rulesetIds }) => ({ type: 'string', enum: rulesetIds }))],
    requestBody: { required: true, content: jsonContent(ref('EvaluateRequest'), { examples: example.evaluateRequest }) },
    responses: { 200: { description: 'the result, how it was reached, and the dice used', content: jsonContent(ref('EvaluateResult'), one(example.evaluateResult)) } },
    errors: [
      [400, 'invalid_request (the request, input or options do not fit) or insufficient_dice (details.needed)', ['invalid_request', 'insufficient_dice']],
      [404, 'not_found: no such ruleset'],
      413,
      422,
    ],
    takesBody: true,
  },
  {
    method: 'GET',
    path: '/schemas/table.json',
    operationId: 'getTableSchema',
    handler: 'tableSchema',
    group: 'catalogue',
    role: 'anyone',
    tag: 'rulesets',
    summary: 'The JSON Schema of a combat table given as data',
    description:
      "Generated from the schema that validates tables, so the two agree. Checks the shape; `POST /tables/validate` also checks what a schema cannot say (every cell's code defined, rows that tile, …). docs/tables.md explains the format.",
    responses: { 200: { description: 'JSON Schema (draft 2020-12)', content: jsonContent({ type: 'object' }) } },
    errors: [],
  },
  {
    method: 'POST',
    path: '/tables/validate',
    operationId: 'validateTable',
    handler: 'validateTable',
    group: 'catalogue',
    role: 'anyone',
    tag: 'rulesets',
    summary: 'Whether a combat table is valid, and where it is not',
    description: "Answers 200 either way: `valid` with the table's content hash, or every issue with its place (`cells[3][5]`, `rows[2]`, …). Nothing is stored.",
    requestBody: { required: true, content: jsonContent({ type: 'object', description: 'a table definition (GET /schemas/table.json)' }) },
    responses: {
      200: { description: 'the verdict', content: jsonContent(ref('TableValidation'), one({ valid: false, issues: [{ path: 'cells[3][5]', message: '"XX" is not a code of results' }] })) },
    },
    errors: [[400, 'invalid_request: no body, or a body that is not JSON', ['invalid_request']], 413],
    takesBody: true,
  },
  {
    method: 'POST',
    path: '/games',
    operationId: 'createGame',
    handler: 'createGame',
    group: 'commands',
    role: 'anyoneOrTournament',
    tag: 'games',
    summary: 'Create a game; answers with its tokens, shown only this once',
    description:
      "With a tournament's token, the game belongs to that tournament and the answer names it; without a token, it stands alone. " +
      'With an Idempotency-Key, the same key and request answer the same game and the same tokens again for 24 hours (a retry after a lost answer); treat the key as a secret for that time. ' +
      "A key sent with a tournament's token belongs to that tournament: the same key without it, or with another tournament's, is another key. " +
      'After 24 hours the key is forgotten: sent again, it creates a new game with new tokens.',
    parameters: [
      // Its form is checked by the service (idempotencyKey.ts), after the token and the body, as it always was.
      headerParameter(
        'Idempotency-Key',
        'A fresh random value of at least 128 bits per game, kept secret for 24 hours: a UUID, or 22 to 200 base64url characters; any other form is refused (400).',
        { type: 'string', pattern: '^[A-Za-z0-9_-]{22,200}$' },
        '4f0c6e1e-8a51-4a43-9d6b-2f3e9c1d7a55',
        false,
      ),
    ],
    requestBody: { required: true, content: jsonContent(ref('CreateGameRequest'), { examples: example.createGameRequest }) },
    responses: { 201: { description: 'created', content: jsonContent(ref('GameCreated'), one(example.gameCreated)) } },
    errors: [
      400,
      [401, "unauthenticated: a token was sent and it is not a tournament's token"],
      [409, 'idempotency_key_in_use: another request with this Idempotency-Key is creating its game; send the same request again after Retry-After seconds', ['idempotency_key_in_use']],
      413,
      [
        422,
        'idempotency_key_reused: this Idempotency-Key created a game from a different request (details.gameId); beacon_unavailable: `randomness` on a server that fetches no drand beacons',
        ['idempotency_key_reused', 'beacon_unavailable'],
      ],
      429,
      503,
    ],
    takesBody: true,
  },
  {
    method: 'GET',
    path: '/games/{id}',
    operationId: 'getGame',
    handler: 'getGame',
    group: 'reads',
    role: 'read',
    tag: 'games',
    summary: "The game and its ruleset's view of its state",
    parameters: [gameIdParameter],
    responses: { 200: { description: 'the game', content: jsonContent(ref('Game'), one(example.gameView)) } },
    errors: [401, 404, 503],
  },
  {
    method: 'POST',
    path: '/games/{id}/commands',
    operationId: 'sendCommand',
    handler: 'postCommand',
    group: 'commands',
    role: 'act',
    tag: 'commands',
    summary: 'Send a command; one accepted command is one signed commit',
    description:
      'Accept: text/plain answers with the commit as a chat-log line: `#<seq> <actor> <type> <summary> [<first 8 hex of hash>]`. ' +
      'The organizer may act for a side with `as`. Sending the same commandId again returns the stored commit with 200.',
    parameters: [gameIdParameter],
    requestBody: { required: true, content: jsonContent(ref('CommandRequest'), { examples: example.commandRequest }) },
    responses: {
      201: commandAnswer('accepted: a new commit'),
      202: {
        description: 'a beacon game\'s roll, accepted and pending (docs/beacon.md): the server appends its reveal once drand round `beacon.round` is out; the same commandId answers this again until then',
        content: { ...jsonContent(ref('CommandPending'), one(example.commandPending)), 'text/plain': { schema: { type: 'string' }, example: example.commandPendingText } },
      },
      200: {
        description: 'a retry: the commit stored for this commandId; for a beacon game\'s revealed roll, with its reveal (and, as text, both lines)',
        content: {
          ...jsonContent({ anyOf: [ref('CommandAccepted'), ref('CommandRevealed')] }, { examples: { retry: { value: example.commandAccepted }, revealed: { summary: "a beacon game's roll, revealed", value: example.commandRevealed } } }),
          'text/plain': { schema: { type: 'string' }, example: example.commandText },
        },
      },
    },
    errors: [
      [400, 'invalid_request: the request, or the payload for its type, does not fit; an unknown type is named'],
      401,
      [403, 'forbidden: this role may never send this command, a side token used "as", or a spectator link sent a command'],
      404,
      [409, 'version_conflict (details.currentVersion), game_sealed, command_id_reused (details.seq), or beacon_pending (details.round, details.roundAt; with Retry-After): a roll of this beacon game waits for its beacon', ['version_conflict', 'game_sealed', 'command_id_reused', 'beacon_pending']],
      413,
      410,
      [
        422,
        'rule_violation (details.rule) or entropy_locked: the rules refuse it now; beacon_unavailable: a roll in a beacon game on a server that no longer fetches drand beacons',
        ['rule_violation', 'entropy_locked', 'beacon_unavailable'],
      ],
      503,
    ],
    takesBody: true,
  },
  {
    method: 'GET',
    path: '/games/{id}/events',
    operationId: 'listEvents',
    handler: 'listEvents',
    group: 'reads',
    role: 'read',
    tag: 'games',
    summary: 'The commits after a seq; ETag is the version',
    description:
      'With If-None-Match naming the current version, 304 (this URL at this version answered before). `wait` holds the request until a commit after `after` exists or the seconds pass ' +
      '(then 304 when If-None-Match matches, else an empty page). Accept: text/plain answers one chat-log line per commit.',
    parameters: [gameIdParameter, ...EVENTS_PAGE, headerParameter('If-None-Match', 'the ETag of the last answer', { type: 'string' }, '"3"')],
    responses: {
      200: {
        description: 'the page',
        headers: etag,
        content: { ...jsonContent(ref('EventsPage'), one(example.eventsPage)), 'text/plain': { schema: { type: 'string' }, example: example.eventsText } },
      },
      304: { description: 'If-None-Match names the current version', headers: etag },
    },
    errors: [
      [400, 'invalid_request: after, limit or wait out of range'],
      401,
      404,
      [429, 'long_poll_full (with Retry-After): a `wait` that finds as many long polls waiting as the server holds (AWS); poll again after Retry-After, or follow the game over the push socket', ['long_poll_full']],
      503,
    ],
  },
  {
    method: 'GET',
    path: '/games/{id}/export',
    operationId: 'exportGame',
    handler: 'exportGame',
    group: 'reads',
    role: 'read',
    tag: 'games',
    summary: 'The export bundle (fairness-v1 §7): every commit, the keys, the key log and a signed head',
    description:
      'An export that fits one response (5 MiB) comes inline; a larger one is stored once per version and answered with a 303 to a link valid for five minutes (docs/exports.md).',
    parameters: [gameIdParameter],
    responses: { 200: { description: 'the bundle', content: jsonContent(ref('ExportBundle'), one(example.exportBundle)) }, 303: STORED_EXPORT },
    errors: [401, 404, 503],
  },
  {
    method: 'GET',
    path: '/games/{id}/verify',
    operationId: 'verifyGame',
    handler: 'verifyGame',
    group: 'reads',
    role: 'read',
    tag: 'trust',
    summary: 'Verify the game: hashes, signatures, dice and rules',
    description: "The export checked against itself; whether its key is the one you trust is the offline verifier's question.",
    parameters: [gameIdParameter],
    responses: { 200: { description: 'the report', content: jsonContent(ref('Verification'), one(example.verification)) } },
    errors: [401, 404, 503],
  },
  {
    method: 'GET',
    path: '/games/{id}/stats',
    operationId: 'getGameStats',
    handler: 'gameStats',
    group: 'reads',
    role: 'read',
    tag: 'trust',
    summary: "The sealed game's dice statistics: counts per face against expectation, χ² and plain words (docs/fairness-stats.md)",
    description: 'By die size, every role together and each role (the side or organizer that sent the rolling commands); the verifier prints the same figures from the export (`node verifier.mjs stats export.json`).',
    parameters: [gameIdParameter],
    responses: { 200: { description: 'the statistics', content: jsonContent(ref('GameStats'), one(gameStatsExample)) } },
    errors: [401, 404, [409, 'game_not_sealed: the statistics are shown once the game is sealed', ['game_not_sealed']], 503],
  },
  {
    method: 'GET',
    path: '/stats',
    operationId: 'getPublicStats',
    handler: 'publicStats',
    group: 'reads',
    role: 'anyone',
    tag: 'trust',
    summary: 'The dice of every sealed game that did not opt out ("publicStats": false), by die size, with the same figures',
    responses: { 200: { description: 'the public statistics', content: jsonContent(ref('PublicStats'), one(publicStatsExample)) } },
    errors: [503],
  },
  {
    method: 'GET',
    path: '/games/{id}/head',
    operationId: 'getGameHead',
    handler: 'head',
    group: 'reads',
    role: 'read',
    tag: 'trust',
    summary: 'The signed head: where the game ends now, signed by the current key (trust.md §4)',
    parameters: [gameIdParameter],
    responses: { 200: { description: 'the signed head', content: jsonContent(ref('GameHead'), one(example.head)) } },
    errors: [401, 404, 503],
  },
  {
    method: 'GET',
    path: '/games/{id}/clock',
    operationId: 'getGameClock',
    handler: 'gameClock',
    group: 'reads',
    role: 'read',
    tag: 'games',
    summary: 'Whose move it is, and the time each side has used (docs/clocks.md)',
    description:
      "Folded from the signed recordedAt of the commits: the span between two commits is charged to the side to move after the first. Anyone can fold it again from the export. `usedSeconds` counts up to `asOf`, the last commit; `overdue` is computed now, against the game's time control.",
    parameters: [gameIdParameter],
    responses: { 200: { description: 'the clock', content: jsonContent(ref('Clock'), one(example.clock)) } },
    errors: [401, 404, 503],
  },
  {
    method: 'POST',
    path: '/games/{id}/viewers',
    operationId: 'createViewer',
    handler: 'addViewer',
    group: 'commands',
    role: 'act',
    tag: 'spectators',
    summary: 'Mint a read-only spectator link (organizer)',
    description: 'Its token reads the game, events, head, export and verification, and sends nothing (403). The token is shown once.',
    parameters: [gameIdParameter],
    requestBody: { required: false, content: jsonContent(ref('ViewerRequest'), one({ label: 'club stream' })) },
    responses: { 201: { description: 'the link', content: jsonContent(ref('ViewerCreated'), one(example.viewerCreated)) } },
    errors: [400, 401, [403, 'forbidden: only the organizer mints spectator links'], 404, 413, 503],
    takesBody: true,
  },
  {
    method: 'GET',
    path: '/games/{id}/viewers',
    operationId: 'listViewers',
    handler: 'listViewers',
    group: 'reads',
    role: 'act',
    tag: 'spectators',
    summary: "The game's spectator links (organizer): label, creation time and id of each, revoked ones too; never a token",
    description: 'The organizer revokes any of them later with its viewerId, from any window.',
    parameters: [gameIdParameter],
    responses: { 200: { description: 'the links, oldest first', content: jsonContent(ref('ViewerList'), one(example.viewerList)) } },
    errors: [401, [403, 'forbidden: only the organizer lists spectator links'], 404, 503],
  },
  {
    method: 'DELETE',
    path: '/games/{id}/viewers/{viewerId}',
    operationId: 'revokeViewer',
    handler: 'revokeViewer',
    group: 'commands',
    role: 'act',
    tag: 'spectators',
    summary: 'Revoke a spectator link (organizer): it stops working at once',
    parameters: [gameIdParameter, pathParameter('viewerId', 'as POST /games/{id}/viewers answered it')],
    responses: { 204: { description: 'revoked' } },
    errors: [401, [403, 'forbidden: only the organizer revokes spectator links'], [404, 'not_found: no such game, or no such link in it'], 503],
  },
  {
    method: 'POST',
    path: '/games/{id}/subscriptions',
    operationId: 'subscribe',
    handler: 'subscribe',
    group: 'commands',
    role: 'act',
    tag: 'notifications',
    summary: 'Be told of each commit: a webhook (signed), Discord, Slack or e-mail',
    description:
      "The organizer, a side (for itself) or the game's tournament subscribes. A webhook's signing secret (`whsec_…`, Standard Webhooks) is shown only this once. " +
      'An e-mail address gets a confirmation link first and nothing else until it is followed (`status` "confirming"). ' +
      '`url` is https, or http to this machine when the server allows it (ARBITER_NOTIFY_ALLOW_LOOPBACK=1); a Discord URL has the path /api/webhooks/…, a Slack one /services/…. docs/notifications.md.',
    parameters: [gameIdParameter],
    requestBody: { required: true, content: jsonContent(ref('SubscriptionRequest'), { examples: example.subscriptionRequest }) },
    responses: { 201: { description: 'subscribed', content: jsonContent(ref('SubscriptionCreated'), one(example.subscriptionCreated)) } },
    errors: [
      [400, 'invalid_request: the kind, url, address or digest does not fit (the field is named)'],
      401,
      [403, 'forbidden: a spectator link subscribes to nothing'],
      404,
      413,
      [422, 'subscription_refused: e-mail on a server with no ARBITER_SMTP_URL, the game has 20 subscriptions already or its owner 5, or the address was sent 3 confirmation mails in 24 hours or has one waiting in this game', ['subscription_refused']],
      503,
    ],
    takesBody: true,
  },
  {
    method: 'GET',
    path: '/games/{id}/subscriptions',
    operationId: 'listSubscriptions',
    handler: 'listSubscriptions',
    group: 'reads',
    role: 'act',
    tag: 'notifications',
    summary: "The game's subscriptions: a side sees its own, the organizer and the tournament all; never a secret, a URL's path or a full address",
    description: 'Each with its dead letters: the commits it could not be told after every retry (the latest 50).',
    parameters: [gameIdParameter],
    responses: { 200: { description: 'the subscriptions, oldest first', content: jsonContent(ref('SubscriptionList'), one(example.subscriptionList)) } },
    errors: [401, [403, 'forbidden: a spectator link lists no subscription'], 404, 503],
  },
  {
    method: 'DELETE',
    path: '/games/{id}/subscriptions/{subscriptionId}',
    operationId: 'unsubscribe',
    handler: 'unsubscribe',
    group: 'commands',
    role: 'act',
    tag: 'notifications',
    summary: 'End a subscription (its owner, the organizer or the tournament)',
    parameters: [gameIdParameter, pathParameter('subscriptionId', 'as POST /games/{id}/subscriptions answered it')],
    responses: { 204: { description: 'ended' } },
    errors: [401, [403, 'forbidden: a spectator link ends no subscription'], [404, 'not_found: no such game, or no subscription of yours with this id'], 503],
  },
  {
    method: 'POST',
    path: '/tournaments/{id}/subscriptions',
    operationId: 'subscribeTournament',
    handler: 'subscribeTournament',
    group: 'commands',
    role: 'tournament',
    tag: 'notifications',
    summary: "Be told of each commit of every game of the tournament, those created later too (the tournament's token)",
    description: 'The same body and answer as POST /games/{id}/subscriptions; each notice names its game.',
    parameters: [tournamentIdParameter],
    requestBody: { required: true, content: jsonContent(ref('SubscriptionRequest'), { examples: example.subscriptionRequest }) },
    responses: { 201: { description: 'subscribed', content: jsonContent(ref('SubscriptionCreated'), one(example.subscriptionCreated)) } },
    errors: [
      [400, 'invalid_request: the kind, url, address or digest does not fit (the field is named)'],
      [401, "unauthenticated: no token, or not this tournament's"],
      [404, 'not_found: no such tournament'],
      413,
      [422, 'subscription_refused: e-mail on a server with no ARBITER_SMTP_URL, the tournament has 20 subscriptions already, or the address was sent 3 confirmation mails in 24 hours', ['subscription_refused']],
      503,
    ],
    takesBody: true,
  },
  {
    method: 'GET',
    path: '/tournaments/{id}/subscriptions',
    operationId: 'listTournamentSubscriptions',
    handler: 'listTournamentSubscriptions',
    group: 'reads',
    role: 'tournament',
    tag: 'notifications',
    summary: "The tournament's own subscriptions, masked, with their dead letters (a game's own are listed on the game)",
    parameters: [tournamentIdParameter],
    responses: { 200: { description: 'the subscriptions, oldest first', content: jsonContent(ref('TournamentSubscriptionList'), one(example.tournamentSubscriptionList)) } },
    errors: [[401, "unauthenticated: no token, or not this tournament's"], [404, 'not_found: no such tournament'], 503],
  },
  {
    method: 'DELETE',
    path: '/tournaments/{id}/subscriptions/{subscriptionId}',
    operationId: 'unsubscribeTournament',
    handler: 'unsubscribeTournament',
    group: 'commands',
    role: 'tournament',
    tag: 'notifications',
    summary: "End one of the tournament's subscriptions",
    parameters: [tournamentIdParameter, pathParameter('subscriptionId', 'as POST /tournaments/{id}/subscriptions answered it')],
    responses: { 204: { description: 'ended' } },
    errors: [[401, "unauthenticated: no token, or not this tournament's"], [404, 'not_found: no such tournament, or no such subscription of it'], 503],
  },
  ...(['confirm', 'unsubscribe'] as const).flatMap((action): Operation[] => {
    const done = action === 'confirm' ? 'confirms the address: mails start' : 'ends the subscription: no more mail';
    const common = {
      path: `/subscriptions/{subscriptionId}/${action}`,
      group: 'commands' as const,
      role: 'anyone' as const,
      tag: 'notifications' as const,
      parameters: [pathParameter('subscriptionId', 'from the link in the mail'), textQuery('code', 'from the link in the mail', 200, 'is the code of the link in the mail')],
      errors: [503 as ErrorSpec],
    };
    const page = { 'text/html': { schema: { type: 'string' } } };
    return [
      {
        ...common,
        method: 'GET',
        operationId: action === 'confirm' ? 'confirmPage' : 'unsubscribePage',
        handler: action === 'confirm' ? 'confirmPage' : 'unsubscribePage',
        summary: `The page of an e-mail's ${action} link: a button that POSTs it (a link scanner following the link changes nothing)`,
        responses: { 200: { description: 'the page', content: page }, 404: { description: 'the link is not, or no longer, valid (a page saying so)', content: page } },
      },
      {
        ...common,
        method: 'POST',
        operationId: action === 'confirm' ? 'confirmSubscription' : 'unsubscribeByLink',
        handler: action === 'confirm' ? 'confirmSubscription' : 'unsubscribeByLink',
        summary: `Follow an e-mail's ${action} link: ${done}${action === 'unsubscribe' ? ' (also List-Unsubscribe-Post one-click)' : ''}`,
        responses: { 200: { description: 'done (a page saying so)', content: page }, 404: { description: 'the link is not, or no longer, valid: nothing changed (a page saying so)', content: page } },
      },
    ];
  }),
  {
    method: 'POST',
    path: '/games/{id}/tokens/{role}',
    operationId: 'reissueToken',
    handler: 'reissueToken',
    group: 'commands',
    role: 'act',
    tag: 'tokens',
    summary: "Reissue a role's token (organizer or tournament): the old one stops working, the new one is shown once",
    description:
      "The change is a commit (TokenReissued) naming only the new token's id, so the timeline shows it without revealing any token. A revoked side gets a token back this way.",
    parameters: [gameIdParameter, pathParameter('role', '"organizer" or a side of the game')],
    responses: { 201: { description: 'the new token and the commit that records the change', content: jsonContent(ref('TokenReissued'), one(example.tokenReissued)) } },
    errors: [
      401,
      [403, "forbidden: only the organizer or the game's tournament reissues tokens"],
      [404, 'not_found: no such game, or no such role in it'],
      [409, 'game_sealed: a sealed game takes no commit; beacon_pending (with Retry-After): a roll of this beacon game waits for its beacon', ['game_sealed', 'beacon_pending']],
      410,
      503,
    ],
  },
  {
    method: 'DELETE',
    path: '/games/{id}/tokens/{role}',
    operationId: 'revokeToken',
    handler: 'revokeToken',
    group: 'commands',
    role: 'act',
    tag: 'tokens',
    summary: "Revoke a side's token (organizer or tournament): it stops working at once",
    description: "The change is a commit (TokenRevoked). The organizer's token cannot be revoked, only reissued.",
    parameters: [gameIdParameter, pathParameter('role', 'a side of the game')],
    responses: { 200: { description: 'revoked, and the commit that records it', content: jsonContent(ref('TokenRevoked'), one(example.tokenRevoked)) } },
    errors: [
      401,
      [403, "forbidden: only the organizer or the game's tournament revokes tokens"],
      [404, 'not_found: no such game, or no such role in it'],
      [409, 'game_sealed: a sealed game takes no commit; beacon_pending (with Retry-After): a roll of this beacon game waits for its beacon', ['game_sealed', 'beacon_pending']],
      410,
      [422, "rule_violation: the side's token is already revoked, or the role is the organizer"],
      503,
    ],
  },
  {
    method: 'POST',
    path: '/tournaments',
    operationId: 'createTournament',
    handler: 'createTournament',
    group: 'commands',
    role: 'anyone',
    tag: 'tournaments',
    summary: "Create a tournament; answers with its organizer's token, shown only this once",
    description: 'Games created with its token (POST /games) belong to it.',
    requestBody: { required: false, content: jsonContent(ref('CreateTournamentRequest'), one({ name: 'Club championship 2026, round 1' })) },
    responses: { 201: { description: 'created', content: jsonContent(ref('TournamentCreated'), one(example.tournamentCreated)) } },
    errors: [400, 413, [422, 'beacon_unavailable: `randomness` on a server that fetches no drand beacons', ['beacon_unavailable']], 429, 503],
    takesBody: true,
  },
  {
    method: 'GET',
    path: '/tournaments/{id}',
    operationId: 'getTournament',
    handler: 'getTournament',
    group: 'reads',
    role: 'tournament',
    tag: 'tournaments',
    summary: 'A page of the games of a tournament, in the order they were created, each with its signed head',
    description: 'Without a query, the first 100 games. Follow `next` with `?after=<next>` until it is null.',
    parameters: [tournamentIdParameter, ...TOURNAMENT_PAGE],
    responses: { 200: { description: 'the listing', content: jsonContent(ref('TournamentListing'), one(example.tournamentListing)) } },
    errors: tournamentPageErrors,
  },
  {
    method: 'GET',
    path: '/tournaments/{id}/export',
    operationId: 'exportTournament',
    handler: 'exportTournament',
    // It may start the export's job (tournamentExportJobs.ts); the job, not this request, signs the tournament head.
    group: 'commands',
    role: 'tournament',
    tag: 'tournaments',
    summary: "Every game's export, as NDJSON, made by a job: 202 and where to ask, then 303 to the file",
    description:
      'A job makes the export of the tournament as it stands (docs/tournaments.md §5): 202 with `Location` (`statusUrl`) to GET again after `Retry-After` seconds, then 303 to a five-minute link (GET it without your token). ' +
      'The same state (every game where it ends, the keys, the page) is made once: asked again, 303 at once. ' +
      "The file: one JSON document per line, a TournamentExportHeader whose signed tournamentHead lists every game (docs/verifier.md), then one ExportBundle per game in the listing's order. " +
      'Without a query, every game; with `after` or `limit`, a page (its header says which; `page.next` is the `after` of the next page).',
    parameters: [tournamentIdParameter, ...TOURNAMENT_PAGE],
    responses: {
      200: {
        description: 'the export, one JSON document per line, from a server without an export store',
        content: {
          'application/x-ndjson': {
            // OpenAPI 3.1 has no schema for the items of a sequence: this is the schema of each line.
            schema: {
              description: 'Each line is one JSON document: a TournamentExportHeader, then one ExportBundle per game.',
              anyOf: [ref('TournamentExportHeader'), ref('ExportBundle')],
            },
            examples: example.tournamentExportLines,
          },
        },
      },
      202: EXPORT_RUNNING,
      303: EXPORT_READY,
    },
    errors: tournamentPageErrors,
  },
  {
    method: 'GET',
    path: '/tournaments/{id}/exports/{exportId}',
    operationId: 'getTournamentExport',
    handler: 'tournamentExportStatus',
    // A lost job is started again from here.
    group: 'commands',
    role: 'tournament',
    tag: 'tournaments',
    summary: "A tournament export's status: 202 while its job runs, 303 to the file once made",
    description: "The `Location` of GET /tournaments/{id}/export's 202. Ask again after `Retry-After` seconds; a job lost on the way is started again (at most three times).",
    parameters: [tournamentIdParameter, pathParameter('exportId', "the export's id, as the 202 named it", { type: 'string', pattern: '^[0-9a-f]{40}$' })],
    responses: { 202: EXPORT_RUNNING, 303: EXPORT_READY },
    errors: [
      [401, "unauthenticated: no token, or not this tournament's"],
      [404, 'not_found: no such tournament, or no such export of it (exports are kept 7 days)'],
      [503, 'unavailable (with Retry-After): a store could not be reached, or the export failed three times'],
    ],
  },
  {
    method: 'GET',
    path: '/keys',
    operationId: 'getKeys',
    handler: 'keys',
    group: 'reads',
    role: 'anyone',
    tag: 'trust',
    summary: 'Signing public keys with their fingerprints, and the key log',
    responses: { 200: { description: 'the keys', content: jsonContent(ref('Keys'), one(example.keys)) } },
    errors: [],
  },
  {
    method: 'GET',
    path: '/verifier.mjs',
    operationId: 'getVerifier',
    handler: 'verifierScript',
    // Its own function: the catalogue's bundle stays small, and this one holds little but the verifier's text.
    group: 'verifier',
    role: 'anyone',
    tag: 'trust',
    summary: 'The standalone verifier: node verifier.mjs game.json --trust ed25519:…',
    responses: { 200: { description: 'one ES module', content: file('text/javascript') } },
    errors: [],
  },
  {
    method: 'GET',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    handler: 'openapi',
    group: 'catalogue',
    role: 'anyone',
    tag: 'service',
    summary: 'This document',
    responses: { 200: { description: 'OpenAPI 3.1', content: jsonContent({ type: 'object' }) } },
    errors: [],
  },
  {
    method: 'GET',
    path: '/docs',
    operationId: 'getApiReference',
    handler: 'apiDocsPage',
    // The API reference page: RapiDoc's script alone is about 215 KB gzipped, too much to share the web app's bundle.
    group: 'docs',
    role: 'anyone',
    tag: 'service',
    summary: 'A reference page of this document, for people',
    responses: { 200: { description: 'HTML', content: file('text/html') } },
    errors: [],
  },
  {
    method: 'GET',
    path: '/docs/assets/{file}',
    operationId: 'getApiReferenceAsset',
    handler: 'apiDocsAsset',
    group: 'docs',
    role: 'anyone',
    tag: 'service',
    summary: "The reference page's script",
    parameters: [pathParameter('file', 'a file name the page links to')],
    responses: { 200: { description: 'the file', content: file('text/javascript') } },
    errors: [[404, 'not_found: no such file']],
  },
  {
    method: 'GET',
    path: '/',
    operationId: 'getWebApp',
    handler: 'webPage',
    // The web app's files, embedded in the bundle: no table, no key.
    group: 'web',
    role: 'anyone',
    tag: 'service',
    summary: 'The web app: create a game, follow its timeline (#/games/{id}?token=…), verify an export in the browser',
    responses: { 200: { description: 'HTML', content: file('text/html') } },
    errors: [[404, 'not_found: this server was started without the web app']],
  },
  {
    method: 'GET',
    path: '/assets/{file}',
    operationId: 'getWebAsset',
    handler: 'webAsset',
    group: 'web',
    role: 'anyone',
    tag: 'service',
    summary: "The web app's script and style sheet",
    parameters: [pathParameter('file', 'a file name the page links to')],
    responses: { 200: { description: 'the file', content: { ...file('text/javascript'), ...file('text/css') } } },
    errors: [[404, 'not_found: no such file']],
  },
];

/** Roles API Gateway lets through unauthorized by design; the function checks every other role's token. */
export const isPublic = (role: Role) => role === 'anyone' || role === 'anyoneOrTournament';
