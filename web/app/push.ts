// The push channel of a timeline (docs/push.md): one WebSocket, one subscription, the
// token sent in the subscribe message (never in the URL). The caller falls back to
// long-poll whenever this ends.
import type { Commit } from './commitRow';

/** Under API Gateway's 10-minute idle limit, with room to spare. */
const PING_MS = 4 * 60_000;
/** A socket that has not said `subscribed` by then is given up for long-poll. */
const SUBSCRIBE_TIMEOUT_MS = 10_000;

export interface PushHandlers {
  /** The subscription holds: new commits will follow. */
  subscribed(version: number): void;
  /** A commit, with its chat-log line; called one at a time, each after the previous resolved. */
  commit(commit: Commit, line: string): Promise<void>;
  /** Commits after `after` up to `version` were not pushed: read them over HTTP. */
  gap(after: number, version: number): Promise<void>;
}

/** How a session ended: `refused` when the server said no to this game (its code), else the socket closed or never opened. */
export type PushEnd = { kind: 'unavailable' } | { kind: 'closed'; subscribed: boolean } | { kind: 'refused'; code: string };

/**
 * Where the push socket is: a page served with `<meta name="arbiter-push" content="wss://…">`
 * (the AWS stack's WebSocket API), else /push on this origin (the local server).
 */
export function pushUrl(): string | undefined {
  if (typeof WebSocket !== 'function') return undefined;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="arbiter-push"]')?.content;
  if (meta !== undefined) return /^wss?:\/\//.test(meta) ? meta : undefined;
  const url = new URL('/push', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/**
 * Subscribes to the game from `after` and hands each message on, in order. Resolves when
 * the socket closes, fails, or the server refuses the subscription; `signal` closes it.
 */
export function followByPush(url: string, gameId: string, token: string, after: number, handlers: PushHandlers, signal: AbortSignal): Promise<PushEnd> {
  return new Promise((resolve) => {
    let socket: WebSocket;
    try {
      socket = new WebSocket(url);
    } catch {
      return resolve({ kind: 'unavailable' });
    }
    let opened = false;
    let subscribed = false;
    let ended = false;
    let chain = Promise.resolve();
    const finish = (end: PushEnd) => {
      if (ended) return;
      ended = true;
      clearInterval(ping);
      clearTimeout(giveUp);
      signal.removeEventListener('abort', abort);
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close(1000);
      resolve(end);
    };
    const abort = () => finish({ kind: 'closed', subscribed });
    signal.addEventListener('abort', abort);
    const ping = setInterval(() => socket.readyState === WebSocket.OPEN && socket.send('{"action":"ping"}'), PING_MS);
    const giveUp = setTimeout(() => !subscribed && finish({ kind: 'unavailable' }), SUBSCRIBE_TIMEOUT_MS);

    socket.addEventListener('open', () => {
      opened = true;
      socket.send(JSON.stringify({ action: 'subscribe', gameId, token, after }));
    });
    socket.addEventListener('error', () => finish(opened ? { kind: 'closed', subscribed } : { kind: 'unavailable' }));
    socket.addEventListener('close', () => {
      // Messages already received are handled before the caller takes over.
      void chain.then(() => finish(opened ? { kind: 'closed', subscribed } : { kind: 'unavailable' }));
    });
    socket.addEventListener('message', (event) => {
      chain = chain
        .then(async () => {
          if (ended) return;
          const message = JSON.parse(String(event.data)) as Record<string, unknown>;
          if (message.type === 'subscribed' && message.gameId === gameId) {
            subscribed = true;
            handlers.subscribed(Number(message.version));
          } else if (message.type === 'commit' && message.gameId === gameId) {
            await handlers.commit(message.commit as Commit, String(message.line ?? ''));
          } else if (message.type === 'gap' && message.gameId === gameId) {
            await handlers.gap(Number(message.after), Number(message.version));
          } else if (message.type === 'error' && message.gameId === gameId) {
            finish({ kind: 'refused', code: String(message.code) });
          }
        })
        // Anything this page cannot handle ends push; long-poll reads what was missed.
        .catch(() => finish({ kind: 'closed', subscribed }));
    });
  });
}
