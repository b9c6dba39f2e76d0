// The bench's load client, in its own process (as every real client is): it sends the
// requests it is given over IPC and answers with their rate and latencies. Loopback only.
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

process.on('message', async (message: { id: number; request: LoadRequest }) => {
  const { id, request } = message;
  try {
    const { targets, method, body, expect } = request;
    const result = await load(request.total, request.concurrency, async (i) => {
      const target = targets[i % targets.length];
      const res = await fetch(target.url, { method, headers: target.headers, body: body?.replaceAll('{i}', String(i)) });
      if (res.status !== expect) throw new Error(`${method} ${new URL(target.url).pathname} answered ${res.status}, not ${expect}`);
      await res.arrayBuffer();
    });
    process.send!({ id, result });
  } catch (error) {
    process.send!({ id, error: String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
