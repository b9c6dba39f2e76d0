import { afterAll, beforeAll, expect } from 'vitest';
import { startLocalService, type LocalService } from '../../functions/local/localService';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** A client for the local server that keeps every response, to search them for secrets. */
export class TestClient {
  readonly transcript: string[] = [];
  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, options: { token?: string; body?: unknown; raw?: string | Uint8Array; headers?: Record<string, string> } = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Uint8Array | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    this.transcript.push(`${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${text}`);
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  }

  get(path: string, token?: string, headers?: Record<string, string>) {
    return this.request('GET', path, { token, headers });
  }

  post(path: string, body: unknown, token?: string, headers?: Record<string, string>) {
    return this.request('POST', path, { token, body, headers });
  }

  /**
   * GET a tournament export as a client does (docs/tournaments.md "Exporting a round"): 202 while
   * its job runs (asked again at its Location, bounded: 400 looks, 25 ms apart, not the
   * Retry-After a person's client waits), then the 303 followed to the file. Any other answer
   * is returned as it came.
   */
  async exported(path: string, token?: string): Promise<Reply> {
    let reply = await this.get(path, token);
    for (let look = 0; reply.status === 202 && look < 400; look++) {
      expect(reply.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      await new Promise((resolve) => setTimeout(resolve, 25));
      reply = await this.get(reply.headers.get('location')!, token);
    }
    return reply;
  }

  async createGame(body: unknown = { ruleset: 'dice', title: 'test game' }) {
    const reply = await this.post('/games', body);
    if (reply.status !== 201) throw new Error(`create failed: ${reply.status} ${reply.text}`);
    return reply.body as { gameId: string; commitment: string; sides: string[]; tokens: { organizer: string; players: Record<string, string> } };
  }

  command(gameId: string, token: string, command: Record<string, unknown>, headers?: Record<string, string>) {
    return this.post(`/games/${gameId}/commands`, command, token, headers);
  }
}

export async function startTestServer(): Promise<{ local: LocalService; client: TestClient }> {
  const local = await startLocalService({ observer: { unexpected: (error) => console.error(`unexpected in test server: ${error.stack}`) } });
  return { local, client: new TestClient(local.url) };
}

/** Starts a server (in-memory dynalite) for the enclosing test file, and stops it after. */
export function useTestServer(): { local: LocalService; client: TestClient } {
  const context = {} as { local: LocalService; client: TestClient };
  beforeAll(async () => {
    Object.assign(context, await startTestServer());
  });
  afterAll(async () => {
    await context.local?.close();
  });
  return context;
}

/**
 * Sends each case to /rulesets/{id}/evaluate (20 at a time) and checks the answer against
 * an independent oracle: a refusal must be a 422, anything else the oracle's result.
 * Returns how many results were compared.
 */
export async function agreesOverHttp<C extends { input: unknown; dice: number[] }>(
  client: TestClient,
  ruleset: string,
  procedure: string,
  cases: readonly C[],
  oracle: (c: C) => { refused?: unknown } & Record<string, unknown>,
  expectEqual: (actual: unknown, expected: unknown, label: string) => void,
): Promise<number> {
  let compared = 0;
  for (let i = 0; i < cases.length; i += 20) {
    const batch = cases.slice(i, i + 20);
    const replies = await Promise.all(batch.map((c) => client.post(`/rulesets/${ruleset}/evaluate`, { procedure, input: c.input, dice: c.dice })));
    replies.forEach((reply, j) => {
      const expected = oracle(batch[j]);
      if (expected.refused) {
        expectEqual(reply.status, 422, reply.text);
        return;
      }
      expectEqual(reply.status, 200, reply.text);
      expectEqual(reply.body.result, expected, JSON.stringify(batch[j].input));
      compared += 1;
    });
  }
  return compared;
}
