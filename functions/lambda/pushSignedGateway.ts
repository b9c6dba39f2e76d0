import { createHash, createHmac } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Gateway, PostOutcome } from '../push/gateway';

/** A post that takes longer is failed (the client is dropped and catches up); one retry after a throttle, a 5xx or a network fault. */
const TIMEOUT_MS = 1000;
const ATTEMPTS = 2;

const strict = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

interface Answer {
  status: number;
}

/**
 * The WebSocket stage's management API (PostToConnection, DeleteConnection) as plain SigV4-signed
 * HTTPS requests over kept-alive sockets, with the function's credentials from its environment.
 * The SDK client does the same with far more CPU per call (the issue measured 1.9–3.1 ms per
 * PostToConnection): the fan-out posts thousands a second, so this is what one post costs.
 */
export function signedGateway(callbackUrl: string, region = process.env.AWS_REGION ?? 'us-east-1'): Gateway {
  const base = new URL(callbackUrl);
  const https = base.protocol === 'https:';
  const agent = https ? new HttpsAgent({ keepAlive: true, maxSockets: 64 }) : new HttpAgent({ keepAlive: true, maxSockets: 64 });
  const prefix = base.pathname.split('/').filter(Boolean);
  let signingKey: { day: string; secret: string; key: Buffer } | undefined;

  const keyFor = (day: string, secret: string) => {
    if (signingKey?.day !== day || signingKey.secret !== secret) {
      const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), 'execute-api'), 'aws4_request');
      signingKey = { day, secret, key };
    }
    return signingKey.key;
  };

  const send = (method: 'POST' | 'DELETE', connectionId: string, body: Buffer): Promise<Answer> => {
    // As the SDK sends it (`@connections` as is, the id escaped); signed with each segment escaped once more, as SigV4 asks of every service but S3.
    const segments = [...prefix.map(strict), '@connections', strict(connectionId)];
    const path = `/${segments.join('/')}`;
    const canonicalPath = `/${segments.map(strict).join('/')}`;
    const amzDate = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    const day = amzDate.slice(0, 8);
    const token = process.env.AWS_SESSION_TOKEN;
    const headers: Record<string, string> = { host: base.host, 'x-amz-date': amzDate, ...(token ? { 'x-amz-security-token': token } : {}) };
    const signed = Object.keys(headers).sort();
    const canonical = [method, canonicalPath, '', signed.map((h) => `${h}:${headers[h]}\n`).join(''), signed.join(';'), sha256(body)].join('\n');
    const scope = `${day}/${region}/execute-api/aws4_request`;
    const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
    const signature = createHmac('sha256', keyFor(day, process.env.AWS_SECRET_ACCESS_KEY ?? '')).update(toSign, 'utf8').digest('hex');
    headers.authorization = `AWS4-HMAC-SHA256 Credential=${process.env.AWS_ACCESS_KEY_ID ?? ''}/${scope}, SignedHeaders=${signed.join(';')}, Signature=${signature}`;
    if (body.length) headers['content-length'] = String(body.length);
    return new Promise<Answer>((resolve, reject) => {
      const req = (https ? httpsRequest : httpRequest)({ protocol: base.protocol, hostname: base.hostname, port: base.port || undefined, method, path, headers, agent, timeout: TIMEOUT_MS }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end(body);
    });
  };

  const attempt = async (method: 'POST' | 'DELETE', connectionId: string, body: Buffer): Promise<number> => {
    let status = 0;
    for (let i = 0; i < ATTEMPTS; i++) {
      try {
        status = (await send(method, connectionId, body)).status;
      } catch {
        status = 0;
      }
      if (status !== 0 && status !== 429 && status < 500) return status;
    }
    return status;
  };

  return {
    async post(connectionId, text): Promise<PostOutcome> {
      const status = await attempt('POST', connectionId, Buffer.from(text, 'utf8'));
      if (status >= 200 && status < 300) return 'sent';
      return status === 410 ? 'gone' : 'failed';
    },
    async drop(connectionId) {
      // Already gone, or the gateway closes it at its idle time anyway.
      await attempt('DELETE', connectionId, Buffer.alloc(0));
    },
  };
}
