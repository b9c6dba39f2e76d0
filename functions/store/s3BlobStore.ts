import { createHash, createHmac, timingSafeEqual, type Hash, type Hmac } from 'node:crypto';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { SignatureV4 } from '@smithy/signature-v4';
import type { BlobUpload, JobBlobStore } from '../ports/blobStore';
import { checkedBlobKey, EXPORT_ENVIRONMENT, EXPORT_PREFIX } from './blobStore';
import { StoreUnavailable } from '../ports/eventStore';

export interface S3Request {
  method: 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE';
  url: URL;
  headers: Record<string, string>;
  body?: Uint8Array;
}

export interface S3Response {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** Sends one signed request: fetch on AWS and against a listening s3rver, a function call to the in-process one. */
export type S3Transport = (request: S3Request) => Promise<S3Response>;

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface S3BlobStoreOptions {
  /**
   * Where requests go, an origin without a path: the bucket's own endpoint on AWS
   * (`https://` + its regional domain name, from the stack), or a server that takes the
   * bucket as the first path segment (s3rver, the local server's port) when `bucket` is given.
   */
  endpoint: string | (() => string);
  /** Path-style addressing: the bucket named in the path. Omitted: the endpoint is the bucket's. */
  bucket?: string;
  region: string;
  /** Prepended to every key, e.g. `exports/`: the prefix the function's role may use. */
  prefix?: string;
  credentials: S3Credentials | (() => Promise<S3Credentials>);
  transport?: S3Transport;
  now?: () => Date;
}

/** How long one request to S3 may take before it counts as unavailable (503, Retry-After). */
export const S3_REQUEST_TIMEOUT_MS = 15_000;

/** S3 signs a request's payload hash; a presigned GET leaves the payload unsigned (what S3's own presigner does). */
const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

/**
 * A BlobStore in an S3 bucket, signed with Signature Version 4. It is the signer the AWS SDK's
 * own clients use (@smithy/signature-v4, already in every function's bundle through the
 * DynamoDB client), with S3's settings (no double escaping of the path, the payload hash
 * in `x-amz-content-sha256`), and three requests: HEAD, PUT, and a presigned GET. Not
 * @aws-sdk/client-s3 itself: it would add about 170 KB to the reads bundle, already the largest.
 */
export class S3BlobStore implements JobBlobStore {
  private readonly signer: SignatureV4;
  private readonly transport: S3Transport;
  private readonly now: () => Date;

  constructor(private readonly options: S3BlobStoreOptions) {
    const credentials = options.credentials;
    this.signer = new SignatureV4({
      service: 's3',
      region: options.region,
      credentials: typeof credentials === 'function' ? credentials : async () => credentials,
      sha256: NodeSha256,
      uriEscapePath: false,
      applyChecksum: false,
    });
    this.transport = options.transport ?? fetchTransport();
    this.now = options.now ?? (() => new Date());
  }

  async size(key: string): Promise<number | undefined> {
    const response = await this.send(await this.signed('HEAD', key));
    if (response.status === 404) return undefined;
    if (response.status !== 200) throw failure('HEAD', response);
    return Number(response.headers['content-length'] ?? 0);
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    const request = await this.signed('PUT', key, body, {
      'content-type': contentType,
      // Immutable, but the link that reads it expires: nothing is gained by keeping it longer.
      'cache-control': 'private, max-age=300',
    });
    const response = await this.send(request);
    if (response.status !== 200) throw failure('PUT', response);
  }

  async read(key: string): Promise<Uint8Array | undefined> {
    const response = await this.send(await this.signed('GET', key));
    if (response.status === 404) return undefined;
    if (response.status !== 200) throw failure('GET', response);
    return response.body;
  }

