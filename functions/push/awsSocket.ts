import type { GameService } from '../application/gameService';
import { sha256Hex } from '../application/tokens';
import type { EventStore } from '../ports/eventStore';
import { commitText, deliveryFor } from './delivery';
import { FAN_OUT_SLICES } from './fanOut';
import { loadRuleset } from '../application/rulesetLoader';
import type { Gateway, PostOutcome } from './gateway';
import { originAllowed } from './origin';
import { encode, parseClientMessage, PUSH_LIMITS, pushError, type PushLimits, type ServerMessage, type SubscribeRequest } from './protocol';
import { openSubscription, pushErrorOf } from './subscribe';
import { expiresAt, removeConnection, type SubscriptionStore } from './subscriptionStore';

/** The parts of an API Gateway WebSocket event ($connect, $disconnect, $default) this handler reads. */
export interface SocketEvent {
  requestContext: { routeKey?: string; connectionId?: string; identity?: { sourceIp?: string } };
  headers?: Record<string, string | undefined>;
  body?: string | null;
  isBase64Encoded?: boolean;
}

export interface SocketDeps {
  service: () => Promise<GameService>;
  /** Not read any more: who may read is GameService.readAccess's answer alone. */
  viewers?: () => Promise<Pick<EventStore, 'readViewers'>>;
  subscriptions: SubscriptionStore;
  gateway: Gateway;
  allowedOrigins: readonly string[];
  limits?: Partial<PushLimits>;
  now?: () => number;
  /** Where faults are reported: a route and a reason, never a message's body (it holds a token). */
  report?: (fault: { route: string; reason: string }) => void;
}

/** The client's address as the connections table keeps it: hashed, never in clear. */
const clientOf = (event: SocketEvent) => {
  const ip = event.requestContext?.identity?.sourceIp;
  return ip ? sha256Hex(ip) : undefined;
};

const header = (event: SocketEvent, name: string) => {
  for (const [key, value] of Object.entries(event.headers ?? {})) if (key.toLowerCase() === name) return value;
  return undefined;
};

/**
 * The WebSocket API's one function: $connect checks the page's origin, $disconnect forgets
 * the connection's subscriptions, and every message ($default) is answered as the local
 * server answers it (pushServer.ts), through the same protocol code. New commits reach
 * subscribers through the stream function (awsStream.ts).
 */
