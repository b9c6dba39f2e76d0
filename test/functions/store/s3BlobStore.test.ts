import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailable } from '../../../functions/store/eventStore';
import { fetchTransport, S3BlobStore, type S3Request, type S3Transport } from '../../../functions/store/s3BlobStore';
import { exportStoreFromEnvironment } from '../../../functions/store/s3BlobStore';
import { S3RVER_CREDENTIALS, startLoopbackS3, untilStored } from '../../support/loopbackS3';
import { presignedLinkHolds, signedRequestHolds } from '../../support/sigv4Reference';

let s3: Awaited<ReturnType<typeof startLoopbackS3>>;
beforeAll(async () => {
  s3 = await startLoopbackS3(['arbiter-exports']);
});
afterAll(async () => {
  await s3?.close();
});

const storeOn = (endpoint: string, transport?: S3Transport, bucket = 'arbiter-exports') =>
  new S3BlobStore({ endpoint, bucket, region: 'local', prefix: 'exports/', credentials: S3RVER_CREDENTIALS, ...(transport ? { transport } : {}) });

/** Records each request, then sends it on. */
function recording(send: S3Transport = fetchTransport()) {
  const seen: S3Request[] = [];
  const transport: S3Transport = async (request) => {
    seen.push(request);
    return send(request);
  };
  return { seen, transport };
}

describe('S3BlobStore against a real S3 server (s3rver on loopback)', () => {
  it('stores an object once, tells its size, and links it for a GET that needs nothing else', async () => {
    const store = storeOn(s3.endpoint);
    const key = 'games/g-roundtrip/3-0123456789abcdef.json';
    expect(await store.size(key)).toBeUndefined();
    const body = Buffer.from(JSON.stringify({ hello: 'wörld', n: [1, 2, 3] }));
    await store.put(key, body, 'application/json; charset=utf-8');
    await untilStored(store, key, body.length);
    expect(await store.size(key)).toBe(body.length);
    const link = await store.link(key, 60);
    expect(link.startsWith(`${s3.endpoint}/arbiter-exports/exports/games/g-roundtrip/3-0123456789abcdef.json?`)).toBe(true);
    const response = await fetch(link);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(body);
  });

  it('refuses a key it never writes, before any request', async () => {
    const { seen, transport } = recording();
    const store = storeOn(s3.endpoint, transport);
    for (const key of ['../x.json', 'games/../../x.json', 'games/g-1/..json/x', 'games/g%2F1/1.json', 'games/g-1/1.txt', 'other/g-1/1.json', 'games//1.json']) {
      await expect(store.put(key, Buffer.from('{}'), 'application/json'), key).rejects.toThrow(/not an export key/);
      await expect(store.link(key, 60), key).rejects.toThrow(/not an export key/);
    }
    expect(seen).toEqual([]);
  });

  it("an S3 refusal is a fault to log, not a 503; the network and S3's own failures are a 503 to retry", async () => {
    // No such bucket: s3rver answers 404 NoSuchBucket to the PUT.
    const refused = storeOn(s3.endpoint, undefined, 'no-such-bucket');
    const refusal = await refused.put('games/g-x/1-a.json', Buffer.from('{}'), 'application/json').catch((e: Error) => e);
    expect(refusal).toBeInstanceOf(Error);
    expect(refusal).not.toBeInstanceOf(StoreUnavailable);
    expect(String(refusal)).toMatch(/S3 answered PUT with 404 NoSuchBucket/);
    const slow = storeOn(s3.endpoint, async () => ({ status: 503, headers: {}, body: Buffer.from('<Error><Code>SlowDown</Code></Error>') }));
    await expect(slow.put('games/g-x/1-a.json', Buffer.from('{}'), 'application/json')).rejects.toBeInstanceOf(StoreUnavailable);
    await expect(slow.size('games/g-x/1-a.json')).rejects.toBeInstanceOf(StoreUnavailable);
    // A port nobody listens on: the request cannot be made.
    const unreachable = storeOn('http://127.0.0.1:9', fetchTransport(2_000));
    await expect(unreachable.size('games/g-x/1-a.json')).rejects.toBeInstanceOf(StoreUnavailable);
    const hung = storeOn(s3.endpoint, () => new Promise((_, reject) => setTimeout(() => reject(new DOMException('timed out', 'TimeoutError')), 10)));
    await expect(hung.size('games/g-x/1-a.json')).rejects.toBeInstanceOf(StoreUnavailable);
  });
});

