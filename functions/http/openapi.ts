import { allRulesets } from '../../domain/rulesets/registry';
import { OPERATIONS, type Operation, type Role, type Tag } from './operations';
import { OPERATION_DOCS } from './operationDocs';
import { componentSchemas } from './openapiSchemas';
import { BODY_NOT_JSON, errorResponses, type Json } from './openapiParts';

const GAME_TOKEN = { gameToken: [] };
const TOURNAMENT_TOKEN = { tournamentToken: [] };

/** Each role as OpenAPI security: one of the listed requirements is enough, `{}` being none. */
const SECURITY: Record<Role, Json[]> = {
  anyone: [],
  anyoneOrTournament: [{}, TOURNAMENT_TOKEN],
  // Reads: a token of the game, or none for a game created with `"public": true`.
  read: [GAME_TOKEN, TOURNAMENT_TOKEN, {}],
  // Acting on a game: its token (organizer, side, spectator link), or its tournament's, which acts as its organizer.
  act: [GAME_TOKEN, TOURNAMENT_TOKEN],
  tournament: [TOURNAMENT_TOKEN],
};

const TAGS: { name: Tag; description: string }[] = [
  { name: 'games', description: 'Create a game, read it, its commits and its export; each read needs one of its tokens unless it is public.' },
  { name: 'commands', description: 'Everything that changes a game is a command; each accepted command is one signed commit. Command and event types are per ruleset.' },
  { name: 'tokens', description: "The organizer (or the game's tournament) reissues or revokes a role's token; the change is itself a commit." },
  { name: 'spectators', description: 'Read-only spectator links the organizer mints and revokes.' },
  { name: 'notifications', description: 'Webhooks, Discord, Slack and e-mail told of each commit (docs/notifications.md).' },
  { name: 'tournaments', description: 'A set of games created with one tournament token: listed together with their signed heads, exported together.' },
  { name: 'rulesets', description: 'The catalogue of rulesets and the stateless calculator.' },
  { name: 'trust', description: 'The signing keys, signed heads, verification, and the standalone verifier (docs/fairness.md, trust.md).' },
  { name: 'service', description: 'Health, this document and its reference page, and the web app.' },
];

function operationObject(operation: Operation, rulesetIds: string[]): Json {
  const { operationId, tag, role, parameters, errors, takesBody } = operation;
  const docs = OPERATION_DOCS.get(operationId);
  if (!docs) throw new Error(`operation ${operationId} has no documentation in operationDocs.ts`);
  const { summary, description, requestBody, responses } = docs;
  return {
    operationId,
    tags: [tag],
    summary,
    ...(description ? { description } : {}),
    security: SECURITY[role],
    ...(parameters ? { parameters: parameters.map((parameter) => parameter.document({ rulesetIds })) } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: { ...responses, ...errorResponses(takesBody ? errors : [BODY_NOT_JSON, ...errors, 413]) },
  };
}

function paths(rulesetIds: string[]): Record<string, Record<string, Json>> {
  const byPath = new Map<string, Record<string, Json>>();
  for (const operation of OPERATIONS) {
    const methods = byPath.get(operation.path) ?? {};
    methods[operation.method.toLowerCase()] = operationObject(operation, rulesetIds);
    byPath.set(operation.path, methods);
  }
  return Object.fromEntries(byPath);
}

/** GET /openapi.json: the operations table (operations.ts) over the component schemas (openapiSchemas.ts). */
export function openApiDocument() {
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
      schemas: componentSchemas(),
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
        ETag: { description: "the game's version, quoted: send it back as If-None-Match", schema: { type: 'string', pattern: '^"\\d+"$' }, example: '"3"' },
        RetryAfter: { description: 'seconds to wait before retrying', schema: { type: 'integer', minimum: 0 }, example: 1 },
        Location: { description: 'the time-limited link of the stored export: GET it without your token', schema: { type: 'string', format: 'uri' } },
      },
    },
    paths: paths(allRulesets().map((r) => r.id)),
  };
}
