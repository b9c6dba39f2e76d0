import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchTransport, S3BlobStore, type S3Transport } from '../../../functions/store/s3BlobStore';
import { S3RVER_CREDENTIALS, startLoopbackS3 } from '../../support/loopbackS3';

let s3: Awaited<ReturnType<typeof startLoopbackS3>>;
const requests: string[] = [];
beforeAll(async () => {
  s3 = await startLoopbackS3();
});
afterAll(async () => {
  await s3?.close();
});

/** The store, its requests recorded by method and subresource (`POST uploads`, `PUT partNumber&uploadId`, …). */
const store = () => {
  const send = fetchTransport();
  const transport: S3Transport = (request) => {
    requests.push(`${request.method} ${[...request.url.searchParams.keys()].join('&')}`);
    return send(request);
  };
  return new S3BlobStore({ endpoint: s3.endpoint, bucket: 'arbiter-exports', region: 'local', prefix: 'exports/', credentials: S3RVER_CREDENTIALS, transport });
};

describe('S3BlobStore.upload against a real S3 server (s3rver on loopback): a multipart upload', () => {
  it('sends what is written in parts of at least 5 MiB, stores exactly those bytes, and reads them back', async () => {
    requests.length = 0;
    const blobs = store();
    const key = 'tournaments/t-multi/0123456789abcdef0123456789abcdef01234567.ndjson';
    const chunks = Array.from({ length: 24 }, () => randomBytes(512 * 1024));
    const upload = await blobs.upload(key, 'application/x-ndjson; charset=utf-8', 5 * 1024 * 1024);
    for (const chunk of chunks) await upload.write(chunk);
    expect(await upload.complete()).toBe(12 * 1024 * 1024);
    // 12 MiB in parts of 5 MiB: three parts (the last one small), each sent once its part was full.
    expect(requests).toEqual(['POST uploads', 'PUT partNumber&uploadId', 'PUT partNumber&uploadId', 'PUT partNumber&uploadId', 'POST uploadId']);
    expect(Buffer.from((await blobs.read(key))!).equals(Buffer.concat(chunks))).toBe(true);
    expect(await blobs.size(key)).toBe(12 * 1024 * 1024);
    const link = await fetch(await blobs.link(key, 60));
    expect(link.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
  });

  it('stores an empty object when nothing was written, and stores nothing when aborted', async () => {
    const blobs = store();
    const empty = 'tournaments/t-multi/empty.ndjson';
    const upload = await blobs.upload(empty, 'application/x-ndjson; charset=utf-8');
    expect(await upload.complete()).toBe(0);
    expect(await blobs.size(empty)).toBe(0);
    const dropped = 'tournaments/t-multi/dropped.ndjson';
    const aborted = await blobs.upload(dropped, 'application/x-ndjson; charset=utf-8', 5 * 1024 * 1024);
    await aborted.write(randomBytes(1024));
    await aborted.abort();
    expect(await blobs.size(dropped)).toBeUndefined();
    expect(await blobs.read(dropped)).toBeUndefined();
    await expect(blobs.upload(dropped, 'text/plain', 1024)).rejects.toThrow(/at least/);
  });
});
