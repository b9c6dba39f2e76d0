import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Commit } from '../../domain/fairness/hashChain';
import type { GameService } from '../application/gameService';
import type { EventStore } from '../ports/eventStore';
import { ApplicationError } from '../application/errors';
import { commitText, revokedText } from '../push/delivery';
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
  /** Not read any more: who may read is GameService.readAccess's answer alone. */
  viewers?: Pick<EventStore, 'readViewers'>;
  /** Told of each spectator link revoked through this store: its game's subscriptions are checked again (as on service.onAccessChange). */
  viewerRevocations?: ViewerRevocations;
  /** Origins whose pages may connect besides the server's own (CORS's list; `*` for any). */
  allowedOrigins?: readonly string[];
  limits?: Partial<PushLimits>;
}

interface Subscription {
  gameId: string;
  connection: Connection;
  /** Held in memory only, to ask readAccess again before each delivery; never sent, stored or logged. */
  token: string | undefined;
  /** Made with a spectator link: its end is told in those words. */
  spectator: boolean;
  rulesetId: string;
  /** The game's version when the subscribe was checked (its `subscribed` message). */
  version: number;
  after: number;
  /** False while its catch-up is read: nothing is delivered, new commits wait in `pending`. */
  ready: boolean;
  /** `subscribed` sent. */
  announced: boolean;
  /** Commits (the catch-up, then new ones) waiting for a check of the token before they go out. */
  pending: Commit[];
  /** The highest seq seen while pending was full: the client is sent a gap up to it. */
  overflowTo: number;
  /** Who may read the game may have changed (a spectator link revoked): check before anything else goes out. */
  recheck: boolean;
  draining: boolean;
}

interface Connection {
  socket: WebSocket;
  subscriptions: Map<string, Subscription>;
  chain: Promise<void>;
  queued: number;
  idle?: NodeJS.Timeout;
  lifetime?: NodeJS.Timeout;
  /** Closes a connection that follows no game: one must subscribe with a working token (or to a public game) soon after connecting. */
  unsubscribed?: NodeJS.Timeout;
  client: string;
}

/**
 * Pushes new commits to WebSocket clients of the local server, on its own port, at
 * PUSH_PATH (docs/push.md). One listener on GameService.onCommit feeds every subscription
 * through an index by game; a closed connection leaves nothing behind.
 */
