import type { IncomingMessage } from 'node:http';

/** The headers a browser client sends and may read; the same as the AWS stack's CORS settings. */
const ALLOW_HEADERS = 'authorization, content-type, accept, if-none-match, idempotency-key';
const EXPOSE_HEADERS = 'etag, retry-after';
const ALLOW_METHODS = 'GET, POST, DELETE, OPTIONS';

/**
 * CORS for third-party web clients, from a list of origins (`ARBITER_CORS_ORIGINS`,
 * comma-separated; `*` for any). Tokens travel in the Authorization header, never in
 * cookies, so no credentials are ever allowed.
 */
export class CorsPolicy {
  private readonly any: boolean;
  private readonly origins: Set<string>;

  constructor(origins: readonly string[]) {
    this.any = origins.includes('*');
    this.origins = new Set(origins.filter((o) => o !== '*').map((o) => o.replace(/\/+$/, '')));
  }

  /** Headers for the answer to this request: none when it comes from an origin not allowed. */
  headersFor(req: IncomingMessage): Record<string, string> {
    const origin = req.headers.origin;
    if (!origin || !(this.any || this.origins.has(origin))) return {};
    return { 'access-control-allow-origin': this.any ? '*' : origin, 'access-control-expose-headers': EXPOSE_HEADERS, vary: 'origin' };
  }

  /** The answer to a preflight (OPTIONS with Access-Control-Request-Method). */
  preflightHeaders(req: IncomingMessage): Record<string, string> {
    const allowed = this.headersFor(req);
    if (!allowed['access-control-allow-origin']) return { vary: 'origin' };
    return { ...allowed, 'access-control-allow-methods': ALLOW_METHODS, 'access-control-allow-headers': ALLOW_HEADERS, 'access-control-max-age': '3600' };
  }
}

export const isPreflight = (req: IncomingMessage) => req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
