import type { S3Request, S3Response, S3Transport } from '../store/s3BlobStore';
import { noteDependencyCall, type DependencyCall } from './powertools';
import { sampled } from './sampledTracing';

/**
 * The export store's S3 requests (functions/store/s3BlobStore.ts signs its own, without the
 * SDK's client) reported as the SDK clients of awsClients.ts report theirs: each call counted
 * for the request's outcome and, when it fails, in `DependencyErrors` (dependency `S3`) with a
 * log line naming the cause; and, when the invocation is traced, one X-Ray subsegment per
 * call with the operation, bucket path and status, never the object's content or the link.
 */
export function observedS3Transport(send: S3Transport): S3Transport {
  return async (request) => {
    const operation = s3OperationOf(request);
    const subsegment = await traced(operation, request);
    try {
      const response = await send(request);
      subsegment?.addAttribute('http', { response: { status: response.status } });
      const failure = failureOfAnswer(request, response);
      if (failure?.kind === 'throttle') subsegment?.addThrottleFlag();
      else if (failure && failure.kind !== 'expected') (response.status >= 500 ? subsegment?.addFaultFlag() : subsegment?.addErrorFlag());
      noteDependencyCall({ dependency: 'S3', operation, attempts: 1, ...(failure ? { failure } : {}) });
      return response;
    } catch (error) {
      const name = (error as Error | undefined)?.name ?? 'Error';
      const kind = name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network';
      subsegment?.addFaultFlag();
      noteDependencyCall({ dependency: 'S3', operation, attempts: 1, failure: { kind, name, message: (error as Error | undefined)?.message } });
      throw error;
    } finally {
      subsegment?.close();
    }
  };
}

/** S3's name for a request of the export store: HeadObject, PutObject, GetObject, and the multipart ones. */
export function s3OperationOf(request: Pick<S3Request, 'method' | 'url'>): string {
  const query = request.url.searchParams;
  if (request.method === 'HEAD') return 'HeadObject';
  if (request.method === 'GET') return 'GetObject';
  if (request.method === 'PUT') return query.has('partNumber') ? 'UploadPart' : 'PutObject';
  if (request.method === 'DELETE') return query.has('uploadId') ? 'AbortMultipartUpload' : 'DeleteObject';
  if (request.method === 'POST') return query.has('uploads') ? 'CreateMultipartUpload' : query.has('uploadId') ? 'CompleteMultipartUpload' : 'PostObject';
  return request.method;
}

/** An answer as the SDK clients' failures are sorted (awsClients.ts describeFailure); undefined for a success. */
function failureOfAnswer(request: S3Request, response: S3Response): DependencyCall['failure'] {
  const { status } = response;
  if (status < 300) return undefined;
  if (status === 404 && request.method === 'HEAD') return { kind: 'expected', name: 'NotFound', statusCode: status };
  const code = new TextDecoder().decode(response.body.subarray(0, 2048)).match(/<Code>([A-Za-z]{1,64})<\/Code>/)?.[1] ?? `Http${status}`;
  // A GET of an object not written yet (a new export's job record) is an answer the store expects; a missing bucket is not.
  if (status === 404 && request.method === 'GET' && code === 'NoSuchKey') return { kind: 'expected', name: code, statusCode: status };
  if (status === 503 || status === 429 || code === 'SlowDown') return { kind: 'throttle', name: code, statusCode: status };
  if (status >= 500) return { kind: 'fault', name: code, statusCode: status };
  if (status === 403) return { kind: 'denied', name: code, statusCode: status };
  return { kind: 'client', name: code, statusCode: status };
}

/**
 * A subsegment under the invocation's segment, shaped as the SDK clients' AWS subsegments; none outside a
 * sampled invocation. The tracer (the X-Ray SDK, ~90 KB) is loaded by the first sampled call, as the SDK
 * clients' is (sampledTracing.ts): a cold start does not load it.
 */
async function traced(operation: string, request: S3Request) {
  if (!sampled()) return undefined;
  const { tracer } = await import('./tracing');
  if (!tracer.isTracingEnabled()) return undefined;
  const parent = tracer.getSegment();
  if (!parent) return undefined;
  const subsegment = parent.addNewSubsegment('S3');
  subsegment.addAttribute('namespace', 'aws');
  // The path names the bucket and the export's key (a game id and version, public); the query (a link's signature) is left out.
  subsegment.addAttribute('aws', { operation, region: process.env.AWS_REGION, key: request.url.pathname.slice(0, 256) });
  return subsegment;
}
