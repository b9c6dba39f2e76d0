import { PassThrough } from 'node:stream';

/** The request listener of a node:http server, called here without any socket. */
export type RequestListener = (req: unknown, res: unknown) => void;

interface SdkHttpRequest {
  method: string;
  path: string;
  query?: Record<string, string | string[] | null>;
  headers: Record<string, string>;
  body?: unknown;
}

interface SdkHttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/**
 * An AWS SDK request handler that hands each request to a node:http request listener
 * in this process (dynalite's): the local store answers function calls, not a port, so
 * no other process can reach it.
 */
export class InProcessRequestHandler {
  readonly metadata = { handlerProtocol: 'in-process' };
  private closed = false;

  constructor(private readonly listener: RequestListener) {}

  handle(request: SdkHttpRequest, options: { abortSignal?: AbortSignal } = {}): Promise<{ response: SdkHttpResponse }> {
    if (this.closed) return Promise.reject(Object.assign(new Error('the embedded store is closed'), { code: 'ECONNREFUSED' }));
    return new Promise((resolve, reject) => {
      if (options.abortSignal?.aborted) return reject(Object.assign(new Error('Request aborted'), { name: 'AbortError' }));
      const req = Object.assign(new PassThrough(), {
        method: request.method,
        url: request.path + queryString(request.query),
        headers: lowerCaseHeaders(request.headers),
      });
      const res = new CollectedResponse((response) => resolve({ response }));
      this.listener(req, res);
      req.end(bodyBytes(request.body));
    });
  }

  updateHttpClientConfig(): void {}

  httpHandlerConfigs(): Record<string, never> {
    return {};
  }

  destroy(): void {
    this.closed = true;
  }
}

/** Just enough of node:http's ServerResponse for a listener that sets headers and ends once. */
class CollectedResponse {
  statusCode = 200;
  contentType?: string;
  private readonly headers = new Map<string, string>();

  constructor(private readonly done: (response: SdkHttpResponse) => void) {}

  setHeader(name: string, value: unknown): void {
    this.headers.set(name.toLowerCase(), String(value));
  }

  getHeader(name: string): string | undefined {
    return this.headers.get(name.toLowerCase());
  }

  end(body?: string | Uint8Array): void {
    const bytes = body === undefined ? new Uint8Array() : typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    this.done({ statusCode: this.statusCode, headers: Object.fromEntries(this.headers), body: bytes });
  }
}

function lowerCaseHeaders(headers: Record<string, string>): Record<string, string> {
  const lower: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
  return lower;
}

function queryString(query: SdkHttpRequest['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(name, v ?? '');
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function bodyBytes(body: unknown): Buffer {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new Error('the embedded store takes string or byte bodies only');
}
