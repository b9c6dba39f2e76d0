import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { createHandlers } from '../http/handlers';
import { MAX_BODY_BYTES } from '../http/middleware';
import { errorAnswer } from '../http/errorAnswer';
import type { HttpEvent, HttpResult } from '../http/respond';
import { matchRoute } from '../http/routes';
import { CorsPolicy, isPreflight } from './cors';
import { LOCAL_EXPORT_PATH, type EmbeddedS3 } from './embeddedS3';

type Handlers = ReturnType<typeof createHandlers>;

/** Past this the adapter stops reading; the handler answers 413 for anything over 64 KB. */
const TRANSPORT_LIMIT = MAX_BODY_BYTES + 1;

/**
 * Turns node:http requests into API Gateway v2 events for the same handlers the
 * Lambda functions run: no route is implemented twice.
 */
export function createLocalServer(handlers: Handlers, cors: CorsPolicy = new CorsPolicy([]), exportLinks?: EmbeddedS3['serveLink']): Server {
  return createServer((req, res) => {
    handle(handlers, cors, req, res, exportLinks).catch(() => {
      if (!res.headersSent) write(res, errorAnswer(acceptOf(req), 500, 'internal_error', 'Something went wrong on our side.'));
      else res.destroy();
    });
  });
}

async function handle(handlers: Handlers, cors: CorsPolicy, req: IncomingMessage, res: ServerResponse, exportLinks?: EmbeddedS3['serveLink']): Promise<void> {
  // Split by hand: `new URL()` would read a path such as "//x/y" as a host, or throw.
  const rawUrl = req.url ?? '/';
  const queryAt = rawUrl.indexOf('?');
  const url = { pathname: queryAt >= 0 ? rawUrl.slice(0, queryAt) : rawUrl, search: queryAt >= 0 ? rawUrl.slice(queryAt) : '' };
  const method = req.method ?? 'GET';
  // The links of large exports: where AWS's would point at the bucket, the local ones point here (embeddedS3.ts).
  if (exportLinks && url.pathname.startsWith(LOCAL_EXPORT_PATH)) {
    req.resume();
    // A page of an allowed origin may follow its export's redirect here, Authorization and all.
    if (isPreflight(req)) return write(res, { statusCode: 204, headers: { 'cache-control': 'no-store', ...cors.preflightHeaders(req) }, body: '' });
    const answer = await exportLinks({ method, path: url.pathname, query: url.search.slice(1), host: req.headers.host });
    write(res, { statusCode: answer.status, headers: withCors(answer.headers, cors.headersFor(req)), body: answer.body.toString('base64'), isBase64Encoded: true });
    return;
  }
  const match = matchRoute(method, url.pathname);
  if (!match.route && match.pathKnown && isPreflight(req)) {
    req.resume();
    write(res, { statusCode: 204, headers: { 'cache-control': 'no-store', ...cors.preflightHeaders(req) }, body: '' });
    return;
  }
  const allowed = cors.headersFor(req);
  if (!match.route) {
    req.resume();
    const status = match.pathKnown ? 405 : 404;
    const message = match.pathKnown ? `${method} is not allowed here.` : `No route ${method} ${url.pathname}.`;
    write(res, errorAnswer(acceptOf(req), status, status === 404 ? 'not_found' : 'method_not_allowed', message, undefined, allowed));
    return;
  }
  const body = await readBody(req);
  const event = toEvent(req, url, method, match.route.path, match.pathParameters, body);
  const result = await handlers[match.route.handler](event, { awsRequestId: event.requestContext.requestId });
  write(res, { ...result, headers: withCors(result.headers, allowed) });
}

const acceptOf = (req: IncomingMessage) => (Array.isArray(req.headers.accept) ? req.headers.accept.join(',') : req.headers.accept);

/** The answer's headers and CORS's, both Vary lists kept (`accept-encoding` and `origin`). */
function withCors(headers: Record<string, string>, allowed: Record<string, string>): Record<string, string> {
  const vary = [headers.vary, allowed.vary].filter(Boolean).join(', ');
  return { ...headers, ...allowed, ...(vary ? { vary } : {}) };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size >= TRANSPORT_LIMIT) return; // keep draining, stop keeping
      const room = TRANSPORT_LIMIT - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function toEvent(
  req: IncomingMessage,
  url: { pathname: string; search: string },
  method: string,
  template: string,
  pathParameters: Record<string, string>,
  body: Buffer,
): HttpEvent {
  const headers: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(url.search)) query[name] = Object.hasOwn(query, name) ? `${query[name]},${value}` : value;
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: `${method} ${template}`,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: `${method} ${template}`,
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
    },
    // As bytes: the handler decodes them, so invalid UTF-8 is refused rather than replaced.
    body: body.length ? body.toString('base64') : undefined,
    isBase64Encoded: body.length > 0,
  };
}

function write(res: ServerResponse, result: HttpResult): void {
  res.writeHead(result.statusCode, result.headers);
  // A gzipped (or any binary) answer comes base64-encoded, as API Gateway takes it from Lambda.
  res.end(result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? ''));
}
