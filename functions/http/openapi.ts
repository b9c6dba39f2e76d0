import type * as z from 'zod';
import { commandSpec, commandTypes } from '../../domain/game/decideGame';
import { gameEvents } from '../../domain/game/gameEvents';
import { CreateGameBody, gameCommands } from '../../domain/game/gameCommands';
import type { Ruleset } from '../../domain/ruleset';
import { allRulesets } from '../../domain/rulesets/registry';
import { GameHeadShape } from '../../domain/trust/gameHead';
import { KeyRotationShape } from '../../domain/trust/keyRotation';
import { CommitShape } from '../../domain/verify/bundleShape';
import { EvaluateRequest } from '../application/evaluate';
import { CommandRequest } from '../application/gameService';
import { TOURNAMENT_PAGE_DEFAULT, TOURNAMENT_PAGE_MAX } from '../application/tournamentPages';
import { CreateTournamentRequest, TokenReissued, TokenRevoked, TournamentCreated, TournamentExportHeader, TournamentGame, TournamentListing } from '../application/tournamentShapes';
import { ViewerRequest } from '../application/viewers';
import {
  CatalogueShape,
  CommandAcceptedShape,
  ErrorShape,
  EvaluateResultShape,
  TableValidationShape,
  EventsPageShape,
  ExportBundleShape,
  GameCreatedShape,
  GameViewShape,
  HealthShape,
  KeysShape,
  PublicKeyShape,
  VerificationShape,
  ViewerCreatedShape,
  type ErrorCode,
} from './apiShapes';
import { componentPrefix, jsonSchema } from './catalogue';
import * as example from './openapiExamples';

type Json = Record<string, unknown>;

/**
 * A zod schema as JSON Schema, with records keyed by an enum written as objects with those
 * properties: the same constraint, in the form client generators and linters read.
 */
function toJson(schema: z.ZodType, io: 'input' | 'output' = 'input'): Json {
  return exhaustiveRecords(jsonSchema(schema, io)) as Json;
}

function exhaustiveRecords(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(exhaustiveRecords);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node).map(([key, value]) => [key, exhaustiveRecords(value)] as const);
  const schema: Json = Object.fromEntries(entries);
  const keys = (schema.propertyNames as { enum?: unknown[] } | undefined)?.enum;
  if (schema.type !== 'object' || !Array.isArray(keys) || schema.properties || typeof schema.additionalProperties !== 'object') return schema;
  const { propertyNames: _names, additionalProperties: value, ...rest } = schema;
  return { ...rest, properties: Object.fromEntries(keys.map((key) => [String(key), value])), additionalProperties: false };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (schema: unknown, examples?: Json) => ({ 'application/json': { schema, ...examples } });
const one = (value: unknown) => ({ example: value });

/** Replaces (or adds) properties of an object schema; `required` replaces the list when given. */
function withProperties(schema: Json, properties: Json, required?: string[]): Json {
  return { ...schema, properties: { ...(schema.properties as Json), ...properties }, ...(required ? { required } : {}) };
}

const accepts = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

/** Component schemas by name; a name given twice is a bug of this file, not a silent overwrite. */
class Schemas {
  readonly all: Record<string, Json> = {};
  add(name: string, schema: Json) {
    if (Object.hasOwn(this.all, name)) throw new Error(`two component schemas named ${name}`);
    this.all[name] = schema;
    return ref(name);
  }
}

/** A oneOf of component schemas told apart by `property`, each variant's value of it given. */
function discriminated(property: string, variants: readonly [value: string, component: { $ref: string }][], description: string): Json {
  return {
    description,
    oneOf: variants.map(([, component]) => component),
    discriminator: { propertyName: property, mapping: Object.fromEntries(variants.map(([value, component]) => [value, component.$ref])) },
  };
}

const constant = (value: string) => ({ type: 'string', const: value });

// ---- responses ----

const ERROR_TEXT: Record<number, string> = {
  400: 'invalid_request: the request does not fit the schema (details.issues lists each field)',
  401: 'unauthenticated: no token, or not a token of this game',
  403: 'forbidden: this role may never do this',
  404: 'not_found: no such game',
  409: 'version_conflict (details.currentVersion), game_sealed or command_id_reused (details.seq)',
  410: 'game_abandoned: the game had no command for the deployment\'s days (details.afterDays) and was not sealed: it takes no more commands and is being deleted',
  413: 'payload_too_large: bodies over 64 KB, or a command whose record would pass what one command may take (details.bytes, details.maxBytes); nothing is recorded',
  422: 'rule_violation: the rules refuse it now (details.rule names the rule)',
  429: "creation_quota: this address created its quota of games and tournaments this hour, a tournament's games counting for the address that created it (details.perHour); retry after Retry-After seconds",
  500: 'internal_error: a fault of the service, never of the request; retrying with the same commandId is safe',
  503: 'unavailable: the store throttled or timed out; retry after Retry-After seconds (with the same commandId)',
};
const CODES_BY_STATUS: Record<number, ErrorCode[]> = {
  400: ['invalid_request'],
  401: ['unauthenticated'],
  403: ['forbidden'],
  404: ['not_found'],
  409: ['version_conflict', 'game_sealed', 'command_id_reused'],
  410: ['game_abandoned'],
  413: ['payload_too_large'],
  422: ['rule_violation'],
  429: ['creation_quota'],
  500: ['internal_error'],
  503: ['unavailable'],
};