export function socketHandler(deps: SocketDeps) {
  const limits: PushLimits = { ...PUSH_LIMITS, ...deps.limits };
  const now = deps.now ?? Date.now;
  const report = deps.report ?? ((fault) => console.error(JSON.stringify({ level: 'ERROR', message: 'push fault', ...fault })));

  return async (event: SocketEvent): Promise<{ statusCode: number; body?: string }> => {
    const route = event.requestContext?.routeKey ?? '$default';
    const connectionId = event.requestContext?.connectionId;
    if (!connectionId) return { statusCode: 400 };
    try {
      if (route === '$connect') {
        if (!originAllowed(header(event, 'origin'), header(event, 'host'), deps.allowedOrigins)) return { statusCode: 403 };
        return await admitClient(event, connectionId);
      }
      if (route === '$disconnect') {
        const client = clientOf(event);
        if (client) await deps.subscriptions.removeClientConnection(client, connectionId);
        await removeConnection(deps.subscriptions, connectionId, limits.maxSubscriptionsPerConnection + 1);
        return { statusCode: 200 };
      }
      await onMessage(connectionId, event);
    } catch (error) {
      report({ route, reason: error instanceof Error ? error.name : 'unknown' });
      if (route !== '$connect' && route !== '$disconnect') await deps.gateway.post(connectionId, encode(pushErrorOf(error)));
      else return { statusCode: 500 };
    }
    return { statusCode: 200 };
  };

  /**
   * At most `maxConnectionsPerClient` connections per address (counted in the connections
   * table; two connects at the same instant may both pass: a bound, not an exact count).
   */
  async function admitClient(event: SocketEvent, connectionId: string): Promise<{ statusCode: number }> {
    const client = clientOf(event);
    if (!client) return { statusCode: 200 };
    if ((await deps.subscriptions.countClientConnections(client, limits.maxConnectionsPerClient, Math.floor(now() / 1000))) >= limits.maxConnectionsPerClient) {
      return { statusCode: 429 };
    }
    await deps.subscriptions.addClientConnection(client, connectionId, expiresAt(now(), limits.maxConnectionMs));
    return { statusCode: 200 };
  }

  async function onMessage(connectionId: string, event: SocketEvent): Promise<void> {
    const reply = (message: ServerMessage) => deps.gateway.post(connectionId, encode(message));
    const binary = event.isBase64Encoded === true;
    const body = event.body ?? '';
    const parsed = parseClientMessage(binary ? Buffer.from(body, 'base64') : body, binary, limits);
    if (!parsed.ok) return void (await reply(parsed.error));
    const { message } = parsed;
    if (message.action === 'ping') return void (await reply({ type: 'pong' }));
    if (message.action === 'unsubscribe') {
      await deps.subscriptions.remove(connectionId, message.gameId);
      return void (await reply({ type: 'unsubscribed', gameId: message.gameId.slice(0, 128) }));
    }
    await subscribe(connectionId, message, reply);
  }

  async function subscribe(connectionId: string, request: SubscribeRequest, reply: (message: ServerMessage) => Promise<PostOutcome>): Promise<void> {
    const { gameId } = request;
    const games = await deps.subscriptions.gamesOf(connectionId, limits.maxSubscriptionsPerConnection + 1);
    const again = games.includes(gameId);
    // Subscribing again to a game (say, after a gap) replaces the subscription, as on the local server.
    if (again) await deps.subscriptions.remove(connectionId, gameId);
    if (!again && games.length >= limits.maxSubscriptionsPerConnection) {
      return void (await reply(pushError('too_many_subscriptions', `A connection follows at most ${limits.maxSubscriptionsPerConnection} games: unsubscribe from one first.`, gameId)));
    }
    const nowSeconds = Math.floor(now() / 1000);
    const followers = await deps.subscriptions.countForGame(gameId, limits.maxSubscribersPerGame, nowSeconds);
    if (followers >= limits.maxSubscribersPerGame) {
      return void (await reply(pushError('too_many_subscribers', 'This game has as many live followers as the server takes: follow it with GET /games/{id}/events?wait=… instead.', gameId)));
    }
    const service = await deps.service();
    let opened;
    try {
      opened = await openSubscription(service, request, limits);
    } catch (error) {
      return void (await reply(pushErrorOf(error, gameId)));
    }
    await loadRuleset(opened.rulesetId);
    if ((await reply({ type: 'subscribed', gameId, version: opened.version, after: request.after })) !== 'sent') return;
    const subscriber = { identity: opened.identity, after: request.after, authorizedAt: opened.version };
    for (const commit of opened.commits) {
      const delivery = deliveryFor(subscriber, commit, commitText(opened.rulesetId, commit, limits));
      if (delivery.kind !== 'send') continue;
      if (!(await sent(connectionId, await deps.gateway.post(connectionId, delivery.text)))) return;
      subscriber.after = commit.seq;
    }
    await deps.subscriptions.put({
      connectionId,
      gameId,
      identity: opened.identity,
      rulesetId: opened.rulesetId,
      after: subscriber.after,
      authorizedAt: opened.version,
      expiresAt: expiresAt(now(), limits.maxConnectionMs),
      // Round robin by arrival: a game's followers spread evenly over the fan-out slices.
      slice: followers % FAN_OUT_SLICES,
    });
    // A commit stored after the catch-up was read but fanned out before this subscription was
    // stored would fall between the two: read once more. It may reach the client twice (the
    // stream function also sends it); clients drop a seq they hold (docs/push.md).
    // The read checks the token again, now that the subscription is stored: a revocation the
    // stream saw before then (and so ended nothing) ends it here; a later one the stream ends.
    let later;
    try {
      later = await service.events(gameId, request.token, subscriber.after, limits.maxCatchUp);
    } catch (error) {
      await deps.subscriptions.remove(connectionId, gameId);
      return void (await reply(pushErrorOf(error, gameId)));
    }
    for (const commit of later.commits) {
      const delivery = deliveryFor(subscriber, commit, commitText(opened.rulesetId, commit, limits));
      if (delivery.kind === 'skip') continue;
      if (delivery.kind === 'end') {
        await deps.subscriptions.remove(connectionId, gameId);
        await deps.gateway.post(connectionId, delivery.text);
        return;
      }
      if (!(await sent(connectionId, await deps.gateway.post(connectionId, delivery.text)))) return;
      subscriber.after = commit.seq;
    }
    if (later.version > subscriber.after) await reply({ type: 'gap', gameId, after: subscriber.after, version: later.version });
  }

  /** A connection that could not be sent to is forgotten (gone) or dropped (failed): it reconnects and catches up. */
  async function sent(connectionId: string, outcome: PostOutcome): Promise<boolean> {
    if (outcome === 'sent') return true;
    if (outcome === 'failed') await deps.gateway.drop(connectionId);
    await removeConnection(deps.subscriptions, connectionId, limits.maxSubscriptionsPerConnection + 1);
    return false;
  }
}
