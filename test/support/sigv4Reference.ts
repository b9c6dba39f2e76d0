import { createHash, createHmac } from 'node:crypto';

/**
 * Signature Version 4 written from AWS's description of it, independently of the SDK's
 * signer (which the adapter uses): the tests check the SDK's own requests and links with it
 * first, then ours. S3 flavour: the path is signed as sent (no second escaping).
 */
const escape = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

export interface Canonical {
  method: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  signedHeaders: string[];
  payloadHash: string;
  date: string;
  scope: string;
}

export function signatureOf(request: Canonical, secret: string): string {
  const query = request.query
    .map(([name, value]) => [escape(name), escape(value)])
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headers = request.signedHeaders.map((name) => `${name}:${(request.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonical = [request.method, request.path, query, headers, request.signedHeaders.join(';'), request.payloadHash].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', request.date, request.scope, sha256(canonical)].join('\n');
  const [day, region, service] = request.scope.split('/');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
  return createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
}

/** A presigned GET: true when its X-Amz-Signature is the one `secret` gives. */
export function presignedLinkHolds(link: string, secret: string): boolean {
  const url = new URL(link);
  const query = [...url.searchParams].filter(([name]) => name !== 'X-Amz-Signature');
  const credential = url.searchParams.get('X-Amz-Credential') ?? '';
  const signature = signatureOf(
    {
      method: 'GET',
      path: url.pathname,
      query,
      headers: { host: url.host },
      signedHeaders: (url.searchParams.get('X-Amz-SignedHeaders') ?? '').split(';'),
      payloadHash: 'UNSIGNED-PAYLOAD',
      date: url.searchParams.get('X-Amz-Date') ?? '',
      scope: credential.slice(credential.indexOf('/') + 1),
    },
    secret,
  );
  return signature === url.searchParams.get('X-Amz-Signature');
}

/** A request signed in its Authorization header: true when the signature is the one `secret` gives. */
export function signedRequestHolds(request: { method: string; url: URL; headers: Record<string, string> }, secret: string): boolean {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  headers.host ??= request.url.host;
  const match = /^AWS4-HMAC-SHA256 Credential=[^/]+\/([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(headers.authorization ?? '');
  if (!match) return false;
  const signature = signatureOf(
    {
      method: request.method,
      path: request.url.pathname,
      query: [...request.url.searchParams],
      headers,
      signedHeaders: match[2].split(';'),
      payloadHash: headers['x-amz-content-sha256'] ?? sha256(''),
      date: headers['x-amz-date'] ?? '',
      scope: match[1],
    },
    secret,
  );
  return signature === match[3];
}
