import type { ExportAnswer } from '../application/exports';
import type { TournamentExportAnswer } from '../application/tournamentExportJobs';
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

/** The status path of a tournament export, as its 202 and 303 name it. */
export const exportStatusPath = (tournamentId: string, exportId: string) => `/tournaments/${encodeURIComponent(tournamentId)}/exports/${exportId}`;

/**
 * A tournament export as HTTP: 202 Accepted while its job runs (Location: its status, and
 * Retry-After), 303 to the link once made, 200 with the file from a server without a store.
 */
export function tournamentExportResult(tournamentId: string, answer: TournamentExportAnswer): HttpResult {
  if (answer.kind === 'inline') return respond(200, answer.contentType, answer.body);
  const statusUrl = exportStatusPath(tournamentId, answer.exportId);
  if (answer.kind === 'pending') {
    return json(202, { status: 'running', exportId: answer.exportId, statusUrl, startedAt: answer.startedAt, retryAfter: answer.retryAfter }, { location: statusUrl, 'retry-after': String(answer.retryAfter) });
  }
  return json(303, { status: 'ready', exportId: answer.exportId, statusUrl, url: answer.url, expiresAt: answer.expiresAt, bytes: answer.bytes }, { location: answer.url });
}
