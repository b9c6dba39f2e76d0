import type { ExportAnswer } from '../application/exports';
import type { HttpResult } from './respond';

const BASE_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

/**
 * An export as HTTP: inline, 200; stored, 303 See Other to its time-limited link (a GET that
 * needs no token: clients must not send theirs along, and fetch, browsers and
 * HttpURLConnection drop it on the way to another origin). The body repeats the link for
 * clients that do not follow redirects: `{ "url", "expiresAt", "bytes" }`.
 */
export function exportResult(answer: ExportAnswer): HttpResult {
  if (answer.kind === 'inline') return { statusCode: 200, headers: { ...BASE_HEADERS, 'content-type': answer.contentType }, body: answer.body };
  return {
    statusCode: 303,
    headers: { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', location: answer.url },
    body: JSON.stringify({ url: answer.url, expiresAt: answer.expiresAt, bytes: answer.bytes }),
  };
}
