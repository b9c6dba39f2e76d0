import { TOURNAMENT_PAGE_DEFAULT, TOURNAMENT_PAGE_MAX } from '../application/tournamentPages';
import type { HandlerName } from './handlerNames';
import type { LambdaGroup } from './lambdaGroups';
import type { ErrorSpec } from './openapiParts';
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

/**
 * One HTTP operation: routed, deployed and authorized from this entry alone, and documented from it
 * and its words, bodies and answers in operationDocs.ts (which the functions serving it do not load).
 */
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
  /** Its path, query and header parameters: documented from here, and path and query checked from here before the handler runs (middleware.ts). */
  parameters?: readonly Parameter[];
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
    parameters: [pathParameter('ruleset', 'a ruleset id', ({ rulesetIds }) => ({ type: 'string', enum: rulesetIds }))],
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
    parameters: [gameIdParameter],
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
    parameters: [gameIdParameter],
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
    parameters: [gameIdParameter, ...EVENTS_PAGE, headerParameter('If-None-Match', 'the ETag of the last answer', { type: 'string' }, '"3"')],
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
    parameters: [gameIdParameter],
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
    parameters: [gameIdParameter],
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
    parameters: [gameIdParameter],
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
    parameters: [gameIdParameter],
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
    parameters: [gameIdParameter],
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
    parameters: [gameIdParameter],
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
    parameters: [gameIdParameter],
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
    parameters: [gameIdParameter, pathParameter('viewerId', 'as POST /games/{id}/viewers answered it')],
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
    parameters: [gameIdParameter],
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
    parameters: [gameIdParameter],
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
    parameters: [gameIdParameter, pathParameter('subscriptionId', 'as POST /games/{id}/subscriptions answered it')],
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
    parameters: [tournamentIdParameter],
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
    parameters: [tournamentIdParameter],
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
    parameters: [tournamentIdParameter, pathParameter('subscriptionId', 'as POST /tournaments/{id}/subscriptions answered it')],
    errors: [[401, "unauthenticated: no token, or not this tournament's"], [404, 'not_found: no such tournament, or no such subscription of it'], 503],
  },
  ...(['confirm', 'unsubscribe'] as const).flatMap((action): Operation[] => {
    const common = {
      path: `/subscriptions/{subscriptionId}/${action}`,
      group: 'commands' as const,
      role: 'anyone' as const,
      tag: 'notifications' as const,
      parameters: [pathParameter('subscriptionId', 'from the link in the mail'), textQuery('code', 'from the link in the mail', 200, 'is the code of the link in the mail')],
      errors: [503 as ErrorSpec],
    };
    return [
      {
        ...common,
        method: 'GET',
        operationId: action === 'confirm' ? 'confirmPage' : 'unsubscribePage',
        handler: action === 'confirm' ? 'confirmPage' : 'unsubscribePage',
      },
      {
        ...common,
        method: 'POST',
        operationId: action === 'confirm' ? 'confirmSubscription' : 'unsubscribeByLink',
        handler: action === 'confirm' ? 'confirmSubscription' : 'unsubscribeByLink',
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
    parameters: [gameIdParameter, pathParameter('role', '"organizer" or a side of the game')],
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
    parameters: [gameIdParameter, pathParameter('role', 'a side of the game')],
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
    parameters: [tournamentIdParameter, ...TOURNAMENT_PAGE],
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
    parameters: [tournamentIdParameter, ...TOURNAMENT_PAGE],
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
    parameters: [tournamentIdParameter, pathParameter('exportId', "the export's id, as the 202 named it", { type: 'string', pattern: '^[0-9a-f]{40}$' })],
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
    parameters: [pathParameter('file', 'a file name the page links to')],
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
    parameters: [pathParameter('file', 'a file name the page links to')],
    errors: [[404, 'not_found: no such file']],
  },
];

/** Roles API Gateway lets through unauthorized by design; the function checks every other role's token. */
export const isPublic = (role: Role) => role === 'anyone' || role === 'anyoneOrTournament';
