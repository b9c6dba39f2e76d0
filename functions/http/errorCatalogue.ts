/**
 * Every error code the HTTP API answers, once: its status, whether the answer carries
 * Retry-After, and whether the OpenAPI document lists it under its status unless an
 * operation names its codes. The error shape (apiShapes.ts), the documented error
 * answers (openapi.ts) and their examples (openapiExamples.ts) all follow this table.
 */
export interface ErrorEntry {
  status: number;
  retryAfter?: true;
  /** Listed under its status wherever an operation does not name the codes it answers. */
  listedByDefault?: true;
}

export const ERROR_CATALOGUE = {
  invalid_request: { status: 400, listedByDefault: true },
  insufficient_dice: { status: 400 },
  unauthenticated: { status: 401, listedByDefault: true },
  forbidden: { status: 403, listedByDefault: true },
  not_found: { status: 404, listedByDefault: true },
  version_conflict: { status: 409, listedByDefault: true },
  game_sealed: { status: 409, listedByDefault: true },
  command_id_reused: { status: 409, listedByDefault: true },
  beacon_pending: { status: 409, retryAfter: true },
  game_not_sealed: { status: 409 },
  idempotency_key_reused: { status: 422 },
  idempotency_key_in_use: { status: 409, retryAfter: true },
  game_abandoned: { status: 410, listedByDefault: true },
  creation_quota: { status: 429, retryAfter: true, listedByDefault: true },
  long_poll_full: { status: 429, retryAfter: true },
  payload_too_large: { status: 413, listedByDefault: true },
  rule_violation: { status: 422, listedByDefault: true },
  entropy_locked: { status: 422 },
  beacon_unavailable: { status: 422 },
  subscription_refused: { status: 422 },
  unavailable: { status: 503, retryAfter: true, listedByDefault: true },
  method_not_allowed: { status: 405 },
  internal_error: { status: 500, listedByDefault: true },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];

const catalogue: ReadonlyMap<ErrorCode, ErrorEntry> = new Map(Object.entries(ERROR_CATALOGUE) as [ErrorCode, ErrorEntry][]);

export const errorEntry = (code: ErrorCode): ErrorEntry => catalogue.get(code)!;

/** The status of a code, or undefined for a string that is no code of the catalogue. */
export const statusOf = (code: string): number | undefined => catalogue.get(code as ErrorCode)?.status;

/** The codes listed under a status when an operation names none. */
export const defaultCodes = (status: number): ErrorCode[] => [...catalogue].filter(([, e]) => e.status === status && e.listedByDefault).map(([code]) => code);

/** What a status means when an operation says nothing more: its codes and their details, in a client's words. */
export const STATUS_MEANING: ReadonlyMap<number, string> = new Map([
  [400, 'invalid_request: the request does not fit the schema (details.issues lists each field, with what it takes in words)'],
  [401, 'unauthenticated: no token, or not a token of this game'],
  [403, 'forbidden: this role may never do this'],
  [404, 'not_found: no such game'],
  [409, 'version_conflict (details.currentVersion), game_sealed or command_id_reused (details.seq)'],
  [410, "game_abandoned: the game had no command for the deployment's days (details.afterDays) and was not sealed: it takes no more commands and is being deleted"],
  [413, 'payload_too_large: bodies over 64 KB, or a command whose record would pass what one command may take (details.bytes, details.maxBytes); nothing is recorded'],
  [422, 'rule_violation: the rules refuse it now (details.rule names the rule)'],
  [429, "creation_quota: this address created its quota of games and tournaments this hour, a tournament's games counting for the address that created it (details.perHour); retry after Retry-After seconds"],
  [500, 'internal_error: a fault of the service, never of the request; retrying with the same commandId is safe'],
  [503, 'unavailable: the store throttled or timed out; retry after Retry-After seconds (with the same commandId)'],
]);
