import * as z from 'zod';
import { commandSpec, commandTypes } from '../../domain/game/decideGame';
import { CreateGameBody } from '../../domain/game/gameCommands';
import { allRulesets } from '../../domain/rulesets/registry';
import { GameHeadShape } from '../../domain/trust/gameHead';
import { ViewerRequest } from '../application/viewers';
import { KeyRotationShape } from '../../domain/trust/keyRotation';
import { CommitShape } from '../../domain/verify/bundleShape';
import { EvaluateRequest } from '../application/evaluate';
import { CommandRequest } from '../application/gameService';
import { componentPrefix, jsonSchema } from './catalogue';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (schema: unknown) => ({ 'application/json': { schema } });

const ErrorSchema = z.object({
  error: z.object({
    code: z.enum([
      'invalid_request',
      'insufficient_dice',
      'unauthenticated',
      'forbidden',
      'not_found',
      'version_conflict',
      'game_sealed',
      'command_id_reused',
      'payload_too_large',
      'rule_violation',
      'entropy_locked',
      'unavailable',
      'method_not_allowed',
      'internal_error',
    ]),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});

/** trust.md §2. */
const Keys = z.object({
  keys: z.array(
    z.object({
      kty: z.literal('OKP'),
      crv: z.literal('Ed25519'),
      x: z.string(),
      kid: z.string(),
      use: z.literal('sig'),
      alg: z.literal('EdDSA'),
      fingerprint: z.string().describe('ed25519:<RFC 7638 thumbprint>, the value people pin'),
      status: z.enum(['current', 'retired']),
    }),
  ),
  log: z.array(KeyRotationShape).describe('the key log: each statement signed by the key it retires'),
});
const Verification = z.object({
  ok: z.boolean(),
  checkedCommits: z.int(),
  checkedDice: z.int(),
  sealed: z.boolean(),
  failures: z.array(z.object({ seq: z.int(), check: z.string(), reason: z.string() })),
});

const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((code) => [String(code), { description: ERROR_TEXT[code], content: jsonContent(ref('Error')) }]));
const ERROR_TEXT: Record<number, string> = {
  400: 'invalid_request (details.issues lists each field) or insufficient_dice',
  401: 'unauthenticated: no token, or not a token of this game',
  403: 'forbidden: this role may never send this command, or a side token used "as"',
  404: 'not_found',
  409: 'version_conflict (details.currentVersion), game_sealed or command_id_reused',
  413: 'payload_too_large: bodies over 64 KB',
  422: 'rule_violation (details.rule) or entropy_locked',
  503: 'unavailable: the store throttled or timed out; see Retry-After',
};
const gameId = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const bearer = [{ bearer: [] }, {}];

/** GET /openapi.json: generated from the same zod schemas that validate the requests. */
export function openApiDocument() {
  const schemas: Record<string, unknown> = {
    Error: jsonSchema(ErrorSchema),
    CreateGameRequest: jsonSchema(CreateGameBody),
    CommandRequest: jsonSchema(CommandRequest),
    EvaluateRequest: jsonSchema(EvaluateRequest),
    Commit: jsonSchema(CommitShape),
    Keys: jsonSchema(Keys),
    GameHead: jsonSchema(GameHeadShape),
    ViewerRequest: jsonSchema(ViewerRequest),
    Verification: jsonSchema(Verification),
  };
  for (const ruleset of allRulesets()) {
    const prefix = componentPrefix(ruleset.id);
    schemas[`${prefix}Options`] = jsonSchema(ruleset.options);
    schemas[`${prefix}State`] = jsonSchema(ruleset.view);
    for (const type of commandTypes(ruleset)) schemas[`${prefix}${type}`] = jsonSchema(commandSpec(ruleset, type)!.schema);
    for (const [name, procedure] of Object.entries(ruleset.procedures)) {
      schemas[`${prefix}Procedure${componentPrefix(name)}`] = jsonSchema(procedure.input);
    }
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Arbiter',
      version: '1',
      description: 'Verifiable, event-sourced combat resolution. Dice and hash chain: docs/fairness.md (fairness-v1).',
    },
    components: { schemas, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths: {
      '/health': { get: { summary: 'Liveness', responses: { 200: { description: '{ ok: true }' } } } },
      '/rulesets': { get: { summary: 'The catalogue of rulesets', responses: { 200: { description: 'rulesets with their options, commands, procedures and state schemas' } } } },
      '/rulesets/{ruleset}/evaluate': {
        post: {
          summary: 'Stateless calculator: run a procedure, nothing stored',
          parameters: [{ name: 'ruleset', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: jsonContent(ref('EvaluateRequest')) },
          responses: { 200: { description: '{ result, breakdown, dice }' }, ...errors(400, 404, 413, 422) },
        },
      },
      '/games': {
        post: {
          summary: 'Create a game; answers with its tokens, shown only this once',
          requestBody: { required: true, content: jsonContent(ref('CreateGameRequest')) },
          responses: { 201: { description: '{ gameId, ruleset, sides, commitment, version, tokens }' }, ...errors(400, 413, 503) },
        },
      },
      '/games/{id}': {
        get: {
          summary: "The game and its ruleset's view of its state",
          parameters: [gameId],
          security: bearer,
          responses: { 200: { description: '{ gameId, ruleset, title, sides, version, sealed, state }' }, ...errors(401, 404, 503) },
        },
      },
      '/games/{id}/commands': {
        post: {
          summary: 'Send a command; one accepted command is one signed commit',
          parameters: [gameId],
          security: [{ bearer: [] }],
          requestBody: { required: true, content: jsonContent(ref('CommandRequest')) },
          responses: {
            201: { description: '{ version, commit }', content: { 'application/json': {}, 'text/plain': {} } },
            200: { description: 'the stored commit, for a retried commandId' },
            ...errors(400, 401, 403, 404, 409, 413, 422, 503),
          },
        },
      },
      '/games/{id}/events': {
        get: {
          summary: 'The commits after a seq; ETag is the version',
          parameters: [
            gameId,
            { name: 'after', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
            { name: 'wait', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 20 }, description: 'long-poll seconds' },
            { name: 'If-None-Match', in: 'header', schema: { type: 'string' } },
          ],
          security: bearer,
          responses: {
            200: { description: '{ gameId, version, commits }', content: { 'application/json': {}, 'text/plain': {} } },
            304: { description: 'If-None-Match matched the version' },
            ...errors(400, 401, 404, 503),
          },
        },
      },
      '/games/{id}/export': {
        get: { summary: 'The fairness-v1 §7 bundle', parameters: [gameId], security: bearer, responses: { 200: { description: 'export bundle' }, ...errors(401, 404, 503) } },
      },
      '/games/{id}/verify': {
        get: {
          summary: 'Verify the game: hashes, signatures, dice and rules',
          parameters: [gameId],
          security: bearer,
          responses: { 200: { description: 'report', content: jsonContent(ref('Verification')) }, ...errors(401, 404, 503) },
        },
      },
      '/games/{id}/viewers': {
        post: {
          summary: 'Mint a read-only spectator link (organizer): its token reads the game, events, head and export, and sends nothing',
          parameters: [gameId],
          security: [{ bearer: [] }],
          requestBody: { content: jsonContent(ref('ViewerRequest')) },
          responses: { 201: { description: '{ viewerId, token, label? }: the token is shown once' }, ...errors(400, 401, 403, 404, 503) },
        },
      },
      '/games/{id}/viewers/{viewerId}': {
        delete: {
          summary: 'Revoke a spectator link (organizer): it stops working at once',
          parameters: [gameId, { name: 'viewerId', in: 'path', required: true, schema: { type: 'string' } }],
          security: [{ bearer: [] }],
          responses: { 204: { description: 'revoked' }, ...errors(401, 403, 404, 503) },
        },
      },
      '/games/{id}/head': {
        get: {
          summary: 'The signed head: where the game ends now, signed by the current key (trust.md §4)',
          parameters: [gameId],
          security: bearer,
          responses: { 200: { description: 'GameHead', content: jsonContent(ref('GameHead')) }, ...errors(401, 404, 503) },
        },
      },
      '/keys': { get: { summary: 'Signing public keys with their fingerprints, and the key log', responses: { 200: { description: 'keys', content: jsonContent(ref('Keys')) } } } },
      '/verifier.mjs': {
        get: { summary: 'The standalone verifier: node verifier.mjs game.json --trust ed25519:…', responses: { 200: { description: 'one ES module', content: { 'text/javascript': {} } } } },
      },
      '/openapi.json': { get: { summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1' } } } },
      '/': { get: { summary: 'The web app: create a game, follow its timeline (#/games/{id}?token=…), verify an export in the browser', responses: { 200: { description: 'HTML', content: { 'text/html': {} } } } } },
      '/assets/{file}': {
        get: {
          summary: "The web app's script and style sheet",
          parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'the file', content: { 'text/javascript': {}, 'text/css': {} } }, 404: { description: 'no such file' } },
        },
      },
    },
  };
}
