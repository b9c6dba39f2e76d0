// The API of the same origin. A token goes only in the Authorization header, to this
// origin: never in a URL the server sees.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Retry-After, in seconds, when the server sent one (409 beacon_pending, 429, 503). */
    readonly retryAfter?: number,
    /** The error's details: `issues` [{ field, message }] for a 400 (http-api.md "Errors"). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
    cache: 'no-store',
    credentials: 'omit',
  });
}

/** JSON of a 2xx answer; an ApiError with the server's words for any other. */
export async function api<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await request(method, path, options);
  if (response.status === 204) return undefined as T;
  const body = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | undefined)?.error;
    const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
    const details = typeof error?.details === 'object' && error.details !== null ? error.details : undefined;
    throw new ApiError(response.status, error?.code ?? 'http_error', error?.message ?? `The server answered ${response.status}.`, Number.isFinite(retryAfter) ? retryAfter : undefined, details);
  }
  return body as T;
}

export const gamePath = (gameId: string, rest = '') => `/games/${encodeURIComponent(gameId)}${rest}`;

/** The link a player, organizer or spectator opens: the token stays in the fragment. */
export const gameLink = (gameId: string, token: string) => `${location.origin}/#/games/${encodeURIComponent(gameId)}?token=${encodeURIComponent(token)}`;

/** The gameId and token of a link built by gameLink (or of the current fragment). */
export function parseGameLink(link: string): { gameId: string; token: string } | undefined {
  const hash = link.includes('#') ? link.slice(link.indexOf('#') + 1) : link;
  const match = hash.match(/^\/games\/([^?/]+)(?:\?(.*))?$/);
  if (!match) return undefined;
  try {
    return { gameId: decodeURIComponent(match[1]), token: new URLSearchParams(match[2] ?? '').get('token') ?? '' };
  } catch {
    return undefined;
  }
}

export interface PublishedKey {
  fingerprint: string;
  kid: string;
  status: 'current' | 'retired';
}

export async function serverKeys(): Promise<PublishedKey[]> {
  return (await serverKeyDocument()).keys;
}

/** GET /keys whole: every key, current and retired, and the key log that retired them (trust.md §2, §6). */
export async function serverKeyDocument(): Promise<{ keys: PublishedKey[]; log: unknown[] }> {
  const document = await api<{ keys: PublishedKey[]; log?: unknown }>('GET', '/keys');
  return { keys: document.keys, log: Array.isArray(document.log) ? document.log : [] };
}

/** A fresh commandId: crypto.randomUUID where the page is a secure context, random bytes otherwise. */
export function newCommandId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
