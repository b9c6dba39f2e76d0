// The bench's load client, in its own process (as every real client is): it sends the
// requests it is given over IPC and answers with their rate and latencies. Loopback only.
// node:http with keep-alive, one socket per request in flight: a light client, so that what
// is measured is the server, not the client's own work.
import { Agent, request as httpRequest } from 'node:http';
import { load } from './measure';

export interface LoadRequest {
  /** Each request goes to targets[i % targets.length]. */
  targets: { url: string; headers?: Record<string, string> }[];
  method: 'GET' | 'POST';
  /** The body, with every `{i}` replaced by the request's index. */
  body?: string;
  expect: number;
  total: number;
  concurrency: number;
}

function send(agent: Agent, url: URL, method: string, headers: Record<string, string> | undefined, body: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(body);
    const req = httpRequest(
      { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers: { ...headers, ...(payload ? { 'content-length': String(payload.length) } : {}) } },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

process.on('message', async (message: { id: number; request: LoadRequest }) => {
  const { id, request } = message;
  const agent = new Agent({ keepAlive: true, maxSockets: request.concurrency });
  try {
    const { targets, method, body, expect } = request;
    const urls = targets.map((t) => new URL(t.url));
    const result = await load(request.total, request.concurrency, async (i) => {
      const target = targets[i % targets.length];
      const status = await send(agent, urls[i % urls.length], method, target.headers, body?.replaceAll('{i}', String(i)));
      if (status !== expect) throw new Error(`${method} ${urls[i % urls.length].pathname} answered ${status}, not ${expect}`);
    });
    process.send!({ id, result });
  } catch (error) {
    process.send!({ id, error: String(error) });
  } finally {
    agent.destroy();
  }
});
process.on('disconnect', () => process.exit(0));
