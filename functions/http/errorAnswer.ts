// escapeLine alone, not textLine.ts: every function's bundle answers errors, and needs no ruleset for it.
import { escapeLine } from '../../domain/game/escapeLine';
import { errorBody, json, prefersText, text, type HttpResult } from './respond';

/** A detail longer than this, written out, stays in the JSON answer only. */
const MAX_FOLDED_CHARS = 120;

/** The details short enough to read in a line, as `(key: value; …)`; `issues` and `valid` are in the message already. */
function foldedDetails(details: Record<string, unknown> | undefined): string {
  if (!details) return '';
  const parts: string[] = [];
  let left = false;
  for (const [key, value] of Object.entries(details)) {
    if (key === 'issues' || key === 'valid') continue;
    const written = typeof value === 'string' ? value : Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.join(', ') : JSON.stringify(value);
    if (written === undefined || written.length > MAX_FOLDED_CHARS) left = true;
    else parts.push(`${key}: ${written}`);
  }
  if (left) parts.push('more with Accept: application/json');
  return parts.length ? ` (${parts.join('; ')})` : '';
}

/**
 * An error as one line of text (http-api.md "Errors"): `<status> <code>: <message> (<details>)`,
 * escaped as a commit's text line is, so that nothing a client sent can break or reorder it.
 */
export function errorLine(status: number, code: string, message: string, details?: Record<string, unknown>): string {
  return escapeLine(`${status} ${code}: ${message}${foldedDetails(details)}`);
}

/** Every error answer: the JSON `{ error }`, or its one line when Accept prefers text/plain. */
export function errorAnswer(
  accept: string | undefined,
  status: number,
  code: string,
  message: string,
  details?: Record<string, unknown>,
  headers: Record<string, string> = {},
): HttpResult {
  if (prefersText(accept)) return text(status, `${errorLine(status, code, message, details)}\n`, headers);
  return json(status, errorBody(code, message, details), headers);
}

/** The code of an error answer, JSON or text, for the request's record. */
export function errorCodeOf(result: HttpResult | null | undefined): string | undefined {
  const body = result?.body ?? '';
  if ((result?.headers['content-type'] ?? '').startsWith('text/plain')) return body.match(/^\d{3} ([a-z_]+):/)?.[1];
  try {
    const code = JSON.parse(body || '{}').error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}
