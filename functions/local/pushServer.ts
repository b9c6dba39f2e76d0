import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Commit } from '../../domain/fairness/hashChain';
import type { GameService } from '../application/gameService';
import type { EventStore } from '../store/eventStore';
import { commitText, deliveryFor, endedByViewerRevocation, type Identity } from '../push/delivery';
import { originAllowed } from '../push/origin';
import { encode, MAX_TRANSPORT_BYTES, parseClientMessage, PUSH_LIMITS, PUSH_PATH, pushError, type PushLimits, type ServerMessage, type SubscribeRequest } from '../push/protocol';
import { openSubscription, pushErrorOf } from '../push/subscribe';

export interface PushHub {
  /** Closes every push connection and takes no more (upgrades are answered 503). */
  close(): Promise<void>;
  /** What the hub holds now: for tests that look for leaks. */
  stats(): { connections: number; subscriptions: number; games: number };
}

export interface PushServerOptions {
  server: Server;
  service: GameService;
  /** Spectator links are told apart by their records (subscribe.ts). */
  viewers: Pick<EventStore, 'readViewers'>;
  /** Told of each spectator link revoked through the service, to end the subscriptions made with it. */
  viewerRevocations?: ViewerRevocations;
  /** Origins whose pages may connect besides the server's own (CORS's list; `*` for any). */
  allowedOrigins?: readonly string[];
  limits?: Partial<PushLimits>;
}

interface Subscription {
  gameId: string;
  connection: Connection;
  identity: Identity;
  rulesetId: string;
  after: number;
  authorizedAt: number;
  /** False while its catch-up is read: new commits wait in `pending`. */
  ready: boolean;
  pending: Commit[];
  /** The highest seq seen while pending was full: the client is sent a gap up to it. */
  overflowTo: number;
}

interface Connection {
  socket: WebSocket;
  subscriptions: Map<string, Subscription>;
  chain: Promise<void>;
  queued: number;
  idle?: NodeJS.Timeout;
  lifetime?: NodeJS.Timeout;
}

/**
 * Pushes new commits to WebSocket clients of the local server, on its own port, at
 * PUSH_PATH (docs/push.md). One listener on GameService.onCommit feeds every subscription
 * through an index by game; a closed connection leaves nothing behind.
 */
