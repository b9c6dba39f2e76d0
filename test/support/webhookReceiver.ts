import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback HTTP server that records each POST and answers as `answer` says (200 by default). */
export async function startReceiver(answer?: (request: Received, response: ServerResponse) => void | 'hold') {
  const received: Received[] = [];
  const held = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = { path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      if (answer?.(entry, response) === 'hold') held.add(response);
      else if (!response.headersSent) response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The Standard Webhooks check a receiver makes (HMAC-SHA256 of `id.timestamp.body`, keyed by the base64 after whsec_), written apart from the signer. */
export function signatureValid(secret: string, request: Received): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signed = `${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.body}`;
  return String(request.headers['webhook-signature']).split(' ').includes(`v1,${createHmac('sha256', key).update(signed).digest('base64')}`);
}
