import { WebSocket } from 'ws';

/** A message the server pushed, parsed (the raw text is kept too, to search it for secrets). */
export type Pushed = Record<string, any> & { type: string };

/**
 * A real WebSocket client of the push channel (docs/push.md), as a program would use it:
 * every message kept in order, awaited by predicate with a deadline.
 */
export class PushClient {
  readonly messages: Pushed[] = [];
  readonly texts: string[] = [];
  closed?: { code: number; reason: string };
  private waiters = new Set<() => void>();

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data, binary) => {
      const text = binary ? '<binary>' : data.toString();
      this.texts.push(text);
      this.messages.push(JSON.parse(text));
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    socket.on('error', () => {});
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<PushClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers, perMessageDeflate: false });
      const client = new PushClient(socket);
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`refused: ${res.statusCode}`), { status: res.statusCode })));
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  subscribe(gameId: string, token: string | undefined, after = 0): void {
    this.send({ action: 'subscribe', gameId, ...(token === undefined ? {} : { token }), after });
  }

  /** The first message from `from` on that matches, waiting up to `ms`. */
  async next(match: (m: Pushed) => boolean, ms = 3000, from = 0): Promise<Pushed> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.messages.slice(from).find(match);
      if (found) return found;
      if (this.closed) throw new Error(`closed (${this.closed.code} ${this.closed.reason}) before a match; got ${JSON.stringify(this.messages.slice(from))}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message in ${ms} ms; got ${JSON.stringify(this.messages.slice(from))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        const waiters = this.waiters;
        function done() {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        }
        waiters.add(done);
      });
    }
  }

  commits(gameId?: string): number[] {
    return this.messages.filter((m) => m.type === 'commit' && (gameId === undefined || m.gameId === gameId)).map((m) => m.commit.seq);
  }

  async untilClosed(ms = 3000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + ms;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('still open');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.closed;
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }

  private wake() {
    for (const wake of [...this.waiters]) wake();
  }
}

export const pushUrl = (baseUrl: string) => `${baseUrl.replace(/^http/, 'ws')}/push`;
