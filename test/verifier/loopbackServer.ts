import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  status: number;
  body: string;
  /** application/json unless said. */
  contentType?: string;
}

/** A server on 127.0.0.1 answering each GET from `answer`; it records the requests it saw. */
export async function loopbackServer(answer: (request: IncomingMessage) => Reply) {
  const seen: { path: string; authorization?: string }[] = [];
  const server = createServer((request, response) => {
    seen.push({ path: request.url ?? '', authorization: request.headers.authorization });
    const { status, body, contentType } = answer(request);
    response.writeHead(status, { 'content-type': contentType ?? 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
