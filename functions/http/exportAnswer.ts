import type { ExportAnswer } from '../application/exports';
import { answer as respond, json, type HttpResult } from './respond';

/**
 * An export as HTTP: inline, 200; stored, 303 See Other to its time-limited link (a GET that
 * needs no token: clients must not send theirs along, and fetch, browsers and
 * HttpURLConnection drop it on the way to another origin). The body repeats the link for
 * clients that do not follow redirects: `{ "url", "expiresAt", "bytes" }`.
 */
export function exportResult(answer: ExportAnswer): HttpResult {
  if (answer.kind === 'inline') return respond(200, answer.contentType, answer.body);
  return json(303, { url: answer.url, expiresAt: answer.expiresAt, bytes: answer.bytes }, { location: answer.url });
}