type ErrorSpec = number | [status: number, description: string, codes?: ErrorCode[]];

/** Error answers: `{ error: { code, message, details? } }`, one example per code; 503 with Retry-After. */
function errors(...specs: ErrorSpec[]): Json {
  const all: ErrorSpec[] = [...specs, 500];
  return Object.fromEntries(
    all.map((spec) => {
      const [status, description, codes] = typeof spec === 'number' ? [spec, ERROR_TEXT[spec], CODES_BY_STATUS[spec]] : [spec[0], spec[1], spec[2] ?? CODES_BY_STATUS[spec[0]]];
      const examples = Object.fromEntries(codes.map((code) => [code, { value: { error: { code, ...example.ERROR_EXAMPLES[code] } } }]));
      return [
        String(status),
        {
          description,
          ...(status === 503 || status === 429 ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } } : {}),
          content: jsonContent(ref('Error'), { examples }),
        },
      ];
    }),
  );
}

/** Routes that take no body still parse one: a body that is not JSON is a 400, one over 64 KB a 413. */
const BODY_NOT_JSON: ErrorSpec = [400, 'invalid_request: this route takes no body, and the one sent is not JSON'];
const noBody = (...specs: ErrorSpec[]) => errors(BODY_NOT_JSON, ...specs, 413);

// ---- parameters ----

const pathParameter = (name: string, description: string, schema: Json = { type: 'string', minLength: 1 }) => ({ name, in: 'path', required: true, description, schema });
const gameIdParameter = pathParameter('id', 'the game id, as POST /games answered it');
const tournamentIdParameter = pathParameter('id', 'the tournament id, as POST /tournaments answered it');
const tournamentPageParameters = [
  { name: 'after', in: 'query', description: 'the `next` of the page before: the games listed after this game', schema: { type: 'string', minLength: 1, maxLength: 128 } },
  { name: 'limit', in: 'query', description: 'at most this many games', schema: { type: 'integer', minimum: 1, maximum: TOURNAMENT_PAGE_MAX, default: TOURNAMENT_PAGE_DEFAULT } },
];

// ---- security ----

const GAME_TOKEN = { gameToken: [] };
const TOURNAMENT_TOKEN = { tournamentToken: [] };
const PUBLIC: Json[] = [];
/** Reads: a token of the game, or none for a game created with `"public": true`. */
const READ = [GAME_TOKEN, TOURNAMENT_TOKEN, {}];

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
/** Acting on a game: its token (organizer, side, spectator link), or its tournament's, which acts as its organizer. */
const ACT = [GAME_TOKEN, TOURNAMENT_TOKEN];

const TAGS = [
  { name: 'games', description: 'Create a game, read it, its commits and its export; each read needs one of its tokens unless it is public.' },
  { name: 'commands', description: 'Everything that changes a game is a command; each accepted command is one signed commit. Command and event types are per ruleset.' },
  { name: 'tokens', description: "The organizer (or the game's tournament) reissues or revokes a role's token; the change is itself a commit." },
  { name: 'spectators', description: 'Read-only spectator links the organizer mints and revokes.' },
  { name: 'tournaments', description: 'A set of games created with one tournament token: listed together with their signed heads, exported together.' },
  { name: 'rulesets', description: 'The catalogue of rulesets and the stateless calculator.' },
  { name: 'trust', description: 'The signing keys, signed heads, verification, and the standalone verifier (docs/fairness.md, trust.md).' },
  { name: 'service', description: 'Health, this document and its reference page, and the web app.' },
];