describe('Signature Version 4, as S3 checks it (s3rver does not)', () => {
  const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
  const endpoint = 'http://127.0.0.1:4569';
  const sdk = new S3Client({ endpoint, forcePathStyle: true, region: 'local', credentials });

  it("the reference signer written from AWS's description agrees with the SDK's own links and requests", async () => {
    const link = await getSignedUrl(sdk, new GetObjectCommand({ Bucket: 'arbiter-exports', Key: 'exports/games/g-1/7-0123456789abcdef.json' }), { expiresIn: 300 });
    expect(presignedLinkHolds(link, credentials.secretAccessKey)).toBe(true);
    expect(presignedLinkHolds(link, 'another secret')).toBe(false);
    const captured: { method: string; url: URL; headers: Record<string, string> }[] = [];
    const capturing = new S3Client({
      endpoint,
      forcePathStyle: true,
      region: 'local',
      credentials,
      requestHandler: {
        handle: async (request: { method: string; protocol: string; hostname: string; port?: number; path: string; query: Record<string, string>; headers: Record<string, string> }) => {
          const url = new URL(`${request.protocol}//${request.hostname}:${request.port}${request.path}`);
          for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.append(name, value);
          captured.push({ method: request.method, url, headers: request.headers });
          return { response: { statusCode: 200, headers: { etag: '"x"' }, body: new Uint8Array() } };
        },
      } as never,
    });
    await capturing.send(new PutObjectCommand({ Bucket: 'arbiter-exports', Key: 'exports/games/g-1/7-0123456789abcdef.json', Body: '{"a":1}', ContentType: 'application/json' }));
    expect(captured).toHaveLength(1);
    expect(signedRequestHolds(captured[0], credentials.secretAccessKey)).toBe(true);
    expect(signedRequestHolds({ ...captured[0], method: 'DELETE' }, credentials.secretAccessKey)).toBe(false);
  });

  it("the adapter's HEAD, PUT and links are signed as the reference signer signs them", async () => {
    const { seen, transport } = recording(async () => ({ status: 200, headers: { 'content-length': '7' }, body: new Uint8Array() }));
    const store = new S3BlobStore({ endpoint, bucket: 'arbiter-exports', region: 'local', prefix: 'exports/', credentials, transport });
    await store.put('games/g-1/7-0123456789abcdef.json', Buffer.from('{"a":1}'), 'application/json');
    await store.size('games/g-1/7-0123456789abcdef.json');
    expect(seen.map((r) => r.method)).toEqual(['PUT', 'HEAD']);
    for (const request of seen) expect(signedRequestHolds(request, credentials.secretAccessKey), request.method).toBe(true);
    expect(seen[0].headers['x-amz-content-sha256']).toBe('015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862');
    const link = await store.link('games/g-1/7-0123456789abcdef.json', 300);
    expect(presignedLinkHolds(link, credentials.secretAccessKey)).toBe(true);
    // With the temporary credentials of a Lambda role, the session token is part of the link, as with S3's own presigner.
    const withToken = new S3BlobStore({ endpoint, bucket: 'arbiter-exports', region: 'local', credentials: { ...credentials, sessionToken: 'FwoGZXIvYXdzEXAMPLE' } });
    const tokenLink = new URL(await withToken.link('games/g-1/7-0123456789abcdef.json', 300));
    expect(tokenLink.searchParams.get('X-Amz-Security-Token')).toBe('FwoGZXIvYXdzEXAMPLE');
    expect(presignedLinkHolds(tokenLink.href, credentials.secretAccessKey)).toBe(true);
  });

  it("linkProblem accepts the SDK's links and ours, and refuses any change, another key, or an expired link", async () => {
    const store = new S3BlobStore({ endpoint, bucket: 'arbiter-exports', region: 'local', prefix: 'exports/', credentials });
    const ours = new URL(await store.link('games/g-1/7-0123456789abcdef.json', 300));
    const theirs = new URL(await getSignedUrl(sdk, new GetObjectCommand({ Bucket: 'arbiter-exports', Key: 'exports/games/g-1/7-0123456789abcdef.json' }), { expiresIn: 300 }));
    expect(await store.linkProblem(ours)).toBeUndefined();
    expect(await store.linkProblem(theirs)).toBeUndefined();
    const changed = (url: URL, edit: (u: URL) => void) => {
      const copy = new URL(url.href);
      edit(copy);
      return copy;
    };
    const signedAt = (url: URL) => {
      const d = url.searchParams.get('X-Amz-Date')!;
      return new Date(`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${d.slice(9, 11)}:${d.slice(11, 13)}:${d.slice(13, 15)}Z`);
    };
    const cases: [string, URL, RegExp][] = [
      ['another object', changed(ours, (u) => (u.pathname = '/arbiter-exports/exports/games/g-2/7-0123456789abcdef.json')), /signature does not match/],
      ['another host', changed(ours, (u) => (u.host = '127.0.0.1:4570')), /signature does not match/],
      ['a longer life', changed(ours, (u) => u.searchParams.set('X-Amz-Expires', '604800')), /signature does not match/],
      ['a later date', changed(ours, (u) => u.searchParams.set('X-Amz-Date', '20991231T000000Z')), /not valid yet|not signed with these credentials/],
      ['a flipped digit', changed(ours, (u) => u.searchParams.set('X-Amz-Signature', u.searchParams.get('X-Amz-Signature')!.replace(/^./, (c) => (c === '0' ? '1' : '0')))), /signature does not match/],
      ['an added parameter', changed(ours, (u) => u.searchParams.set('response-content-type', 'text/html')), /signature does not match/],
      ['a second signature', changed(ours, (u) => u.searchParams.append('X-Amz-Signature', '0'.repeat(64))), /not a presigned link/],
      ['no signature', changed(ours, (u) => u.searchParams.delete('X-Amz-Signature')), /not a presigned link/],
      ['another key id', changed(ours, (u) => u.searchParams.set('X-Amz-Credential', u.searchParams.get('X-Amz-Credential')!.replace('AKIDEXAMPLE', 'S3RVER'))), /not signed with these credentials/],
      ['more signed headers', changed(ours, (u) => u.searchParams.set('X-Amz-SignedHeaders', 'host;range')), /headers other than host/],
      ['no query at all', new URL(`${ours.origin}${ours.pathname}`), /not a presigned link/],
    ];
    for (const [what, url, reason] of cases) expect(await store.linkProblem(url), what).toMatch(reason);
    // Valid through its 300 seconds, refused after.
    expect(await store.linkProblem(ours, new Date(signedAt(ours).getTime() + 299_000))).toBeUndefined();
    expect(await store.linkProblem(ours, new Date(signedAt(ours).getTime() + 301_000))).toBe('the link has expired');
    expect(await store.linkProblem(theirs, new Date(signedAt(theirs).getTime() + 301_000))).toBe('the link has expired');
  });

  it('a deployed function takes its bucket from the environment the stack gives it, or has none', () => {
    expect(exportStoreFromEnvironment({})).toBeUndefined();
    const store = exportStoreFromEnvironment({ ARBITER_EXPORT_ENDPOINT: 'https://bucket.example.test', ARBITER_EXPORT_REGION: 'eu-west-3', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' })!;
    expect(store.urlOf('games/g-1/2-0123456789abcdef.json').href).toBe('https://bucket.example.test/exports/games/g-1/2-0123456789abcdef.json');
    expect(() => exportStoreFromEnvironment({ ARBITER_EXPORT_ENDPOINT: 'https://bucket.example.test' })).toThrow(/ARBITER_EXPORT_REGION/);
  });
});