export function attachPush(options: PushServerOptions): PushHub {
  const limits: PushLimits = { ...PUSH_LIMITS, ...options.limits };
  const { server, service } = options;
  const allowed = options.allowedOrigins ?? [];
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_TRANSPORT_BYTES, perMessageDeflate: false, clientTracking: false });
  const connections = new Set<Connection>();
  const byGame = new Map<string, Set<Subscription>>();
  /** Open connections per client address. */
  const byClient = new Map<string, number>();
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
    if (connection.subscriptions.size === 0) expectSubscription(connection);
    const set = byGame.get(gameId);
    if (!set) return;
    set.delete(subscription);
    if (set.size === 0) byGame.delete(gameId);
  };
  const isLive = (subscription: Subscription) => subscription.connection.subscriptions.get(subscription.gameId) === subscription;

  const texts = new WeakMap<Commit, Map<string, string>>();
  const textOf = (rulesetId: string, commit: Commit) => {
    let byRuleset = texts.get(commit);
    if (!byRuleset) texts.set(commit, (byRuleset = new Map()));
    let text = byRuleset.get(rulesetId);
    if (text === undefined) byRuleset.set(rulesetId, (text = commitText(rulesetId, commit, limits)));
    return text;
  };

  const deliver = (subscription: Subscription, commit: Commit) => {
    if (commit.seq <= subscription.after) return;
    // The local server stores commits one at a time, in order: a hole here would be a bug, told as a gap rather than hidden.
    if (commit.seq > subscription.after + 1) {
      sendMessage(subscription.connection, { type: 'gap', gameId: commit.gameId, after: subscription.after, version: commit.seq - 1 });
    }
    subscription.after = commit.seq;
    send(subscription.connection, textOf(subscription.rulesetId, commit));
  };

  /** The token no longer reads the game (or could not be checked): the subscription ends with an error naming the game. */
  const end = (subscription: Subscription, refusal: unknown) => {
    remove(subscription);
    const { gameId } = subscription;
    if (refusal instanceof ApplicationError && refusal.status === 401) {
      if (subscription.spectator) sendMessage(subscription.connection, pushError('unauthenticated', 'This spectator link was revoked: it no longer reads this game.', gameId));
      else send(subscription.connection, revokedText(gameId));
    } else {
      sendMessage(subscription.connection, pushErrorOf(refusal, gameId));
    }
  };

  /**
   * Sends what waits, each batch only after a check of the token that began once every commit
   * in it was stored (GameService.readAccess, as every read asks): a commit stored after a
   * revocation, or one that waited while the link was revoked, never goes out.
   */
  const drain = async (subscription: Subscription) => {
    if (!subscription.ready || subscription.draining) return;
    subscription.draining = true;
    try {
      while (isLive(subscription) && (!subscription.announced || subscription.recheck || subscription.pending.length > 0)) {
        const batch = subscription.pending.splice(0).sort((a, b) => a.seq - b.seq);
        const gapTo = subscription.overflowTo;
        subscription.recheck = false;
        let refusal: { error: unknown } | undefined;
        try {
          await service.readAccess(subscription.gameId, subscription.token);
        } catch (error) {
          refusal = { error };
        }
        if (!isLive(subscription)) return;
        if (refusal) return end(subscription, refusal.error);
        const { connection, gameId } = subscription;
        if (!subscription.announced) {
          subscription.announced = true;
          clearTimeout(connection.unsubscribed);
          connection.unsubscribed = undefined;
          sendMessage(connection, { type: 'subscribed', gameId, version: subscription.version, after: subscription.after });
        }
        for (const commit of batch) deliver(subscription, commit);
        if (gapTo > subscription.after) {
          sendMessage(connection, { type: 'gap', gameId, after: subscription.after, version: gapTo });
          subscription.after = gapTo;
        }
      }
    } finally {
      subscription.draining = false;
    }
  };
  const startDrain = (subscription: Subscription) =>
    void drain(subscription).catch((error) => {
      if (isLive(subscription)) end(subscription, error);
    });

  const unlisten = service.onCommit((commit) => {
    for (const subscription of [...(byGame.get(commit.gameId) ?? [])]) {
      if (subscription.pending.length < limits.maxPendingCommits) subscription.pending.push(commit);
      else subscription.overflowTo = Math.max(subscription.overflowTo, commit.seq);
      startDrain(subscription);
    }
  });

  const recheck = (gameId: string) => {
    for (const subscription of [...(byGame.get(gameId) ?? [])]) {
      subscription.recheck = true;
      startDrain(subscription);
    }
  };
  const unlistenAccess = service.onAccessChange(recheck);
  const unlistenViewers = options.viewerRevocations?.listen((gameId) => recheck(gameId));

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
    const subscription: Subscription = {
      gameId,
      connection,
      token: request.token,
      spectator: false,
      rulesetId: '',
      version: 0,
      after: request.after,
      ready: false,
      announced: false,
      pending: [],
      overflowTo: 0,
      recheck: false,
      draining: false,
    };
    connection.subscriptions.set(gameId, subscription);
    let set = byGame.get(gameId);
    if (!set) byGame.set(gameId, (set = new Set()));
    set.add(subscription);
    let opened;
    try {
      opened = await openSubscription(service, request, limits);
    } catch (error) {
      remove(subscription);
      return sendMessage(connection, pushErrorOf(error, gameId));
    }
    if (!isLive(subscription)) return; // closed meanwhile
    Object.assign(subscription, { spectator: opened.identity.startsWith('viewer:'), rulesetId: opened.rulesetId, version: opened.version, ready: true });
    subscription.pending.unshift(...opened.commits);
    await drain(subscription);
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

  /** Until it follows a game, a connection has `subscribeWithinMs` to subscribe with a working token. */
  // Refused subscribes do not extend the time: the first deadline holds until one is accepted.
  function expectSubscription(connection: Connection) {
    if (connection.unsubscribed) return;
    connection.unsubscribed = setTimeout(() => {
      connection.unsubscribed = undefined;
      if (![...connection.subscriptions.values()].some((s) => s.announced)) {
        connection.socket.close(1008, 'no subscription: subscribe with a token of a game soon after connecting');
      }
    }, limits.subscribeWithinMs);
    connection.unsubscribed.unref();
  }

  const accept = (client: string) => (socket: WebSocket) => {
    const connection: Connection = { socket, subscriptions: new Map(), chain: Promise.resolve(), queued: 0, client };
    connections.add(connection);
    byClient.set(client, (byClient.get(client) ?? 0) + 1);
    resetIdle(connection);
    expectSubscription(connection);
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
      clearTimeout(connection.unsubscribed);
      connections.delete(connection);
      const left = (byClient.get(client) ?? 1) - 1;
      if (left > 0) byClient.set(client, left);
      else byClient.delete(client);
    });
  };

  const refuse = (socket: Duplex, status: number, reason: string, message: string) => {
    const code = status === 400 ? 'invalid_request' : status === 403 ? 'forbidden' : status === 429 ? 'rate_limited' : 'unavailable';
    const body = JSON.stringify({ error: { code, message } });
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
    const client = clientOf(req);
    if ((byClient.get(client) ?? 0) >= limits.maxConnectionsPerClient) {
      return refuse(socket, 429, 'Too Many Requests', `One address holds at most ${limits.maxConnectionsPerClient} push connections: close one, or follow more games on one connection.`);
    }
    wss.handleUpgrade(req, socket, head, accept(client));
  };
  server.on('upgrade', onUpgrade);

  return {
    stats: () => ({ connections: connections.size, subscriptions: [...connections].reduce((n, c) => n + c.subscriptions.size, 0), games: byGame.size }),
    async close() {
      if (closed) return;
      closed = true;
      unlisten();
      unlistenAccess();
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

/** The peer's address, an IPv4 one as such whether or not the server listens on IPv6 too. */
const clientOf = (req: IncomingMessage) => (req.socket.remoteAddress ?? 'unknown').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

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