/** GET /openapi.json: generated from the same zod schemas that validate the requests and that the rulesets' events follow. */
export function openApiDocument() {
  const schemas = new Schemas();

  schemas.add('Error', toJson(ErrorShape));
  schemas.add('Health', toJson(HealthShape));
  schemas.add('Catalogue', toJson(CatalogueShape));
  schemas.add('EvaluateResult', toJson(EvaluateResultShape));
  schemas.add('TableValidation', toJson(TableValidationShape));
  schemas.add('GameHead', toJson(GameHeadShape));
  schemas.add('KeyRotation', toJson(KeyRotationShape));
  schemas.add('PublicKey', toJson(PublicKeyShape));
  schemas.add('Keys', withProperties(toJson(KeysShape), { keys: { type: 'array', items: ref('PublicKey') }, log: { type: 'array', items: ref('KeyRotation'), description: 'the key log: each statement signed by the key it retires' } }));
  schemas.add('Verification', toJson(VerificationShape));
  schemas.add('GameCreated', toJson(GameCreatedShape));
  schemas.add('ViewerRequest', toJson(ViewerRequest));
  schemas.add('ViewerCreated', toJson(ViewerCreatedShape));
  schemas.add('CreateTournamentRequest', toJson(CreateTournamentRequest));
  schemas.add('TournamentCreated', toJson(TournamentCreated));
  schemas.add('TournamentListing', withProperties(toJson(TournamentListing), { games: { type: 'array', items: withProperties(toJson(TournamentGame), { head: ref('GameHead') }) } }));
  schemas.add('TournamentExportHeader', toJson(TournamentExportHeader));

  // The game's own events, the same in every ruleset.
  const gameEventVariants = Object.entries(gameEvents).map(([type, data]) => [type, schemas.add(`${type}Event`, eventSchema(type, data))] as [string, { $ref: string }]);

  const commandRequestBase = toJson(CommandRequest);
  const createGameBase = toJson(CreateGameBody);
  const evaluateBase = toJson(EvaluateRequest);
  const commitBase = toJson(CommitShape);
  const gameViewBase = toJson(GameViewShape);
  const perRuleset = { create: [] as [string, { $ref: string }][], game: [] as [string, { $ref: string }][], request: [] as Json[], evaluate: [] as Json[], commit: [] as Json[] };

  for (const ruleset of allRulesets()) {
    const prefix = componentPrefix(ruleset.id);
    const options = schemas.add(`${prefix}Options`, toJson(ruleset.options));
    const state = schemas.add(`${prefix}State`, toJson(ruleset.view));
    perRuleset.game.push([ruleset.id, schemas.add(`${prefix}Game`, withProperties(gameViewBase, { ruleset: constant(ruleset.id), state }))]);
    const createRequest = schemas.add(
      `${prefix}CreateGameRequest`,
      withProperties({ ...createGameBase, description: `A game of ${ruleset.title}.` }, { ruleset: constant(ruleset.id), options }),
    );
    perRuleset.create.push([ruleset.id, createRequest]);

    // The stateless calculator: one request shape per procedure.
    const procedures = Object.entries(ruleset.procedures).map(([name, procedure]) => {
      const input = schemas.add(`${prefix}Procedure${componentPrefix(name)}`, toJson(procedure.input));
      const variant = withProperties(
        { ...evaluateBase, description: procedure.description },
        { procedure: constant(name), input, options },
        ['procedure', ...(accepts(procedure.input, {}) ? [] : ['input'])],
      );
      return [name, schemas.add(`${prefix}Evaluate${componentPrefix(name)}`, variant)] as [string, { $ref: string }];
    });
    perRuleset.evaluate.push(schemas.add(`${prefix}EvaluateRequest`, discriminated('procedure', procedures, `POST /rulesets/${ruleset.id}/evaluate`)));

    // Commands: the payload of each type; the command as a commit records it; the request that sends it.
    const recorded: [string, { $ref: string }][] = [
      ['CreateGame', schemas.add(`${prefix}CreateGameCommand`, commandSchema('CreateGame', createRequest, 'Commit 1: the game as it was created.'))],
    ];
    const sendable: [string, { $ref: string }][] = [];
    const sent = new Set(commandTypes(ruleset));
    // Every type a commit may record: those sent to /commands, and those the token routes send.
    for (const type of [...Object.keys(gameCommands), ...Object.keys(ruleset.commands)]) {
      const spec = commandSpec(ruleset, type)!;
      const payload = schemas.add(`${prefix}${type}`, toJson(spec.schema));
      recorded.push([type, schemas.add(`${prefix}${type}Command`, commandSchema(type, payload, spec.description))]);
      if (!sent.has(type)) continue;
      const request = withProperties(
        { ...commandRequestBase, description: spec.description },
        { type: constant(type), payload },
        ['commandId', 'type', ...(accepts(spec.schema, {}) ? [] : ['payload'])],
      );
      sendable.push([type, schemas.add(`${prefix}${type}Request`, request)]);
    }
    const commands = schemas.add(`${prefix}Command`, discriminated('type', recorded, `A command of a ${ruleset.id} game, as its commit records it.`));
    perRuleset.request.push(schemas.add(`${prefix}CommandRequest`, discriminated('type', sendable, `POST /games/{id}/commands in a ${ruleset.id} game.`)));

    const events = schemas.add(`${prefix}Event`, eventUnion(schemas, prefix, ruleset, gameEventVariants));
    perRuleset.commit.push(
      schemas.add(
        `${prefix}Commit`,
        withProperties({ ...commitBase, description: `A commit of a ${ruleset.id} game (fairness-v1 §5).` }, { command: commands, events: { type: 'array', items: events } }),
      ),
    );
  }

  schemas.add('CreateGameRequest', discriminated('ruleset', perRuleset.create, 'POST /games: the ruleset decides the options.'));
  schemas.add('Game', discriminated('ruleset', perRuleset.game, "A game and its ruleset's view of its state."));
  schemas.add('CommandRequest', {
    type: 'object',
    description: "A command: its type and payload are the game's ruleset's (GET /rulesets). The same commandId again returns the stored commit.",
    required: ['commandId', 'type'],
    anyOf: perRuleset.request,
  });
  schemas.add('EvaluateRequest', { type: 'object', description: 'A procedure of the ruleset in the path, with its input.', required: ['procedure'], anyOf: perRuleset.evaluate });
  schemas.add('Commit', { description: 'A signed commit (fairness-v1 §5): one accepted command, its events and its dice.', anyOf: perRuleset.commit });
  const commits = { type: 'array', items: ref('Commit') };
  schemas.add('CommandAccepted', withProperties(toJson(CommandAcceptedShape), { commit: ref('Commit') }));
  schemas.add('EventsPage', withProperties(toJson(EventsPageShape), { commits: { ...commits, description: 'the commits with seq > after, in order' } }));
  schemas.add(
    'ExportBundle',
    withProperties(toJson(ExportBundleShape), {
      commits,
      keys: { type: 'object', properties: { keys: { type: 'array', items: ref('PublicKey') } }, required: ['keys'], additionalProperties: false },
      keyLog: { type: 'array', items: ref('KeyRotation') },
      head: ref('GameHead'),
    }),
  );
  schemas.add('TokenReissued', withProperties(toJson(TokenReissued), { commit: ref('Commit') }));
  schemas.add('TokenRevoked', withProperties(toJson(TokenRevoked), { commit: ref('Commit') }));

  const rulesetIds = allRulesets().map((r) => r.id);
  const etag = { ETag: { $ref: '#/components/headers/ETag' } };

  return {
    openapi: '3.1.0',
    info: {
      title: 'Arbiter',
      version: '1',
      description:
        'Verifiable, event-sourced combat resolution for hex-and-counter wargames. Dice and hash chain: fairness-v1 (docs/fairness.md). ' +
        'Tokens are bearer tokens (`Authorization: Bearer <token>`), shown once. Refusals: unknown game 404, then no or unknown token 401, ' +
        'then a role that may never do this 403, then a version or sealed conflict 409, then what the rules refuse now 422.',
      // No open-source licence has been chosen for Arbiter: SPDX's form for "not one of the listed licences".
      license: { name: 'Proprietary: no licence granted', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'the server that serves this document' }],
    tags: TAGS,
    components: {
      schemas: schemas.all,
      securitySchemes: {
        gameToken: {
          type: 'http',
          scheme: 'bearer',
          description: "A token of the game: the organizer's or a side's (POST /games, or a reissue), or a spectator link's (reads only).",
        },
        tournamentToken: {
          type: 'http',
          scheme: 'bearer',
          description: "A tournament's token (POST /tournaments): lists and exports the tournament, creates its games and acts as their organizer.",
        },
      },
      headers: {
        ETag: { description: 'the game\'s version, quoted: send it back as If-None-Match', schema: { type: 'string', pattern: '^"\\d+"$' }, example: '"3"' },
        RetryAfter: { description: 'seconds to wait before retrying', schema: { type: 'integer', minimum: 0 }, example: 1 },
        Location: { description: 'the time-limited link of the stored export: GET it without your token', schema: { type: 'string', format: 'uri' } },
      },
    },
    paths: {
      '/health': {
        get: {
          operationId: 'getHealth',
          tags: ['service'],
          summary: 'Liveness',
          security: PUBLIC,
          responses: { 200: { description: 'alive', content: jsonContent(ref('Health'), one({ ok: true })) }, ...noBody() },
        },
      },
      '/rulesets': {
        get: {
          operationId: 'listRulesets',
          tags: ['rulesets'],
          summary: 'The catalogue of rulesets',
          description: 'Per ruleset: its sides, options, commands with their payload schemas and who may send them, procedures, and the schema of its state.',
          security: PUBLIC,
          responses: { 200: { description: 'the rulesets', content: jsonContent(ref('Catalogue')) }, ...noBody() },
        },
      },
      '/rulesets/{ruleset}/evaluate': {
        post: {
          operationId: 'evaluateProcedure',
          tags: ['rulesets'],
          summary: 'Stateless calculator: run a procedure, nothing stored',
          description:
            'With `dice`, those values are used in draw order (extra ones are ignored; too few is 400 insufficient_dice with details.needed; a value a die cannot show is 400). ' +
            'Without, fresh random dice are drawn and returned. The rules are checked before any die is drawn.',
          security: PUBLIC,
          parameters: [pathParameter('ruleset', 'a ruleset id', { type: 'string', enum: rulesetIds })],
          requestBody: { required: true, content: jsonContent(ref('EvaluateRequest'), { examples: example.evaluateRequest }) },
          responses: {
            200: { description: 'the result, how it was reached, and the dice used', content: jsonContent(ref('EvaluateResult'), one(example.evaluateResult)) },
            ...errors(
              [400, 'invalid_request (the request, input or options do not fit) or insufficient_dice (details.needed)', ['invalid_request', 'insufficient_dice']],
              [404, 'not_found: no such ruleset'],
              413,
              422,
            ),
          },
        },
      },
      '/schemas/table.json': {
        get: {
          operationId: 'getTableSchema',
          tags: ['rulesets'],
          summary: 'The JSON Schema of a combat table given as data',
          description: 'Generated from the schema that validates tables, so the two agree. Checks the shape; `POST /tables/validate` also checks what a schema cannot say (every cell\'s code defined, rows that tile, …). docs/tables.md explains the format.',
          security: PUBLIC,
          responses: { 200: { description: 'JSON Schema (draft 2020-12)', content: jsonContent({ type: 'object' }) }, ...noBody() },
        },
      },
      '/tables/validate': {
        post: {
          operationId: 'validateTable',
          tags: ['rulesets'],
          summary: 'Whether a combat table is valid, and where it is not',
          description: 'Answers 200 either way: `valid` with the table\'s content hash, or every issue with its place (`cells[3][5]`, `rows[2]`, …). Nothing is stored.',
          security: PUBLIC,
          requestBody: { required: true, content: jsonContent({ type: 'object', description: 'a table definition (GET /schemas/table.json)' }) },
          responses: {
            200: { description: 'the verdict', content: jsonContent(ref('TableValidation'), one({ valid: false, issues: [{ path: 'cells[3][5]', message: '"XX" is not a code of results' }] })) },
            ...errors([400, 'invalid_request: no body, or a body that is not JSON', ['invalid_request']], 413),
          },
        },
      },
      '/games': {
        post: {
          operationId: 'createGame',
          tags: ['games'],
          summary: 'Create a game; answers with its tokens, shown only this once',
          description:
            "With a tournament's token, the game belongs to that tournament and the answer names it; without a token, it stands alone. " +
            'With an Idempotency-Key, the same key and request answer the same game and the same tokens again for 24 hours (a retry after a lost answer); treat the key as a secret for that time. ' +
            "A key sent with a tournament's token belongs to that tournament: the same key without it, or with another tournament's, is another key. " +
            'After 24 hours the key is forgotten: sent again, it creates a new game with new tokens.',
          security: [{}, TOURNAMENT_TOKEN],
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description: 'A fresh random value of at least 128 bits per game, kept secret for 24 hours: a UUID, or 22 to 200 base64url characters; any other form is refused (400).',
              schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{22,200}$' },
              example: '4f0c6e1e-8a51-4a43-9d6b-2f3e9c1d7a55',
            },
          ],
          requestBody: { required: true, content: jsonContent(ref('CreateGameRequest'), { examples: example.createGameRequest }) },
          responses: {
            201: { description: 'created', content: jsonContent(ref('GameCreated'), one(example.gameCreated)) },
            ...errors(400, [401, "unauthenticated: a token was sent and it is not a tournament's token"], [409, 'idempotency_key_in_use: another request with this Idempotency-Key is creating its game; send the same request again after Retry-After seconds', ['idempotency_key_in_use']], 413, [422, 'idempotency_key_reused: this Idempotency-Key created a game from a different request (details.gameId)', ['idempotency_key_reused']], 429, 503),
          },
        },
      },
      '/games/{id}': {
        get: {
          operationId: 'getGame',
          tags: ['games'],
          summary: "The game and its ruleset's view of its state",
          security: READ,
          parameters: [gameIdParameter],
          responses: { 200: { description: 'the game', content: jsonContent(ref('Game'), one(example.gameView)) }, ...noBody(401, 404, 503) },
        },
      },
      '/games/{id}/commands': {
        post: {
          operationId: 'sendCommand',
          tags: ['commands'],
          summary: 'Send a command; one accepted command is one signed commit',
          description:
            'Accept: text/plain answers with the commit as a chat-log line: `#<seq> <actor> <type> <summary> [<first 8 hex of hash>]`. ' +
            'The organizer may act for a side with `as`. Sending the same commandId again returns the stored commit with 200.',
          security: ACT,
          parameters: [gameIdParameter],
          requestBody: { required: true, content: jsonContent(ref('CommandRequest'), { examples: example.commandRequest }) },
          responses: {
            201: { description: 'accepted: a new commit', content: { ...jsonContent(ref('CommandAccepted'), one(example.commandAccepted)), 'text/plain': { schema: { type: 'string' }, example: example.commandText } } },
            200: { description: 'a retry: the commit stored for this commandId', content: { ...jsonContent(ref('CommandAccepted'), one(example.commandAccepted)), 'text/plain': { schema: { type: 'string' }, example: example.commandText } } },
            ...errors(
              [400, 'invalid_request: the request, or the payload for its type, does not fit; an unknown type is named'],
              401,
              [403, 'forbidden: this role may never send this command, a side token used "as", or a spectator link sent a command'],
              404,
              409,
              413,
              410,
              [422, 'rule_violation (details.rule) or entropy_locked: the rules refuse it now', ['rule_violation', 'entropy_locked']],
              503,
            ),
          },
        },
      },
      '/games/{id}/events': {
        get: {
          operationId: 'listEvents',
          tags: ['games'],
          summary: 'The commits after a seq; ETag is the version',
          description:
            'With If-None-Match naming the current version, 304 (this URL at this version answered before). `wait` holds the request until a commit after `after` exists or the seconds pass ' +
            '(then 304 when If-None-Match matches, else an empty page). Accept: text/plain answers one chat-log line per commit.',
          security: READ,
          parameters: [
            gameIdParameter,
            { name: 'after', in: 'query', description: 'the last seq already read', schema: { type: 'integer', minimum: 0, maximum: 999_999_999, default: 0 } },
            { name: 'limit', in: 'query', description: 'at most this many commits', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
            { name: 'wait', in: 'query', description: 'long-poll: seconds to wait for a commit after `after`', schema: { type: 'integer', minimum: 0, maximum: 20, default: 0 } },
            { name: 'If-None-Match', in: 'header', description: 'the ETag of the last answer', schema: { type: 'string' }, example: '"3"' },
          ],
          responses: {
            200: {
              description: 'the page',
              headers: etag,
              content: { ...jsonContent(ref('EventsPage'), one(example.eventsPage)), 'text/plain': { schema: { type: 'string' }, example: example.eventsText } },
            },
            304: { description: 'If-None-Match names the current version', headers: etag },
            ...errors([400, 'invalid_request: after, limit or wait out of range'], 401, 404, 413, 503),
          },
        },
      },
      '/games/{id}/export': {
        get: {
          operationId: 'exportGame',
          tags: ['games'],
          summary: 'The export bundle (fairness-v1 §7): every commit, the keys, the key log and a signed head',
          security: READ,
          parameters: [gameIdParameter],
          description: 'An export that fits one response (5 MiB) comes inline; a larger one is stored once per version and answered with a 303 to a link valid for five minutes (docs/exports.md).',
          responses: {
            200: { description: 'the bundle', content: jsonContent(ref('ExportBundle'), one(example.exportBundle)) },
            303: STORED_EXPORT,
            ...noBody(401, 404, 503),
          },
        },
      },
      '/games/{id}/verify': {
        get: {
          operationId: 'verifyGame',
          tags: ['trust'],
          summary: 'Verify the game: hashes, signatures, dice and rules',
          description: 'The export checked against itself; whether its key is the one you trust is the offline verifier\'s question.',
          security: READ,
          parameters: [gameIdParameter],
          responses: { 200: { description: 'the report', content: jsonContent(ref('Verification'), one(example.verification)) }, ...noBody(401, 404, 503) },
        },
      },
      '/games/{id}/head': {
        get: {
          operationId: 'getGameHead',
          tags: ['trust'],
          summary: 'The signed head: where the game ends now, signed by the current key (trust.md §4)',
          security: READ,
          parameters: [gameIdParameter],
          responses: { 200: { description: 'the signed head', content: jsonContent(ref('GameHead'), one(example.head)) }, ...noBody(401, 404, 503) },
        },
      },
      '/games/{id}/viewers': {
        post: {
          operationId: 'createViewer',
          tags: ['spectators'],
          summary: 'Mint a read-only spectator link (organizer)',
          description: 'Its token reads the game, events, head, export and verification, and sends nothing (403). The token is shown once.',
          security: ACT,
          parameters: [gameIdParameter],
          requestBody: { required: false, content: jsonContent(ref('ViewerRequest'), one({ label: 'club stream' })) },
          responses: {
            201: { description: 'the link', content: jsonContent(ref('ViewerCreated'), one(example.viewerCreated)) },
            ...errors(400, 401, [403, 'forbidden: only the organizer mints spectator links'], 404, 413, 503),
          },
        },
      },
      '/games/{id}/viewers/{viewerId}': {
        delete: {
          operationId: 'revokeViewer',
          tags: ['spectators'],
          summary: 'Revoke a spectator link (organizer): it stops working at once',
          security: ACT,
          parameters: [gameIdParameter, pathParameter('viewerId', 'as POST /games/{id}/viewers answered it')],
          responses: {
            204: { description: 'revoked' },
            ...noBody(401, [403, 'forbidden: only the organizer revokes spectator links'], [404, 'not_found: no such game, or no such link in it'], 503),
          },
        },
      },
      '/games/{id}/tokens/{role}': {
        post: {
          operationId: 'reissueToken',
          tags: ['tokens'],
          summary: "Reissue a role's token (organizer or tournament): the old one stops working, the new one is shown once",
          description: 'The change is a commit (TokenReissued) naming only the new token\'s id, so the timeline shows it without revealing any token. A revoked side gets a token back this way.',
          security: ACT,
          parameters: [gameIdParameter, pathParameter('role', '"organizer" or a side of the game')],
          responses: {
            201: { description: 'the new token and the commit that records the change', content: jsonContent(ref('TokenReissued'), one(example.tokenReissued)) },
            ...noBody(
              401,
              [403, "forbidden: only the organizer or the game's tournament reissues tokens"],
              [404, 'not_found: no such game, or no such role in it'],
              [409, 'game_sealed: a sealed game takes no commit', ['game_sealed']],
              410,
              503,
            ),
          },
        },
        delete: {
          operationId: 'revokeToken',
          tags: ['tokens'],
          summary: "Revoke a side's token (organizer or tournament): it stops working at once",
          description: 'The change is a commit (TokenRevoked). The organizer\'s token cannot be revoked, only reissued.',
          security: ACT,
          parameters: [gameIdParameter, pathParameter('role', 'a side of the game')],
          responses: {
            200: { description: 'revoked, and the commit that records it', content: jsonContent(ref('TokenRevoked'), one(example.tokenRevoked)) },
            ...noBody(
              401,
              [403, "forbidden: only the organizer or the game's tournament revokes tokens"],
              [404, 'not_found: no such game, or no such role in it'],
              [409, 'game_sealed: a sealed game takes no commit', ['game_sealed']],
              410,
              [422, "rule_violation: the side's token is already revoked, or the role is the organizer"],
              503,
            ),
          },
        },
      },
      '/tournaments': {
        post: {
          operationId: 'createTournament',
          tags: ['tournaments'],
          summary: "Create a tournament; answers with its organizer's token, shown only this once",
          description: 'Games created with its token (POST /games) belong to it.',
          security: PUBLIC,
          requestBody: { required: false, content: jsonContent(ref('CreateTournamentRequest'), one({ name: 'Club championship 2026, round 1' })) },
          responses: {
            201: { description: 'created', content: jsonContent(ref('TournamentCreated'), one(example.tournamentCreated)) },
            ...errors(400, 413, 429, 503),
          },
        },
      },
      '/tournaments/{id}': {
        get: {
          operationId: 'getTournament',
          tags: ['tournaments'],
          summary: 'A page of the games of a tournament, in the order they were created, each with its signed head',
          description: 'Without a query, the first 100 games. Follow `next` with `?after=<next>` until it is null.',
          security: [TOURNAMENT_TOKEN],
          parameters: [tournamentIdParameter, ...tournamentPageParameters],
          responses: {
            200: { description: 'the listing', content: jsonContent(ref('TournamentListing'), one(example.tournamentListing)) },
            ...noBody([400, 'invalid_request: `after` is not a game of this tournament, `limit` is not 1 to 500, or a body was sent that is not JSON'], [401, "unauthenticated: no token, or not this tournament's"], [404, 'not_found: no such tournament'], 503),
          },
        },
      },
      '/tournaments/{id}/export': {
        get: {
          operationId: 'exportTournament',
          tags: ['tournaments'],
          summary: "Every game's export, as NDJSON: `arbiter verify` checks the whole file",
          description:
            "One JSON document per line: first a TournamentExportHeader, whose signed tournamentHead lists every game of the tournament (docs/verifier.md), then one ExportBundle per game, in the listing's order. " +
            'Without a query, every game; with `after` or `limit`, a page of them (the header then says which, and its `page.next` is the `after` of the next page).',
          security: [TOURNAMENT_TOKEN],
          parameters: [tournamentIdParameter, ...tournamentPageParameters],
          responses: {
            200: {
              description: 'the export, one JSON document per line',
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
            303: STORED_EXPORT,
            ...noBody([400, 'invalid_request: `after` is not a game of this tournament, `limit` is not 1 to 500, or a body was sent that is not JSON'], [401, "unauthenticated: no token, or not this tournament's"], [404, 'not_found: no such tournament'], 503),
          },
        },
      },
      '/keys': {
        get: {
          operationId: 'getKeys',
          tags: ['trust'],
          summary: 'Signing public keys with their fingerprints, and the key log',
          security: PUBLIC,
          responses: { 200: { description: 'the keys', content: jsonContent(ref('Keys'), one(example.keys)) }, ...noBody() },
        },
      },
      '/verifier.mjs': {
        get: {
          operationId: 'getVerifier',
          tags: ['trust'],
          summary: 'The standalone verifier: node verifier.mjs game.json --trust ed25519:…',
          security: PUBLIC,
          responses: { 200: { description: 'one ES module', content: { 'text/javascript': { schema: { type: 'string' } } } }, ...noBody() },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          tags: ['service'],
          summary: 'This document',
          security: PUBLIC,
          responses: { 200: { description: 'OpenAPI 3.1', content: jsonContent({ type: 'object' }) }, ...noBody() },
        },
      },
      '/docs': {
        get: {
          operationId: 'getApiReference',
          tags: ['service'],
          summary: 'A reference page of this document, for people',
          security: PUBLIC,
          responses: { 200: { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } }, ...noBody() },
        },
      },
      '/docs/assets/{file}': {
        get: {
          operationId: 'getApiReferenceAsset',
          tags: ['service'],
          summary: "The reference page's script",
          security: PUBLIC,
          parameters: [pathParameter('file', 'a file name the page links to')],
          responses: { 200: { description: 'the file', content: { 'text/javascript': { schema: { type: 'string' } } } }, ...noBody([404, 'not_found: no such file']) },
        },
      },
      '/': {
        get: {
          operationId: 'getWebApp',
          tags: ['service'],
          summary: 'The web app: create a game, follow its timeline (#/games/{id}?token=…), verify an export in the browser',
          security: PUBLIC,
          responses: { 200: { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } }, ...noBody([404, 'not_found: this server was started without the web app']) },
        },
      },
      '/assets/{file}': {
        get: {
          operationId: 'getWebAsset',
          tags: ['service'],
          summary: "The web app's script and style sheet",
          security: PUBLIC,
          parameters: [pathParameter('file', 'a file name the page links to')],
          responses: {
            200: { description: 'the file', content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } } },
            ...noBody([404, 'not_found: no such file']),
          },
        },
      },
    },
  };
}

