import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };

const BASE_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

export function text(statusCode: number, body: string, headers: Record<string, string> = {}): HttpResult {
  return { statusCode, headers: { ...BASE_HEADERS, 'content-type': 'text/plain; charset=utf-8', ...headers }, body };
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

/** Accept: text/plain asks for chat-log lines (http-api.md "Text for chat logs"). */
export function wantsText(event: HttpEvent): boolean {
  const accept = header(event, 'accept') ?? '';
  return /(^|,)\s*text\/plain\b/i.test(accept);
}