  /**
   * A multipart upload (CreateMultipartUpload, UploadPart, CompleteMultipartUpload): what is
   * written is sent in parts of `partBytes` (S3 takes at least 5 MiB but for the last), so
   * at most one part is held however large the object.
   */
  async upload(key: string, contentType: string, partBytes = UPLOAD_PART_BYTES): Promise<BlobUpload> {
    if (partBytes < MIN_PART_BYTES) throw new Error(`S3 parts are at least ${MIN_PART_BYTES} bytes`);
    const created = await this.send(await this.signed('POST', key, undefined, { 'content-type': contentType, 'cache-control': 'private, max-age=300' }, { uploads: '' }));
    if (created.status !== 200) throw failure('POST', created);
    const uploadId = xmlText(created.body, 'UploadId');
    if (!uploadId) throw new Error('S3 answered CreateMultipartUpload without an UploadId');
    const etags: string[] = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let total = 0;
    const sendPart = async () => {
      const body = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      const partNumber = String(etags.length + 1);
      const answer = await this.send(await this.signed('PUT', key, body, {}, { partNumber, uploadId }));
      if (answer.status !== 200) throw failure('PUT', answer);
      const etag = answer.headers.etag ?? answer.headers.ETag;
      if (!etag) throw new Error(`S3 answered part ${partNumber} without an ETag`);
      etags.push(etag);
    };
    return {
      write: async (bytes) => {
        pending.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        pendingBytes += bytes.byteLength;
        total += bytes.byteLength;
        if (pendingBytes >= partBytes) await sendPart();
      },
      complete: async () => {
        // The last part may be small, or empty when nothing at all was written.
        if (pendingBytes > 0 || etags.length === 0) await sendPart();
        const parts = etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag></Part>`).join('');
        const body = Buffer.from(`<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${parts}</CompleteMultipartUpload>`, 'utf8');
        const answer = await this.send(await this.signed('POST', key, body, { 'content-type': 'application/xml' }, { uploadId }));
        // S3 may answer 200 with an error in the body when the assembly fails late.
        if (answer.status !== 200 || xmlText(answer.body, 'Code')) throw failure('POST', answer.status === 200 ? { ...answer, status: 500 } : answer);
        return total;
      },
      abort: async () => {
        pending = [];
        pendingBytes = 0;
        await this.send(await this.signed('DELETE', key, undefined, {}, { uploadId })).catch(() => undefined);
      },
    };
  }

  async link(key: string, expiresInSeconds: number): Promise<string> {
    const url = this.urlOf(key);
    const presigned = await this.signer.presign(
      {
        method: 'GET',
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port ? Number(url.port) : undefined,
        path: url.pathname,
        query: {},
        headers: { host: url.host, 'x-amz-content-sha256': UNSIGNED_PAYLOAD },
      },
      { expiresIn: expiresInSeconds, signingDate: this.now(), unsignableHeaders: new Set(['content-type']) },
    );
    return `${url.origin}${url.pathname}?${queryString((presigned.query ?? {}) as Record<string, string>)}`;
  }

  /**
   * What S3 checks of a presigned GET before it answers, for the local server, whose
   * stand-in (s3rver) does not check Signature Version 4: undefined when `url` (with the Host
   * it was asked on) is a link these credentials signed for GET and it has not expired;
   * otherwise why not. The signature is computed again from the link's own date, expiry and
   * query, and compared in constant time.
   */
  async linkProblem(url: URL, now = this.now()): Promise<string | undefined> {
    const query = url.searchParams;
    const one = (name: string) => (query.getAll(name).length === 1 ? query.get(name)! : undefined);
    const algorithm = one('X-Amz-Algorithm');
    const credential = one('X-Amz-Credential');
    const date = one('X-Amz-Date');
    const expires = one('X-Amz-Expires');
    const signedHeaders = one('X-Amz-SignedHeaders');
    const signature = one('X-Amz-Signature');
    if (algorithm !== 'AWS4-HMAC-SHA256' || !credential || !date || !expires || !signedHeaders || !signature) return 'not a presigned link';
    const when = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(date);
    if (!when || !/^\d{1,6}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return 'a malformed presigned link';
    const signedAt = new Date(Date.UTC(+when[1], +when[2] - 1, +when[3], +when[4], +when[5], +when[6]));
    const seconds = Number(expires);
    if (Number.isNaN(signedAt.getTime()) || seconds < 1 || seconds > 604_800) return 'a malformed presigned link';
    if (now.getTime() > signedAt.getTime() + seconds * 1000) return 'the link has expired';
    if (signedAt.getTime() > now.getTime() + 15 * 60_000) return 'the link is not valid yet';
    if (signedHeaders !== 'host') return 'the link signs headers other than host';
    const credentials = typeof this.options.credentials === 'function' ? await this.options.credentials() : this.options.credentials;
    if (credential !== `${credentials.accessKeyId}/${date.slice(0, 8)}/${this.options.region}/s3/aws4_request`) return 'the link is not signed with these credentials';
    // Everything but what presign writes itself goes back into the request, as it came.
    const rest: Record<string, string | string[]> = {};
    const own = new Set(['x-amz-algorithm', 'x-amz-credential', 'x-amz-date', 'x-amz-expires', 'x-amz-signedheaders', 'x-amz-signature', 'x-amz-security-token']);
    for (const name of new Set(query.keys())) {
      if (own.has(name.toLowerCase())) continue;
      const values = query.getAll(name);
      rest[name] = values.length === 1 ? values[0] : values;
    }
    const again = await this.signer.presign(
      {
        method: 'GET',
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port ? Number(url.port) : undefined,
        path: url.pathname,
        query: rest,
        // A presigned request's payload is UNSIGNED-PAYLOAD, whether or not the link names it.
        headers: { host: url.host, 'x-amz-content-sha256': UNSIGNED_PAYLOAD },
      },
      {
        expiresIn: seconds,
        signingDate: signedAt,
        unsignableHeaders: new Set(['content-type', 'x-amz-content-sha256']),
        unhoistableHeaders: new Set(['x-amz-content-sha256']),
      },
    );
    const expected = Buffer.from(String(again.query?.['X-Amz-Signature'] ?? ''), 'utf8');
    const given = Buffer.from(signature, 'utf8');
    return expected.length === given.length && timingSafeEqual(expected, given) ? undefined : 'the signature does not match';
  }

  /** The object's URL: `<endpoint>/<bucket>/<prefix><key>` path-style, `<endpoint>/<prefix><key>` on the bucket's own endpoint. */
  urlOf(key: string): URL {
    const endpoint = new URL(typeof this.options.endpoint === 'function' ? this.options.endpoint() : this.options.endpoint);
    if (endpoint.pathname !== '/' || endpoint.search || endpoint.hash) throw new Error('an S3 endpoint is an origin, without a path');
    const bucket = this.options.bucket === undefined ? '' : `/${this.options.bucket}`;
    return new URL(`${endpoint.origin}${bucket}/${this.options.prefix ?? ''}${checkedBlobKey(key)}`);
  }

  private async signed(method: S3Request['method'], key: string, body?: Uint8Array, headers: Record<string, string> = {}, query: Record<string, string> = {}): Promise<S3Request> {
    const url = this.urlOf(key);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const signed = await this.signer.sign(
      {
        method,
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port ? Number(url.port) : undefined,
        path: url.pathname,
        query,
        headers: { ...headers, host: url.host, 'x-amz-content-sha256': createHash('sha256').update(body ?? new Uint8Array()).digest('hex') },
        body,
      },
      { signingDate: this.now() },
    );
    return { method, url, headers: signed.headers, body };
  }

  private async send(request: S3Request): Promise<S3Response> {
    try {
      return await this.transport(request);
    } catch (error) {
      // The network, a timeout: S3 could not be asked. Anything S3 answered is judged by its status.
      throw new StoreUnavailable(error);
    }
  }
}

/** Parts of a multipart upload: S3's minimum is 5 MiB (all but the last); 8 MiB keeps a 60 MB export to 8 requests. */
export const UPLOAD_PART_BYTES = 8 * 1024 * 1024;
const MIN_PART_BYTES = 5 * 1024 * 1024;

/** The text of the first `<name>` element of an S3 XML answer. */
function xmlText(body: Uint8Array, name: string): string | undefined {
  return new TextDecoder().decode(body.subarray(0, 64 * 1024)).match(new RegExp(`<${name}>([^<]{1,1024})</${name}>`))?.[1];
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** S3's answer as an error: throttling and S3's own failures are a 503 to retry; a refusal (403, 400) is a fault to log. */
function failure(method: string, response: S3Response): Error {
  const code = new TextDecoder().decode(response.body.subarray(0, 2048)).match(/<Code>([A-Za-z]{1,64})<\/Code>/)?.[1];
  const error = new Error(`S3 answered ${method} with ${response.status}${code ? ` ${code}` : ''}`);
  if (response.status >= 500 || response.status === 429 || code === 'SlowDown') return new StoreUnavailable(error);
  return error;
}

/** The SDK's query string: RFC 3986 escaping of names and values. */
function queryString(query: Record<string, string>): string {
  const escape = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return Object.entries(query)
    .map(([name, value]) => `${escape(name)}=${escape(value)}`)
    .join('&');
}

/** Requests with fetch, each given at most `timeoutMs`; never following a redirect. */
export function fetchTransport(timeoutMs = S3_REQUEST_TIMEOUT_MS): S3Transport {
  return async (request) => {
    const headers = { ...request.headers };
    // fetch sends the Host of the URL itself, the value that was signed.
    delete headers.host;
    const response = await fetch(request.url, { method: request.method, headers, body: request.body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    const body = request.method === 'HEAD' ? new Uint8Array() : new Uint8Array(await response.arrayBuffer());
    return { status: response.status, headers: Object.fromEntries(response.headers), body };
  };
}

type SourceData = string | ArrayBuffer | ArrayBufferView;

const bytesOf = (data: SourceData): Buffer =>
  typeof data === 'string' ? Buffer.from(data, 'utf8') : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);

/** SHA-256 (and HMAC-SHA-256 with a secret) from node:crypto, in the shape the signer asks for (exportJobStarter.ts signs with it too). */
export class NodeSha256 {
  private hash: Hash | Hmac;

  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }

  update(data: SourceData): void {
    this.hash.update(bytesOf(data));
  }

  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }

  reset(): void {
    this.hash = this.fresh();
  }

  private fresh(): Hash | Hmac {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(this.secret));
  }
}

/**
 * The export store of a deployed function, from the environment infra/exportStorage.ts
 * gives it; undefined when it has none (exports are then answered inline, as before).
 * The credentials are the function role's, from Lambda's environment; `transport` is how its
 * requests are sent (the function's observed one: functions/lambda/observedS3.ts).
 */
export function exportStoreFromEnvironment(env: NodeJS.ProcessEnv = process.env, transport?: S3Transport): S3BlobStore | undefined {
  const endpoint = env[EXPORT_ENVIRONMENT.endpoint];
  if (!endpoint) return undefined;
  const region = env[EXPORT_ENVIRONMENT.region] ?? env.AWS_REGION;
  if (!region) throw new Error(`${EXPORT_ENVIRONMENT.region} is not set`);
  return new S3BlobStore({ endpoint, region, prefix: env[EXPORT_ENVIRONMENT.prefix] ?? EXPORT_PREFIX, credentials: fromEnv(), ...(transport ? { transport } : {}) });
}