export function attachPush(options: PushServerOptions): PushHub {
  const limits: PushLimits = { ...PUSH_LIMITS, ...options.limits };
  const { server, service, viewers } = options;
  const allowed = options.allowedOrigins ?? [];
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_TRANSPORT_BYTES, perMessageDeflate: false, clientTracking: false });
  const connections = new Set<Connection>();
  const byGame = new Map<string, Set<Subscription>>();
  let closed = false;

  const send = (connection: Connection, text: string): boolean => {
    const { socket } = connection;
    if (socket.readyState !== WebSocket.OPEN) return false;
    // A client that does not read is dropped, never buffered for without end; it reconnects and catches up.
    if (socket.bufferedAmount + Buffer.byteLength(text, 'utf8') > limits.maxBufferedBytes) {
      socket.terminate();
      return false;
    }
    socket.send(text);
    return true;
  };
  const sendMessage = (connection: Connection, message: ServerMessage) => send(connection, encode(message));

  const remove = (subscription: Subscription) => {
    const { connection, gameId } = subscription;
    if (connection.subscriptions.get(gameId) === subscription) connection.subscriptions.delete(gameId);
    const set = byGame.get(gameId);
    if (!set) return;
    set.delete(subscription);
    if (set.size === 0) byGame.delete(gameId);
  };

  const deliver = (subscription: Subscription, commit: Commit, text: string) => {
    const delivery = deliveryFor(subscription, commit, text);
    if (delivery.kind === 'skip') return;
    if (delivery.kind === 'end') {
      remove(subscription);
      send(subscription.connection, delivery.text);
      return;
    }
    // The local server stores commits one at a time, in order: a hole here would be a bug, told as a gap rather than hidden.
    if (commit.seq > subscription.after + 1) {
      sendMessage(subscription.connection, { type: 'gap', gameId: commit.gameId, after: subscription.after, version: commit.seq - 1 });
    }
    subscription.after = commit.seq;
    send(subscription.connection, delivery.text);
  };

  const unlisten = service.onCommit((commit) => {
    const subscriptions = byGame.get(commit.gameId);
    if (!subscriptions) return;
    const texts = new Map<string, string>();
    for (const subscription of [...subscriptions]) {
      if (!subscription.ready) {
        if (subscription.pending.length < limits.maxPendingCommits) subscription.pending.push(commit);
        else subscription.overflowTo = Math.max(subscription.overflowTo, commit.seq);
        continue;
      }
      let text = texts.get(subscription.rulesetId);
      if (text === undefined) texts.set(subscription.rulesetId, (text = commitText(subscription.rulesetId, commit, limits)));
      deliver(subscription, commit, text);
    }
  });

  const unlistenViewers = options.viewerRevocations?.listen((gameId, viewerId) => {
    for (const subscription of [...(byGame.get(gameId) ?? [])]) {
      if (!endedByViewerRevocation(subscription.identity, viewerId)) continue;
      remove(subscription);
      sendMessage(subscription.connection, pushError('unauthenticated', 'This spectator link was revoked: it no longer reads this game.', gameId));
    }
  });

  const subscribe = async (connection: Connection, request: SubscribeRequest) => {
    const { gameId } = request;
    const previous = connection.subscriptions.get(gameId);
    // Subscribing again to a game (say, after a gap) replaces the subscription.
    if (previous) remove(previous);
    if (connection.subscriptions.size >= limits.maxSubscriptionsPerConnection) {
      return sendMessage(connection, pushError('too_many_subscriptions', `A connection follows at most ${limits.maxSubscriptionsPerConnection} games: unsubscribe from one first.`, gameId));
    }
    if ((byGame.get(gameId)?.size ?? 0) >= limits.maxSubscribersPerGame) {
      return sendMessage(connection, pushError('too_many_subscribers', 'This game has as many live followers as the server takes: follow it with GET /games/{id}/events?wait=… instead.', gameId));
    }
    // Registered before the catch-up is read: a commit stored meanwhile waits in pending, never falls between.
    const subscription: Subscription = { gameId, connection, identity: 'public', rulesetId: '', after: request.after, authorizedAt: request.after, ready: false, pending: [], overflowTo: 0 };
    connection.subscriptions.set(gameId, subscription);
    let set = byGame.get(gameId);
    if (!set) byGame.set(gameId, (set = new Set()));
    set.add(subscription);
    let opened;
    try {
      opened = await openSubscription(service, viewers, request, limits);
    } catch (error) {
      remove(subscription);
      return sendMessage(connection, pushErrorOf(error, gameId));
    }
    if (connection.subscriptions.get(gameId) !== subscription) return; // closed meanwhile
    Object.assign(subscription, { identity: opened.identity, rulesetId: opened.rulesetId, authorizedAt: opened.version });
    sendMessage(connection, { type: 'subscribed', gameId, version: opened.version, after: request.after });
    // Catch-up commits are at most the version the token was just checked at: no revocation among them ends it.
    for (const commit of opened.commits) deliver(subscription, commit, commitText(opened.rulesetId, commit, limits));
    const pending = subscription.pending.sort((a, b) => a.seq - b.seq);
    subscription.pending = [];
    subscription.ready = true;
    for (const commit of pending) {
      if (connection.subscriptions.get(gameId) !== subscription) return;
      deliver(subscription, commit, commitText(subscription.rulesetId, commit, limits));
    }
    if (subscription.overflowTo > subscription.after && connection.subscriptions.get(gameId) === subscription) {
      sendMessage(connection, { type: 'gap', gameId, after: subscription.after, version: subscription.overflowTo });
      subscription.after = subscription.overflowTo;
    }
  };

  const handle = async (connection: Connection, data: RawData, binary: boolean) => {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
    const parsed = parseClientMessage(bytes, binary, limits);
    if (!parsed.ok) return void sendMessage(connection, parsed.error);
    const { message } = parsed;
    if (message.action === 'ping') return void sendMessage(connection, { type: 'pong' });
    if (message.action === 'unsubscribe') {
      const subscription = connection.subscriptions.get(message.gameId);
      if (subscription) remove(subscription);
      return void sendMessage(connection, { type: 'unsubscribed', gameId: message.gameId.slice(0, 128) });
    }
    await subscribe(connection, message);
  };

  const resetIdle = (connection: Connection) => {
    clearTimeout(connection.idle);
    connection.idle = setTimeout(() => connection.socket.close(1001, 'idle: no message for too long'), limits.idleMs);
    connection.idle.unref();
  };

  const accept = (socket: WebSocket) => {
    const connection: Connection = { socket, subscriptions: new Map(), chain: Promise.resolve(), queued: 0 };
    connections.add(connection);
    resetIdle(connection);
    connection.lifetime = setTimeout(() => socket.close(1001, 'connection lifetime reached: reconnect'), limits.maxConnectionMs);
    connection.lifetime.unref();
    // ws reports a frame over maxPayload, or a broken frame, here, then closes (1009, 1002): never thrown.
    socket.on('error', () => {});
    socket.on('message', (data, binary) => {
      resetIdle(connection);
      if (connection.queued >= limits.maxQueuedMessages) {
        sendMessage(connection, pushError('rate_limited', `At most ${limits.maxQueuedMessages} messages wait for an answer: wait for the answers before sending more.`));
        return;
      }
      connection.queued++;
      connection.chain = connection.chain
        .then(() => handle(connection, data, binary))
        .catch(() => void sendMessage(connection, pushError('internal_error', 'Something went wrong on our side.')))
        .finally(() => connection.queued--);
    });
    socket.on('close', () => {
      clearTimeout(connection.idle);
      clearTimeout(connection.lifetime);
      for (const subscription of [...connection.subscriptions.values()]) remove(subscription);
      connections.delete(connection);
    });
  };

  const refuse = (socket: Duplex, status: number, reason: string, message: string) => {
    const body = JSON.stringify({ error: { code: status === 400 ? 'invalid_request' : status === 403 ? 'forbidden' : 'unavailable', message } });
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    // A peer that keeps its side open after the refusal is cut.
    setTimeout(() => socket.destroy(), 1000).unref();
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const rawUrl = req.url ?? '/';
    const path = rawUrl.includes('?') ? rawUrl.slice(0, rawUrl.indexOf('?')) : rawUrl;
    // Node hands every request with an Upgrade header here once push listens: only WebSocket at PUSH_PATH is taken.
    if (path !== PUSH_PATH || req.headers.upgrade?.toLowerCase() !== 'websocket') {
      return refuse(socket, 400, 'Bad Request', `This server upgrades only to WebSocket, at ${PUSH_PATH}: send other requests without an Upgrade header.`);
    }
    if (closed) return refuse(socket, 503, 'Service Unavailable', 'Push is closed on this server: follow games with GET /games/{id}/events?wait=….');
    if (!originAllowed(req.headers.origin, req.headers.host, allowed)) return refuse(socket, 403, 'Forbidden', 'Pages of this origin may not connect.');
    if (connections.size >= limits.maxConnections) return refuse(socket, 503, 'Service Unavailable', 'The server holds as many push connections as it takes: poll instead.');
    wss.handleUpgrade(req, socket, head, accept);
  };
  server.on('upgrade', onUpgrade);

  return {
    stats: () => ({ connections: connections.size, subscriptions: [...connections].reduce((n, c) => n + c.subscriptions.size, 0), games: byGame.size }),
    async close() {
      if (closed) return;
      closed = true;
      unlisten();
      unlistenViewers?.();
      const closing = [...connections].map(
        (connection) =>
          new Promise<void>((resolve) => {
            if (connection.socket.readyState === WebSocket.CLOSED) return resolve();
            connection.socket.once('close', () => resolve());
            connection.socket.close(1001, 'server closing');
            // A peer that never answers the close frame is cut after a second.
            setTimeout(() => connection.socket.terminate(), 1000).unref();
          }),
      );
      await Promise.all(closing);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

export type ViewerRevocationListener = (gameId: string, viewerId: string) => void;

export interface ViewerRevocations {
  listen(listener: ViewerRevocationListener): () => void;
}

/**
 * The store the service uses, told apart only in that a spectator link's revocation is
 * announced once stored: the local counterpart of the AWS stream function seeing the
 * viewer's item change. Everything else passes through untouched.
 */
export function watchViewerRevocations(store: EventStore): { store: EventStore } & ViewerRevocations {
  const listeners = new Set<ViewerRevocationListener>();
  const watched = new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'revokeViewer') {
        return async (gameId: string, viewerId: string) => {
          const revoked = await target.revokeViewer(gameId, viewerId);
          if (revoked) {
            for (const listener of listeners) {
              try {
                listener(gameId, viewerId);
              } catch {
                // The revocation is stored; a listener's failure is its own.
              }
            }
          }
          return revoked;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    store: watched,
    listen(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
