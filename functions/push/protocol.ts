/**
 * The push protocol (docs/push.md): what a client sends over the WebSocket, what it gets
 * back, and the limits both ends keep. The same code answers on the local server (ws) and
 * on AWS (API Gateway WebSocket API), so the messages are the same byte for byte.
 */

/** The limits of one deployment; the local server and the AWS functions use the same. */
export interface PushLimits {
  /** A client's message, in bytes; more is refused with payload_too_large. */
  maxMessageBytes: number;
  /** A message to a client, in bytes (API Gateway's message limit is 128 KB, sent in frames of at most 32 KB); a larger commit is announced by a `gap`. */
  maxFrameBytes: number;
  /** Games one connection follows at once. */
  maxSubscriptionsPerConnection: number;
  /** Connections following one game at once (on AWS bounded by the fan-out's slices and posts per second, docs/push.md). */
  maxSubscribersPerGame: number;
  /** Commits a subscribe catches up; further behind, the client reads GET /games/{id}/events first. */
  maxCatchUp: number;
  /** A connection with no message from its client for this long is closed (API Gateway: 10 min). */
  idleMs: number;
  /** A connection is closed after this long, whatever it does (API Gateway: 2 h). */
  maxConnectionMs: number;
  /** Bytes waiting to be written to one client; past this the client is dropped, not buffered for. */
  maxBufferedBytes: number;
  /** Commits held for a subscription while its catch-up is read; past this it gets a `gap`. */
  maxPendingCommits: number;
  /** A client's messages waiting to be answered; past this it is told rate_limited. */
  maxQueuedMessages: number;
  /** Connections one local server takes (API Gateway has its own account quota). */
  maxConnections: number;
  /** Connections one client address holds at once; more are refused (429; on AWS, $connect answers 429). */
  maxConnectionsPerClient: number;
  /** A local connection that follows no game this long after connecting (or after its last subscription ended) is closed (1008). */
  subscribeWithinMs: number;
}

export const PUSH_LIMITS: Readonly<PushLimits> = Object.freeze({
  maxMessageBytes: 4 * 1024,
  maxFrameBytes: 128 * 1024,
  maxSubscriptionsPerConnection: 8,
  maxSubscribersPerGame: 1000,
  maxCatchUp: 200,
  idleMs: 10 * 60_000,
  maxConnectionMs: 2 * 60 * 60_000,
  maxBufferedBytes: 1024 * 1024,
  maxPendingCommits: 256,
  maxQueuedMessages: 16,
  maxConnections: 1000,
  maxConnectionsPerClient: 20,
  subscribeWithinMs: 5000,
});

/** Where the local server takes WebSocket upgrades, on its API port. */
export const PUSH_PATH = '/push';

/** The WebSocket transport cuts frames larger than this (ws maxPayload; API Gateway refuses them too). */
export const MAX_TRANSPORT_BYTES = 128 * 1024;

/** Same bound as the HTTP API's `after`. */
const MAX_SEQ = 999_999_999;
const GAME_ID = /^[A-Za-z0-9_-]{1,64}$/;

export type ClientMessage =
  | { action: 'subscribe'; gameId: string; token?: string; after: number }
  | { action: 'unsubscribe'; gameId: string }
  | { action: 'ping' };

export type SubscribeRequest = Extract<ClientMessage, { action: 'subscribe' }>;

/** Codes beyond the HTTP API's (http-api.md "Errors"), each documented in docs/push.md. */
export type PushErrorCode =
  | 'invalid_request'
  | 'payload_too_large'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'too_many_subscriptions'
  | 'too_many_subscribers'
  | 'too_far_behind'
  | 'rate_limited'
  | 'unavailable'
  | 'internal_error';

export interface PushError {
  type: 'error';
  code: PushErrorCode;
  message: string;
  /** Present when the error is about one game: that game's subscription, if any, has ended. */
  gameId?: string;
}

export type ServerMessage =
  | { type: 'subscribed'; gameId: string; version: number; after: number }
  | { type: 'commit'; gameId: string; commit: unknown; line: string; result: string }
  | { type: 'gap'; gameId: string; after: number; version: number }
  | { type: 'unsubscribed'; gameId: string }
  | { type: 'pong' }
  | PushError;

const FIELDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['subscribe', new Set(['action', 'gameId', 'token', 'after'])],
  ['unsubscribe', new Set(['action', 'gameId'])],
  ['ping', new Set(['action'])],
]);

/** A gameId worth echoing back: one that could name a game. Anything else is never repeated to the client. */
export const echoableGameId = (gameId: unknown): string | undefined => (typeof gameId === 'string' && GAME_ID.test(gameId) ? gameId : undefined);

export function pushError(code: PushErrorCode, message: string, gameId?: string): PushError {
  const echoed = echoableGameId(gameId);
  return { type: 'error', code, message, ...(echoed ? { gameId: echoed } : {}) };
}

export type Parsed = { ok: true; message: ClientMessage } | { ok: false; error: PushError };

const refuse = (message: string, gameId?: unknown): Parsed => ({ ok: false, error: pushError('invalid_request', message, echoableGameId(gameId)) });

/**
 * Reads one client message: text, at most `maxMessageBytes`, a JSON object with an
 * `action` and exactly the fields of that action. Never throws; a refusal names the rule
 * broken and never repeats a token or an unbounded value.
 */
export function parseClientMessage(data: string | Buffer, binary: boolean, limits: Pick<PushLimits, 'maxMessageBytes'> = PUSH_LIMITS): Parsed {
  const bytes = typeof data === 'string' ? Buffer.byteLength(data, 'utf8') : data.length;
  if (bytes > limits.maxMessageBytes) {
    return { ok: false, error: pushError('payload_too_large', `A message is at most ${limits.maxMessageBytes} bytes; this one has ${bytes}.`) };
  }
  if (binary) return refuse('Send text frames holding JSON, not binary frames.');
  let value: unknown;
  try {
    value = JSON.parse(typeof data === 'string' ? data : data.toString('utf8'));
  } catch {
    return refuse('A message is a JSON object, e.g. {"action":"subscribe","gameId":"…","token":"…","after":0}.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse('A message is a JSON object with an "action".');
  const record = value as Record<string, unknown>;
  const action = Object.hasOwn(record, 'action') ? record.action : undefined;
  const gameId = Object.hasOwn(record, 'gameId') ? record.gameId : undefined;
  const fields = typeof action === 'string' ? FIELDS.get(action) : undefined;
  if (!fields) return refuse('"action" is one of subscribe, unsubscribe, ping.', gameId);
  // Own keys, __proto__ and constructor included: JSON.parse makes them plain data, never a prototype.
  const unknown = Object.keys(record).filter((key) => !fields.has(key));
  if (unknown.length) return refuse(`Unknown field ${JSON.stringify(unknown[0].slice(0, 32))} for ${String(action)}; its fields are ${[...fields].join(', ')}.`, gameId);
  if (action === 'ping') return { ok: true, message: { action: 'ping' } };
  if (typeof gameId !== 'string' || gameId.length < 1 || gameId.length > 128) return refuse('"gameId" is the id of a game (a string).');
  if (action === 'unsubscribe') return { ok: true, message: { action: 'unsubscribe', gameId } };
  const token = Object.hasOwn(record, 'token') ? record.token : undefined;
  if (token !== undefined && (typeof token !== 'string' || token.length < 1 || token.length > 512)) {
    return refuse('"token" is a token of the game (a string), or is left out for a public game.', gameId);
  }
  const after = Object.hasOwn(record, 'after') ? record.after : undefined;
  if (typeof after !== 'number' || !Number.isSafeInteger(after) || after < 0 || after > MAX_SEQ) {
    return refuse(`"after" is the last seq the client holds: an integer from 0 to ${MAX_SEQ} (0 for the whole game).`, gameId);
  }
  return { ok: true, message: { action: 'subscribe', gameId, ...(token !== undefined ? { token } : {}), after } };
}

/** One message as sent: compact JSON text. */
export const encode = (message: ServerMessage): string => JSON.stringify(message);
