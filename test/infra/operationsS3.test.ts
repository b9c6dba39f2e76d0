import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Segment } from 'aws-xray-sdk-core';
import { METRICS } from '../../functions/http/observe';
import { fetchTransport, S3BlobStore } from '../../functions/store/s3BlobStore';

/**
 * The export store's S3 calls in a deployed function: counted as the SDK clients' calls are
 * (the request's tally, DependencyErrors by dependency, a log line with the cause) and traced
 * (one AWS subsegment per call), against a loopback server that answers as told.
 */
let answer: { status: number; body?: string } | 'drop' = { status: 200 };
let server: Server;
let endpoint: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (answer === 'drop') return void res.socket?.destroy();
      res.writeHead(answer.status, { 'content-type': 'application/xml', 'content-length': String(Buffer.byteLength(answer.body ?? '')) });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let lines: string[];
beforeEach(() => {
  lines = [];
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    vi.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      if (text.trimStart().startsWith('{')) {
        lines.push(...text.split('\n').filter((l) => l.trim()));
        return true;
      }
      return write(chunk as string, ...(rest as []));
    }) as typeof stream.write);
  }
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const json = () => lines.map((l) => JSON.parse(l) as Record<string, any>);
const emf = (metric: string) => json().filter((l) => l._aws?.CloudWatchMetrics?.[0]?.Metrics?.some((m: { Name: string }) => m.Name === metric));
const logs = (message: string) => json().filter((l) => l.message === message);

/** A fresh container: its tallies its own; the store as exportDelivery.ts builds it, on the loopback server. */
async function container() {
  vi.resetModules();
  const { observedS3Transport, s3OperationOf } = await import('../../functions/lambda/observedS3');
  const powertools = await import('../../functions/lambda/powertools');
  const { tracer } = await import('../../functions/lambda/tracing');
  const store = new S3BlobStore({ endpoint, bucket: 'exports', region: 'eu-west-1', prefix: 'exports/', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, transport: observedS3Transport(fetchTransport(2_000)) });
  return { store, tracer, s3OperationOf, ...powertools };
}

describe("the export store's S3 calls", () => {
  it('count a failure in DependencyErrors (dependency S3) with its cause logged, and a throttled call in the request it served', async () => {
    const { store, powertoolsObserver, metrics } = await container();
    answer = { status: 403, body: '<Error><Code>AccessDenied</Code></Error>' };
    await expect(store.put('games/g-1/v2.json', new Uint8Array([1]), 'application/json')).rejects.toThrow(/403 AccessDenied/);
    expect(emf(METRICS.dependencyErrors).map((l) => [l.dependency, l.DependencyErrors])).toEqual([['S3', 1]]);
    expect(logs('AWS call failed')).toMatchObject([{ dependency: 'S3', operation: 'PutObject', failure: 'denied', errorName: 'AccessDenied', statusCode: 403 }]);

    answer = { status: 503, body: '<Error><Code>SlowDown</Code></Error>' };
    await expect(store.size('games/g-1/v2.json')).rejects.toThrow();
    expect(logs('AWS call failed').at(-1)).toMatchObject({ dependency: 'S3', operation: 'HeadObject', failure: 'throttle' });
    powertoolsObserver.request!({ route: 'GET /games/{id}/export', status: 503, latencyMs: 9, outcome: 'error', errorCode: 'unavailable' });
    metrics.publishStoredMetrics();
    expect(logs('request').at(-1)).toMatchObject({ outcome: 'throttle', dependencies: { throttles: 1 } });
  });

  it('count neither an export not written yet (HEAD 404, or GET 404 NoSuchKey of a new job record) nor a success as a failure; a dropped connection or a missing bucket is one', async () => {
    const { store } = await container();
    answer = { status: 404 };
    expect(await store.size('games/g-2/v2.json')).toBeUndefined();
    answer = { status: 404, body: '<Error><Code>NoSuchKey</Code></Error>' };
    expect(await store.read('tournaments/t-1/0123-job.json')).toBeUndefined();
    expect(logs('AWS call failed')).toEqual([]);
    answer = { status: 404, body: '<Error><Code>NoSuchBucket</Code></Error>' };
    expect(await store.read('tournaments/t-1/0123-job.json')).toBeUndefined();
    expect(logs('AWS call failed')).toMatchObject([{ dependency: 'S3', operation: 'GetObject', failure: 'client' }]);
    lines.length = 0;
    answer = { status: 200 };
    await store.put('games/g-2/v2.json', new Uint8Array([1, 2]), 'application/json');
    expect(emf(METRICS.dependencyErrors)).toEqual([]);
    expect(logs('AWS call failed')).toEqual([]);
    answer = 'drop';
    await expect(store.size('games/g-2/v2.json')).rejects.toThrow();
    expect(logs('AWS call failed')).toMatchObject([{ dependency: 'S3', operation: 'HeadObject', failure: 'network' }]);
  });

  it('leave one AWS subsegment per call in a traced invocation, with the operation and status, never the link', async () => {
    const { store, tracer } = await container();
    const segment = new Segment('arbiter-test');
    // A sampled invocation: only one loads the tracer (observedS3.ts).
    vi.stubEnv('_X_AMZN_TRACE_ID', 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1');
    vi.spyOn(tracer, 'isTracingEnabled').mockReturnValue(true);
    vi.spyOn(tracer, 'getSegment').mockReturnValue(segment);
    answer = { status: 200 };
    await store.put('games/g-3/v2.json', new Uint8Array([1]), 'application/json');
    answer = { status: 500, body: '<Error><Code>InternalError</Code></Error>' };
    await expect(store.size('games/g-3/v2.json')).rejects.toThrow();
    const subsegments = (segment.subsegments ?? []).map((s) => JSON.parse(JSON.stringify(s)) as Record<string, any>);
    expect(subsegments.map((s) => [s.name, s.namespace, s.aws.operation, s.http.response.status, Boolean(s.fault), typeof s.end_time])).toEqual([
      ['S3', 'aws', 'PutObject', 200, false, 'number'],
      ['S3', 'aws', 'HeadObject', 500, true, 'number'],
    ]);
    expect(subsegments[0].aws.key).toBe('/exports/exports/games/g-3/v2.json');
    expect(JSON.stringify(subsegments)).not.toMatch(/X-Amz-Signature|Authorization/i);
  });

  it('are named as S3 names them, the multipart ones included', async () => {
    const { s3OperationOf } = await container();
    const at = (method: string, query = '') => s3OperationOf({ method: method as 'GET', url: new URL(`https://b.example.test/exports/k.json${query}`) });
    expect([at('HEAD'), at('GET'), at('PUT'), at('PUT', '?partNumber=2&uploadId=u'), at('POST', '?uploads'), at('POST', '?uploadId=u'), at('DELETE', '?uploadId=u')]).toEqual([
      'HeadObject',
      'GetObject',
      'PutObject',
      'UploadPart',
      'CreateMultipartUpload',
      'CompleteMultipartUpload',
      'AbortMultipartUpload',
    ]);
  });
});
