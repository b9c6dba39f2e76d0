import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { gzipSync } from 'node:zlib';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };

const BASE_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

/** A body of any type, with the headers every answer carries. */
export function answer(statusCode: number, contentType: string, body: string, headers: Record<string, string> = {}): HttpResult {
  return { statusCode, headers: { ...BASE_HEADERS, 'content-type': contentType, ...headers }, body };
}

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return answer(statusCode, 'application/json; charset=utf-8', JSON.stringify(body), headers);
}

export function text(statusCode: number, body: string, headers: Record<string, string> = {}): HttpResult {
  return answer(statusCode, 'text/plain; charset=utf-8', body, headers);
}

export function noContent(): HttpResult {
  return { statusCode: 204, headers: { ...BASE_HEADERS }, body: '' };
}

export function notModified(etag: string): HttpResult {
  return { statusCode: 304, headers: { ...BASE_HEADERS, etag }, body: '' };
}

export function errorBody(code: string, message: string, details?: Record<string, unknown>) {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

export function header(event: HttpEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

export function bearerToken(event: HttpEvent): string | undefined {
  const value = header(event, 'authorization');
  const match = value?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/** The address the request came from, as API Gateway (or the local server) saw it: the creation quota counts by it. */
export function clientAddress(event: HttpEvent): string | undefined {
  return event.requestContext?.http?.sourceIp || undefined;
}

/**
 * Whether Accept prefers `text/plain` to JSON: the highest weight given to `text/plain`
 * against the highest given to `application/json`, `application/*` or `*\/*`. A tie, no
 * Accept, or only `*\/*` is JSON; `text/plain` alone, or weighted above JSON, is text.
 */
export function prefersText(accept: string | undefined): boolean {
  let textWeight = 0;
  let jsonWeight = 0;
  for (const entry of (accept ?? '').split(',')) {
    const [range, ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const parsed = q === undefined ? 1 : Number(q.slice(2));
    const weight = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0;
    if (range === 'text/plain') textWeight = Math.max(textWeight, weight);
    else if (range === 'application/json' || range === 'application/*' || range === '*/*') jsonWeight = Math.max(jsonWeight, weight);
  }
  return textWeight > jsonWeight;
}

/** Accept prefers text/plain to JSON: chat-log lines (http-api.md "Text for chat logs"), and errors as one line (errorAnswer.ts). */
export function wantsText(event: HttpEvent): boolean {
  return prefersText(header(event, 'accept'));
}

/** Bodies smaller than this are sent as they are: gzip would save a few bytes for the time it takes. */
export const MIN_GZIP_BYTES = 1024;

const COMPRESSIBLE = /^(application\/(json|x-ndjson|javascript)|text\/[a-z]+|image\/svg\+xml)\b/i;

/** Accept-Encoding names gzip (or `*`) with a weight above 0. */
export function acceptsGzip(event: HttpEvent): boolean {
  return (header(event, 'accept-encoding') ?? '').split(',').some((entry) => {
    const [name, ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const weight = params.find((p) => p.startsWith('q='));
    return (name === 'gzip' || name === '*') && (weight === undefined || Number(weight.slice(2)) > 0);
  });
}

/**
 * The answer gzipped when the client accepts it and the body is text of at least
 * MIN_GZIP_BYTES: base64 with `isBase64Encoded`, as API Gateway carries binary from Lambda
 * (the local server decodes it the same way). The ETag stays the game's version: answers are
 * never stored (no-store) and no range is served, so nothing compares it byte for byte, and
 * If-None-Match with it is a 304 in either coding. `Vary: Accept-Encoding` on every text
 * answer that could have been compressed.
 */
export function compressed(event: HttpEvent, result: HttpResult): HttpResult {
  const body = result.body;
  const type = result.headers['content-type'] ?? '';
  if (!body || result.isBase64Encoded || result.headers['content-encoding'] || !COMPRESSIBLE.test(type)) return result;
  const raw = Buffer.from(body, 'utf8');
  if (raw.length < MIN_GZIP_BYTES) return result;
  const headers = { ...result.headers, vary: varyWith(result.headers.vary) };
  if (!acceptsGzip(event)) return { ...result, headers };
  const zipped = gzipSync(raw).toString('base64');
  // Base64 grows by a third: a body that barely compresses goes as it is.
  if (zipped.length >= raw.length) return { ...result, headers };
  return { ...result, headers: { ...headers, 'content-encoding': 'gzip' }, body: zipped, isBase64Encoded: true };
}

function varyWith(vary: string | undefined): string {
  if (!vary) return 'accept-encoding';
  return /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary) ? vary : `${vary}, accept-encoding`;
}
