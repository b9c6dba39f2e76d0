import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fingerprintOf } from '../../../domain/trust/fingerprint';
import { verifyExport } from '../../../domain/verify/verifyExport';
import { carriedBytes, EXPORT_LINK_SECONDS, gameExport, INLINE_EXPORT_MAX_BYTES } from '../../../functions/application/exports';
import { gameHandlers } from '../../../functions/http/gameHandlers';
import type { HttpEvent } from '../../../functions/http/respond';
import { fetchTransport, S3BlobStore, type S3Request, type S3Transport } from '../../../functions/store/s3BlobStore';
import { S3RVER_CREDENTIALS, startLoopbackS3, untilStored } from '../../support/loopbackS3';
import { memoryService } from '../../support/memoryService';

/** Lambda refuses a response over 6 MB. */
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;
const COMMITS = 20_000;

let s3: Awaited<ReturnType<typeof startLoopbackS3>>;
const seen: S3Request[] = [];
const recorded: S3Transport = async (request) => {
  seen.push(request);
  return fetchTransport()(request);
};
const figures: Record<string, number> = {};
let game: { service: ReturnType<typeof memoryService>['service']; gameId: string; token: string; fingerprint: string };

beforeAll(async () => {
  s3 = await startLoopbackS3(['arbiter-exports']);
  const started = Date.now();
  const { service, key } = memoryService('large-export');
  const created = await service.createGame({ ruleset: 'dice' });
  const token = created.tokens.players.player1;
  // Through the service, as a game is played: every commit decided, rolled, hashed and signed.
  for (let i = 0; i < COMMITS - 2; i++) await service.submit(created.gameId, token, { commandId: `r${i}`, type: 'Roll', payload: { dice: 'd6', purpose: `roll ${i}` } });
  await service.submit(created.gameId, created.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
  figures.buildMs = Date.now() - started;
  game = { service, gameId: created.gameId, token, fingerprint: fingerprintOf({ x: key.jwk.x! }) };
}, 60_000);
afterAll(async () => {
  await s3?.close();
  console.log(`large export: ${JSON.stringify(figures)}`);
});

const store = () => new S3BlobStore({ endpoint: s3.endpoint, bucket: 'arbiter-exports', region: 'local', prefix: 'exports/', credentials: S3RVER_CREDENTIALS, transport: recorded });

const exportEvent = (gameId: string, token: string): HttpEvent =>
  ({
    version: '2.0',
    routeKey: 'GET /games/{id}/export',
    rawPath: `/games/${gameId}/export`,
    rawQueryString: '',
    headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' },
    pathParameters: { id: gameId },
    requestContext: { http: { method: 'GET', path: `/games/${gameId}/export` }, requestId: 'r' },
    isBase64Encoded: false,
  }) as unknown as HttpEvent;

describe(`a ${COMMITS.toLocaleString('en')}-commit game exports through S3 (s3rver on loopback)`, () => {
  it('is too large for one Lambda response, so it is stored once and linked, and the download verifies', async () => {
    const { service, gameId, token, fingerprint } = game;
    const whole = JSON.stringify(await service.exportBundle(gameId, token));
    figures.exportBytes = Buffer.byteLength(whole);
    figures.carriedBytes = carriedBytes(whole);
    expect(figures.carriedBytes).toBeGreaterThan(LAMBDA_RESPONSE_LIMIT);
    expect(figures.carriedBytes).toBeGreaterThan(INLINE_EXPORT_MAX_BYTES);

    seen.length = 0;
    let started = Date.now();
    const handler = gameHandlers(service, { unexpected: (error) => console.error(error) }, { store: store() }).exportGame;
    const answer = await handler(exportEvent(gameId, token));
    figures.firstExportMs = Date.now() - started;
    expect(answer.statusCode).toBe(303);
    expect(answer.headers['cache-control']).toBe('no-store');
    const location = answer.headers.location;
    expect(JSON.parse(answer.body!)).toEqual({ url: location, expiresAt: expect.any(String), bytes: figures.exportBytes });
    // The link names no token of the game.
    expect(answer.body).not.toContain(token);
    expect(location).not.toContain(token);
    expect(new URL(location).pathname).toMatch(new RegExp(`^/arbiter-exports/exports/games/${gameId}/${COMMITS}-[0-9a-f]{16}\\.json$`));
    expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe(String(EXPORT_LINK_SECONDS));
    expect(seen.map((r) => r.method)).toEqual(['HEAD', 'PUT']);
    await untilStored(store(), new URL(location).pathname.replace('/arbiter-exports/exports/', ''), figures.exportBytes);

    started = Date.now();
    const download = await fetch(location);
    expect(download.status).toBe(200);
    const text = await download.text();
    figures.downloadMs = Date.now() - started;
    expect(Buffer.byteLength(text)).toBe(figures.exportBytes);
    started = Date.now();
    const report = verifyExport(JSON.parse(text), { trusted: [fingerprint] });
    figures.verifyMs = Date.now() - started;
    expect(report).toMatchObject({ ok: true, exitCode: 0, commits: COMMITS, sealed: true, failures: [] });
  }, 60_000);

  it('a second export of the same version reads no commit and writes nothing: a new link to the same object', async () => {
    const { service, gameId, token } = game;
    seen.length = 0;
    const bundles = vi.spyOn(service, 'exportBundle');
    const started = Date.now();
    const answer = await gameExport(service, { store: store() }, gameId, token);
    figures.secondExportMs = Date.now() - started;
    bundles.mockRestore();
    expect(bundles).not.toHaveBeenCalled();
    expect(seen.map((r) => r.method)).toEqual(['HEAD']);
    expect(answer).toMatchObject({ kind: 'link', bytes: figures.exportBytes });
    if (answer.kind !== 'link') throw new Error('not a link');
    expect((await fetch(answer.url)).status).toBe(200);
  });

  it('who may export is the API\'s to say, before any link: no token, another game\'s token, an unknown game', async () => {
    const { service, gameId, token } = game;
    seen.length = 0;
    const other = await service.createGame({ ruleset: 'dice' });
    await expect(gameExport(service, { store: store() }, gameId, undefined)).rejects.toMatchObject({ status: 401 });
    await expect(gameExport(service, { store: store() }, gameId, other.tokens.organizer)).rejects.toMatchObject({ status: 401 });
    await expect(gameExport(service, { store: store() }, 'g-none', token)).rejects.toMatchObject({ status: 404 });
    await expect(gameExport(service, { store: store() }, '../../etc', token)).rejects.toMatchObject({ status: 404 });
    expect(seen).toEqual([]);
  });
});
