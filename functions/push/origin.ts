/**
 * Which web pages may open the push socket: as CORS decides which may read the HTTP API.
 * No Origin header (a program, not a browser page) is let in: the token in the subscribe
 * message is what authorizes, never a cookie, so a page of another origin gains nothing
 * it could not get over HTTP. A page of the API's own origin is let in; others only when
 * listed (`*` for any).
 */
export function originAllowed(origin: string | undefined, host: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined || origin === '') return true;
  if (allowed.includes('*')) return true;
  const bare = origin.replace(/\/+$/, '');
  if (allowed.some((o) => o.replace(/\/+$/, '') === bare)) return true;
  return host !== undefined && (bare === `http://${host}` || bare === `https://${host}`);
}

/** `PUSH_ALLOWED_ORIGINS` / `ARBITER_CORS_ORIGINS`: origins separated by commas. */
export const originsOf = (list: string | undefined): string[] => (list ?? '').split(',').map((o) => o.trim()).filter(Boolean);
