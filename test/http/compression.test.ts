import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameService } from '../../functions/application/gameService';
import { createHandlers } from '../../functions/http/handlers';
import { acceptsGzip, compressed, MIN_GZIP_BYTES, type HttpEvent, type HttpResult } from '../../functions/http/respond';
import { pick, routeGroup } from '../../functions/lambda/routeGroup';
import { startLocalService, type LocalService } from '../../functions/local/localService';
import { memoryService } from '../support/memoryService';

const event = (routeKey: string, path: string, headers: Record<string, string>, params: { id?: string; query?: Record<string, string> } = {}): HttpEvent =>
  ({
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: new URLSearchParams(params.query ?? {}).toString(),
    headers,
    queryStringParameters: params.query,
    pathParameters: params.id ? { id: params.id } : undefined,
    requestContext: { http: { method: routeKey.split(' ')[0], path }, requestId: 'r' },
    isBase64Encoded: false,
  }) as unknown as HttpEvent;

const unzipped = (result: HttpResult) => gunzipSync(Buffer.from(result.body!, 'base64')).toString('utf8');

let service: GameService;
let gameId: string;
let token: string;
let handlers: ReturnType<typeof createHandlers>;

beforeAll(async () => {
  ({ service } = memoryService('gzip'));
  const created = await service.createGame({ ruleset: 'dice' });
  ({ gameId } = created);
  token = created.tokens.players.player1;
  for (let i = 0; i < 20; i++) await service.submit(gameId, token, { commandId: `r${i}`, type: 'Roll', payload: { dice: '3d6', purpose: `r${i}` } });
  handlers = createHandlers(service, async () => '');
});

describe('answers are gzipped when the client accepts it (respond.ts)', () => {
  const events = (headers: Record<string, string>) =>
    handlers.listEvents(event('GET /games/{id}/events', `/games/${gameId}/events`, { authorization: `Bearer ${token}`, ...headers }, { id: gameId, query: { after: '0' } }));

  it('gzip: the same bytes, base64 as API Gateway carries binary, the same ETag, Vary on both', async () => {
    const plain = await events({});
    const zipped = await events({ 'accept-encoding': 'gzip, deflate, br' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.isBase64Encoded).toBeFalsy();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.isBase64Encoded).toBe(true);
    expect(unzipped(zipped)).toBe(plain.body);
    expect(Buffer.from(zipped.body!, 'base64').length).toBeLessThan(Buffer.byteLength(plain.body!) / 3);
    expect(zipped.headers.etag).toBe('"21"');
    expect(plain.headers.etag).toBe('"21"');
    expect(zipped.headers.vary).toBe('accept-encoding');
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(zipped.headers['content-type']).toBe(plain.headers['content-type']);
    // If-None-Match with the ETag of a gzipped answer: 304, as for the identity one.
    const unchanged = await events({ 'accept-encoding': 'gzip', 'if-none-match': zipped.headers.etag });
    expect([unchanged.statusCode, unchanged.body, unchanged.headers['content-encoding']]).toEqual([304, '', undefined]);
  });

  it('only when asked: gzip;q=0, identity and br alone get the identity answer; * gets gzip', async () => {
    for (const refusal of ['gzip;q=0', 'identity', 'br', 'deflate', 'gzip;q=0, br', '']) {
      expect((await events({ 'accept-encoding': refusal })).headers['content-encoding'], refusal).toBeUndefined();
    }
    for (const accepted of ['*', 'GZIP', 'br;q=1.0, gzip;q=0.5', 'x-gzip, gzip']) {
      expect((await events({ 'accept-encoding': accepted })).headers['content-encoding'], accepted).toBe('gzip');
    }
  });

  it(`never compresses tiny bodies (under ${MIN_GZIP_BYTES} bytes), errors, or what is already encoded`, async () => {
    const health = await handlers.health(event('GET /health', '/health', { 'accept-encoding': 'gzip' }));
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body!)).toEqual({ ok: true });
    const refused = await handlers.listEvents(event('GET /games/{id}/events', `/games/${gameId}/events`, { 'accept-encoding': 'gzip' }, { id: gameId }));
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['content-encoding']).toBeUndefined();
    const already: HttpResult = { statusCode: 200, headers: { 'content-type': 'text/javascript', 'content-encoding': 'gzip' }, body: 'H4sI', isBase64Encoded: true };
    expect(compressed(event('GET /x', '/x', { 'accept-encoding': 'gzip' }), already)).toBe(already);
    const image: HttpResult = { statusCode: 200, headers: { 'content-type': 'image/png' }, body: 'x'.repeat(5000) };
    expect(compressed(event('GET /x', '/x', { 'accept-encoding': 'gzip' }), image)).toBe(image);
    expect(acceptsGzip(event('GET /x', '/x', { 'Accept-Encoding': 'gzip' }))).toBe(true);
  });

  it('a Lambda function returns it as is: API Gateway decodes isBase64Encoded', async () => {
    const lambda = routeGroup(pick(handlers, ['listEvents']));
    const result = await lambda(event('GET /games/{id}/events', `/games/${gameId}/events`, { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' }, { id: gameId }), {} as never);
    expect(result.isBase64Encoded).toBe(true);
    expect(JSON.parse(unzipped(result)).commits).toHaveLength(21);
  });
});

describe('the local server passes gzipped answers through as bytes', () => {
  let local: LocalService;
  beforeAll(async () => {
    local = await startLocalService({ corsOrigins: ['https://app.example.test'] });
  });
  afterAll(async () => {
    await local?.close();
  });

  const get = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const url = new URL(local.url);
      const req = httpRequest({ host: url.hostname, port: url.port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });

  it('gzip when asked, identity otherwise, the same JSON either way', async () => {
    const zipped = await get('/rulesets', { 'accept-encoding': 'gzip' });
    const plain = await get('/rulesets', {});
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(zipped.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    expect(zipped.body.length).toBeLessThan(plain.body.length / 3);
    expect(JSON.parse(plain.body.toString('utf8'))).toBeTruthy();
    // An allowed origin's answer varies on both.
    const crossOrigin = await get('/rulesets', { 'accept-encoding': 'gzip', origin: 'https://app.example.test' });
    expect(crossOrigin.headers.vary).toBe('accept-encoding, origin');
    expect(crossOrigin.headers['content-encoding']).toBe('gzip');
    // fetch asks for gzip itself and unpacks it.
    const viaFetch = await fetch(`${local.url}/rulesets`);
    expect(await viaFetch.text()).toBe(plain.body.toString('utf8'));
  });
});
