import { PassThrough, Writable } from 'node:stream';
import type { S3Response, S3Transport } from '../store/s3BlobStore';
import { S3_REQUEST_TIMEOUT_MS } from '../store/s3BlobStore';

/** The request listener of a node:http server (a Koa app's `callback()`), called here without any socket. */
export type RequestListener = (req: unknown, res: unknown) => void;

/**
 * An S3 transport that hands each request to a request listener in this process (the
 * embedded s3rver, a Koa app): no port, no socket, so no other process can reach the
 * exports it keeps. Like inProcessHandler.ts for dynalite, with enough of node:http's
 * response for Koa, which pipes streamed bodies into it.
 */
export function inProcessTransport(listener: RequestListener, timeoutMs = S3_REQUEST_TIMEOUT_MS): S3Transport {
  return (request) => {
    const headers: Record<string, string> = Object.create(null);
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
    return call(listener, { method: request.method, url: `${request.url.pathname}${request.url.search}`, headers, body: request.body }, timeoutMs);
  };
}

export interface InProcessRequest {
  method: string;
  /** Path and query, as on a request line. */
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

/** One request through the listener, its whole answer collected; a listener that never ends its answer fails after `timeoutMs`. */
export function call(listener: RequestListener, request: InProcessRequest, timeoutMs = S3_REQUEST_TIMEOUT_MS): Promise<S3Response> {
  return new Promise((resolve, reject) => {
    const socket = { remoteAddress: '127.0.0.1', encrypted: false };
    const req = Object.assign(new PassThrough(), {
      method: request.method,
      url: request.url,
      headers: request.headers,
      httpVersion: '1.1',
      httpVersionMajor: 1,
      httpVersionMinor: 1,
      socket,
      connection: socket,
    });
    const timer = setTimeout(() => reject(new Error(`no answer in process after ${timeoutMs} ms`)), timeoutMs);
    const res = new CollectedResponse((response) => {
      clearTimeout(timer);
      resolve(response);
    });
    res.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    listener(req, res);
    req.end(request.body === undefined ? undefined : Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength));
  });
}

/** node:http's ServerResponse as far as Koa and s3rver use it: status, headers, write, end, pipe into. */
class CollectedResponse extends Writable {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  private readonly fields = new Map<string, string | string[]>();
  private readonly chunks: Buffer[] = [];

  constructor(done: (response: S3Response) => void) {
    super();
    this.once('finish', () => {
      const headers: Record<string, string> = Object.create(null);
      for (const [name, value] of this.fields) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      done({ status: this.statusCode, headers, body: Buffer.concat(this.chunks) });
    });
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.fields.set(name.toLowerCase(), Array.isArray(value) ? [...value] : String(value));
    return this;
  }

  getHeader(name: string): string | string[] | undefined {
    return this.fields.get(name.toLowerCase());
  }

  getHeaders(): Record<string, string | string[]> {
    return Object.fromEntries(this.fields);
  }

  getHeaderNames(): string[] {
    return [...this.fields.keys()];
  }

  hasHeader(name: string): boolean {
    return this.fields.has(name.toLowerCase());
  }

  removeHeader(name: string): void {
    this.fields.delete(name.toLowerCase());
  }

  writeHead(statusCode: number, ...rest: unknown[]): this {
    this.statusCode = statusCode;
    const headers = rest.find((r): r is Record<string, string> => typeof r === 'object' && r !== null);
    for (const [name, value] of Object.entries(headers ?? {})) this.setHeader(name, value);
    this.headersSent = true;
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.headersSent = true;
    this.chunks.push(Buffer.from(chunk));
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.headersSent = true;
    callback();
  }
}
