import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../functions/store/s3BlobStore';
import { S3RVER_CREDENTIALS, startLoopbackS3, untilStored } from '../support/loopbackS3';
import { serviceExport } from '../support/serviceExport';
import { cli } from './cliHarness';

/**
 * `arbiter verify <game URL>` when the API answers 303 to a link on another origin, as a
 * deployed API does for a large export: the verifier follows it and its token stays behind
 * (S3 refuses a request carrying a second credential: s3rver does too, with a 400).
 */
let s3: Awaited<ReturnType<typeof startLoopbackS3>>;
let api: Server;
let apiUrl: string;
let fingerprint: string;
const seen: { path: string; authorization?: string }[] = [];

beforeAll(async () => {
  s3 = await startLoopbackS3(['arbiter-exports']);
  const exported = await serviceExport('redirected');
  fingerprint = exported.fingerprint;
  const store = new S3BlobStore({ endpoint: s3.endpoint, bucket: 'arbiter-exports', region: 'local', prefix: 'exports/', credentials: S3RVER_CREDENTIALS });
  const key = `games/${exported.bundle.gameId}/9-0123456789abcdef.json`;
  const body = Buffer.from(JSON.stringify(exported.bundle));
  await store.put(key, body, 'application/json; charset=utf-8');
  await untilStored(store, key, body.length);
  api = createServer(async (req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    if (req.headers.authorization !== 'Bearer the-token') return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"code":"unauthenticated","message":"no"}}');
    res.writeHead(303, { location: await store.link(key, 60), 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(async () => {
  api?.closeAllConnections();
  await new Promise<void>((resolve) => (api ? api.close(() => resolve()) : resolve()));
  await s3?.close();
});

describe('arbiter verify <game URL> answered by a link on another origin', () => {
  it('follows it without the token and verifies the download', async () => {
    const run = await cli(['verify', `${apiUrl}/games/g-redirected-1`, '--trust', fingerprint], { env: { ARBITER_TOKEN: 'the-token' } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(seen).toEqual([{ path: '/games/g-redirected-1/export', authorization: 'Bearer the-token' }]);
  });

  it('would fail if the token went along: the link with an Authorization header is refused', async () => {
    const answer = await fetch(`${apiUrl}/games/g-redirected-1/export`, { headers: { authorization: 'Bearer the-token' }, redirect: 'manual' });
    const location = answer.headers.get('location')!;
    expect((await fetch(location)).status).toBe(200);
    expect((await fetch(location, { headers: { authorization: 'Bearer the-token' } })).status).toBe(400);
  });
});
