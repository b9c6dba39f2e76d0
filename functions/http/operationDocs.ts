import * as example from './openapiExamples';
import { gameStatsExample, publicStatsExample } from './statsShapes';
import { jsonContent, one, ref, type Json } from './openapiParts';

/** What GET /openapi.json says of an operation besides what serves it (operations.ts): its words, bodies and answers. */
export interface OperationDocs {
  summary: string;
  description?: string;
  requestBody?: Json;
  /** Its answers other than errors, by status. */
  responses: Record<number, Json>;
}

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
 * The documentation of every operation of operations.ts, by operationId: only the OpenAPI
 * document (openapi.ts) reads it, so that the functions that serve the API do not load its prose
 * and examples at a cold start. openapi.ts refuses an operation without its entry here.
 */
export const OPERATION_DOCS: ReadonlyMap<string, OperationDocs> = new Map<string, OperationDocs>([
  [
    'getHealth',
    {
      summary: 'Liveness',
      responses: { 200: { description: 'alive', content: jsonContent(ref('Health'), one({ ok: true })) } },
    },
  ],
  [
    'listRulesets',
    {
      summary: 'The catalogue of rulesets',
      description: 'Per ruleset: its sides, options, commands with their payload schemas and who may send them, procedures, and the schema of its state.',
      responses: { 200: { description: 'the rulesets', content: jsonContent(ref('Catalogue')) } },
    },
  ],
  [
    'evaluateProcedure',
    {
      summary: 'Stateless calculator: run a procedure, nothing stored',
      description:
      'With `dice`, those values are used in draw order (extra ones are ignored; too few is 400 insufficient_dice with details.needed; a value a die cannot show is 400). ' +
      'Without, fresh random dice are drawn and returned. The rules are checked before any die is drawn.',
      requestBody: { required: true, content: jsonContent(ref('EvaluateRequest'), { examples: example.evaluateRequest }) },
      responses: { 200: { description: 'the result, how it was reached, and the dice used', content: jsonContent(ref('EvaluateResult'), one(example.evaluateResult)) } },
    },
  ],
  [
    'getTableSchema',
    {
      summary: 'The JSON Schema of a combat table given as data',
      description:
      "Generated from the schema that validates tables, so the two agree. Checks the shape; `POST /tables/validate` also checks what a schema cannot say (every cell's code defined, rows that tile, …). docs/tables.md explains the format.",
      responses: { 200: { description: 'JSON Schema (draft 2020-12)', content: jsonContent({ type: 'object' }) } },
    },
  ],
  [
    'validateTable',
    {
      summary: 'Whether a combat table is valid, and where it is not',
      description: "Answers 200 either way: `valid` with the table's content hash, or every issue with its place (`cells[3][5]`, `rows[2]`, …). Nothing is stored.",
      requestBody: { required: true, content: jsonContent({ type: 'object', description: 'a table definition (GET /schemas/table.json)' }) },
      responses: {
      200: { description: 'the verdict', content: jsonContent(ref('TableValidation'), one({ valid: false, issues: [{ path: 'cells[3][5]', message: '"XX" is not a code of results' }] })) },
    },
    },
  ],
  [
    'createGame',
    {
      summary: 'Create a game; answers with its tokens, shown only this once',
      description:
      "With a tournament's token, the game belongs to that tournament and the answer names it; without a token, it stands alone. " +
      'With an Idempotency-Key, the same key and request answer the same game and the same tokens again for 24 hours (a retry after a lost answer); treat the key as a secret for that time. ' +
      "A key sent with a tournament's token belongs to that tournament: the same key without it, or with another tournament's, is another key. " +
      'After 24 hours the key is forgotten: sent again, it creates a new game with new tokens.',
      requestBody: { required: true, content: jsonContent(ref('CreateGameRequest'), { examples: example.createGameRequest }) },
      responses: { 201: { description: 'created', content: jsonContent(ref('GameCreated'), one(example.gameCreated)) } },
    },
  ],
  [
    'getGame',
    {
      summary: "The game and its ruleset's view of its state",
      responses: { 200: { description: 'the game', content: jsonContent(ref('Game'), one(example.gameView)) } },
    },
  ],
  [
    'sendCommand',
    {
      summary: 'Send a command; one accepted command is one signed commit',
      description:
      'Accept: text/plain answers with the commit as a chat-log line: `#<seq> <actor> <type> <summary> [<first 8 hex of hash>]`. ' +
      'The organizer may act for a side with `as`. Sending the same commandId again returns the stored commit with 200.',
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
    },
  ],
  [
    'listEvents',
    {
      summary: 'The commits after a seq; ETag is the version',
      description:
      'With If-None-Match naming the current version, 304 (this URL at this version answered before). `wait` holds the request until a commit after `after` exists or the seconds pass ' +
      '(then 304 when If-None-Match matches, else an empty page). Accept: text/plain answers one chat-log line per commit.',
      responses: {
      200: {
        description: 'the page',
        headers: etag,
        content: { ...jsonContent(ref('EventsPage'), one(example.eventsPage)), 'text/plain': { schema: { type: 'string' }, example: example.eventsText } },
      },
      304: { description: 'If-None-Match names the current version', headers: etag },
    },
    },
  ],
  [
    'exportGame',
    {
      summary: 'The export bundle (fairness-v1 §7): every commit, the keys, the key log and a signed head',
      description:
      'An export that fits one response (5 MiB) comes inline; a larger one is stored once per version and answered with a 303 to a link valid for five minutes (docs/exports.md).',
      responses: { 200: { description: 'the bundle', content: jsonContent(ref('ExportBundle'), one(example.exportBundle)) }, 303: STORED_EXPORT },
    },
  ],
  [
    'verifyGame',
    {
      summary: 'Verify the game: hashes, signatures, dice and rules',
      description: "The export checked against itself; whether its key is the one you trust is the offline verifier's question.",
      responses: { 200: { description: 'the report', content: jsonContent(ref('Verification'), one(example.verification)) } },
    },
  ],
  [
    'getGameStats',
    {
      summary: "The sealed game's dice statistics: counts per face against expectation, χ² and plain words (docs/fairness-stats.md)",
      description: 'By die size, every role together and each role (the side or organizer that sent the rolling commands); the verifier prints the same figures from the export (`node verifier.mjs stats export.json`).',
      responses: { 200: { description: 'the statistics', content: jsonContent(ref('GameStats'), one(gameStatsExample)) } },
    },
  ],
  [
    'getPublicStats',
    {
      summary: 'The dice of every sealed game that did not opt out ("publicStats": false), by die size, with the same figures',
      responses: { 200: { description: 'the public statistics', content: jsonContent(ref('PublicStats'), one(publicStatsExample)) } },
    },
  ],
  [
    'getGameHead',
    {
      summary: 'The signed head: where the game ends now, signed by the current key (trust.md §4)',
      responses: { 200: { description: 'the signed head', content: jsonContent(ref('GameHead'), one(example.head)) } },
    },
  ],
  [
    'getGameClock',
    {
      summary: 'Whose move it is, and the time each side has used (docs/clocks.md)',
      description:
      "Folded from the signed recordedAt of the commits: the span between two commits is charged to the side to move after the first. Anyone can fold it again from the export. `usedSeconds` counts up to `asOf`, the last commit; `overdue` is computed now, against the game's time control.",
      responses: { 200: { description: 'the clock', content: jsonContent(ref('Clock'), one(example.clock)) } },
    },
  ],
  [
    'createViewer',
    {
      summary: 'Mint a read-only spectator link (organizer)',
      description: 'Its token reads the game, events, head, export and verification, and sends nothing (403). The token is shown once.',
      requestBody: { required: false, content: jsonContent(ref('ViewerRequest'), one({ label: 'club stream' })) },
      responses: { 201: { description: 'the link', content: jsonContent(ref('ViewerCreated'), one(example.viewerCreated)) } },
    },
  ],
  [
    'listViewers',
    {
      summary: "The game's spectator links (organizer): label, creation time and id of each, revoked ones too; never a token",
      description: 'The organizer revokes any of them later with its viewerId, from any window.',
      responses: { 200: { description: 'the links, oldest first', content: jsonContent(ref('ViewerList'), one(example.viewerList)) } },
    },
  ],
  [
    'revokeViewer',
    {
      summary: 'Revoke a spectator link (organizer): it stops working at once',
      responses: { 204: { description: 'revoked' } },
    },
  ],
  [
    'subscribe',
    {
      summary: 'Be told of each commit: a webhook (signed), Discord, Slack or e-mail',
      description:
      "The organizer, a side (for itself) or the game's tournament subscribes. A webhook's signing secret (`whsec_…`, Standard Webhooks) is shown only this once. " +
      'An e-mail address gets a confirmation link first and nothing else until it is followed (`status` "confirming"). ' +
      '`url` is https, or http to this machine when the server allows it (ARBITER_NOTIFY_ALLOW_LOOPBACK=1); a Discord URL has the path /api/webhooks/…, a Slack one /services/…. docs/notifications.md.',
      requestBody: { required: true, content: jsonContent(ref('SubscriptionRequest'), { examples: example.subscriptionRequest }) },
      responses: { 201: { description: 'subscribed', content: jsonContent(ref('SubscriptionCreated'), one(example.subscriptionCreated)) } },
    },
  ],
  [
    'listSubscriptions',
    {
      summary: "The game's subscriptions: a side sees its own, the organizer and the tournament all; never a secret, a URL's path or a full address",
      description: 'Each with its dead letters: the commits it could not be told after every retry (the latest 50).',
      responses: { 200: { description: 'the subscriptions, oldest first', content: jsonContent(ref('SubscriptionList'), one(example.subscriptionList)) } },
    },
  ],
  [
    'unsubscribe',
    {
      summary: 'End a subscription (its owner, the organizer or the tournament)',
      responses: { 204: { description: 'ended' } },
    },
  ],
  [
    'subscribeTournament',
    {
      summary: "Be told of each commit of every game of the tournament, those created later too (the tournament's token)",
      description: 'The same body and answer as POST /games/{id}/subscriptions; each notice names its game.',
      requestBody: { required: true, content: jsonContent(ref('SubscriptionRequest'), { examples: example.subscriptionRequest }) },
      responses: { 201: { description: 'subscribed', content: jsonContent(ref('SubscriptionCreated'), one(example.subscriptionCreated)) } },
    },
  ],
  [
    'listTournamentSubscriptions',
    {
      summary: "The tournament's own subscriptions, masked, with their dead letters (a game's own are listed on the game)",
      responses: { 200: { description: 'the subscriptions, oldest first', content: jsonContent(ref('TournamentSubscriptionList'), one(example.tournamentSubscriptionList)) } },
    },
  ],
  [
    'unsubscribeTournament',
    {
      summary: "End one of the tournament's subscriptions",
      responses: { 204: { description: 'ended' } },
    },
  ],
  [
    'reissueToken',
    {
      summary: "Reissue a role's token (organizer or tournament): the old one stops working, the new one is shown once",
      description:
      "The change is a commit (TokenReissued) naming only the new token's id, so the timeline shows it without revealing any token. A revoked side gets a token back this way.",
      responses: { 201: { description: 'the new token and the commit that records the change', content: jsonContent(ref('TokenReissued'), one(example.tokenReissued)) } },
    },
  ],
  [
    'revokeToken',
    {
      summary: "Revoke a side's token (organizer or tournament): it stops working at once",
      description: "The change is a commit (TokenRevoked). The organizer's token cannot be revoked, only reissued.",
      responses: { 200: { description: 'revoked, and the commit that records it', content: jsonContent(ref('TokenRevoked'), one(example.tokenRevoked)) } },
    },
  ],
  [
    'createTournament',
    {
      summary: "Create a tournament; answers with its organizer's token, shown only this once",
      description: 'Games created with its token (POST /games) belong to it.',
      requestBody: { required: false, content: jsonContent(ref('CreateTournamentRequest'), one({ name: 'Club championship 2026, round 1' })) },
      responses: { 201: { description: 'created', content: jsonContent(ref('TournamentCreated'), one(example.tournamentCreated)) } },
    },
  ],
  [
    'getTournament',
    {
      summary: 'A page of the games of a tournament, in the order they were created, each with its signed head',
      description: 'Without a query, the first 100 games. Follow `next` with `?after=<next>` until it is null.',
      responses: { 200: { description: 'the listing', content: jsonContent(ref('TournamentListing'), one(example.tournamentListing)) } },
    },
  ],
  [
    'exportTournament',
    {
      summary: "Every game's export, as NDJSON, made by a job: 202 and where to ask, then 303 to the file",
      description:
      'A job makes the export of the tournament as it stands (docs/tournaments.md §5): 202 with `Location` (`statusUrl`) to GET again after `Retry-After` seconds, then 303 to a five-minute link (GET it without your token). ' +
      'The same state (every game where it ends, the keys, the page) is made once: asked again, 303 at once. ' +
      "The file: one JSON document per line, a TournamentExportHeader whose signed tournamentHead lists every game (docs/verifier.md), then one ExportBundle per game in the listing's order. " +
      'Without a query, every game; with `after` or `limit`, a page (its header says which; `page.next` is the `after` of the next page).',
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
    },
  ],
  [
    'getTournamentExport',
    {
      summary: "A tournament export's status: 202 while its job runs, 303 to the file once made",
      description: "The `Location` of GET /tournaments/{id}/export's 202. Ask again after `Retry-After` seconds; a job lost on the way is started again (at most three times).",
      responses: { 202: EXPORT_RUNNING, 303: EXPORT_READY },
    },
  ],
  [
    'getKeys',
    {
      summary: 'Signing public keys with their fingerprints, and the key log',
      responses: { 200: { description: 'the keys', content: jsonContent(ref('Keys'), one(example.keys)) } },
    },
  ],
  [
    'getVerifier',
    {
      summary: 'The standalone verifier: node verifier.mjs game.json --trust ed25519:…',
      responses: { 200: { description: 'one ES module', content: file('text/javascript') } },
    },
  ],
  [
    'getOpenApiDocument',
    {
      summary: 'This document',
      responses: { 200: { description: 'OpenAPI 3.1', content: jsonContent({ type: 'object' }) } },
    },
  ],
  [
    'getApiReference',
    {
      summary: 'A reference page of this document, for people',
      responses: { 200: { description: 'HTML', content: file('text/html') } },
    },
  ],
  [
    'getApiReferenceAsset',
    {
      summary: "The reference page's script",
      responses: { 200: { description: 'the file', content: file('text/javascript') } },
    },
  ],
  [
    'getWebApp',
    {
      summary: 'The web app: create a game, follow its timeline (#/games/{id}?token=…), verify an export in the browser',
      responses: { 200: { description: 'HTML', content: file('text/html') } },
    },
  ],
  [
    'getWebAsset',
    {
      summary: "The web app's script and style sheet",
      responses: { 200: { description: 'the file', content: { ...file('text/javascript'), ...file('text/css') } } },
    },
  ],
  ...(['confirm', 'unsubscribe'] as const).flatMap((action): [string, OperationDocs][] => {
    const done = action === 'confirm' ? 'confirms the address: mails start' : 'ends the subscription: no more mail';
    const page = { 'text/html': { schema: { type: 'string' } } };
    return [
      [
        action === 'confirm' ? 'confirmPage' : 'unsubscribePage',
        {
          summary: `The page of an e-mail's ${action} link: a button that POSTs it (a link scanner following the link changes nothing)`,
          responses: { 200: { description: 'the page', content: page }, 404: { description: 'the link is not, or no longer, valid (a page saying so)', content: page } },
        },
      ],
      [
        action === 'confirm' ? 'confirmSubscription' : 'unsubscribeByLink',
        {
          summary: `Follow an e-mail's ${action} link: ${done}${action === 'unsubscribe' ? ' (also List-Unsubscribe-Post one-click)' : ''}`,
          responses: { 200: { description: 'done (a page saying so)', content: page }, 404: { description: 'the link is not, or no longer, valid: nothing changed (a page saying so)', content: page } },
        },
      ],
    ];
  }),
]);