/** A command as a commit records it: its type, and its payload as the schema parsed it. */
function commandSchema(type: string, payload: { $ref: string }, description: string): Json {
  return { type: 'object', description, properties: { type: constant(type), payload }, required: ['type', 'payload'], additionalProperties: false };
}

function eventSchema(type: string, data: z.ZodType): Json {
  return { type: 'object', properties: { type: constant(type), data: toJson(data, 'output') }, required: ['type', 'data'], additionalProperties: false };
}

/** The events of a ruleset's games: the game's own, then the ruleset's. */
function eventUnion(schemas: Schemas, prefix: string, ruleset: Ruleset, gameEventVariants: [string, { $ref: string }][]): Json {
  const own = Object.entries(ruleset.events ?? {}).map(([type, data]) => [type, schemas.add(`${prefix}${type}Event`, eventSchema(type, data))] as [string, { $ref: string }]);
  const description = `An event of a ${ruleset.id} game.`;
  if (ruleset.events) return discriminated('type', [...gameEventVariants, ...own], description);
  // A ruleset that publishes no event schemas: its events are only known to be events.
  return { description, anyOf: [...gameEventVariants.map(([, c]) => c), { type: 'object', properties: { type: { type: 'string' }, data: { type: 'object' } }, required: ['type', 'data'] }] };
}
