import { createHash } from 'node:crypto';
import type { Commit } from '../../domain/fairness/hashChain';
import { loadRuleset } from '../application/rulesetLoader';
import { commitText, deliveryFor, endedByViewerRevocation, isIdentity, type Identity } from './delivery';
import type { Gateway } from './gateway';
import { encode, pushError, type PushLimits } from './protocol';
import { removeConnection, type StoredSubscription, type SubscriptionStore } from './subscriptionStore';

/**
 * A game's subscribers are split into this many slices, each fanned out by its own message
 * (one FIFO message group per game and slice): slices go out in parallel, and one slice's
 * messages one after another, so every connection gets its game's commits in seq order.
 */
export const FAN_OUT_SLICES = 64;
/** Connections one fan-out message names at most; a slice grown larger is sent as several messages of its group. */
export const CONNECTIONS_PER_MESSAGE = 50;
/** Posts in flight at once in one fan-out invocation, across its messages. */
export const POSTS_IN_FLIGHT = 32;
/** Commits a warm fan-out function keeps: a game's slices ask for the same commits, and a commit never changes once stored. */
const CACHED_COMMITS = 2000;

/** One connection of a fan-out message: what its deliveries depend on. */
export interface FanOutTarget {
  connectionId: string;
  identity: Identity;
  rulesetId: string;
  after: number;
  authorizedAt: number;
}

/** What one fan-out message asks: the commits `from`..`to` of a game (none when `to` is 0) and the revoked spectator links, to these connections. */
export interface FanOutMessage {
  gameId: string;
  from: number;
  to: number;
  revokedViewers: string[];
  targets: FanOutTarget[];
}

/** A message as the queue takes it: its FIFO group (game and slice) and its deduplication id. */
export interface QueuedFanOut {
  groupId: string;
  deduplicationId: string;
  body: string;
}

/** The fan-out queue (SQS FIFO on AWS): resolves once every message is on it, rejects otherwise (the stream batch is then given again). */
export interface FanOutQueue {
  send(messages: readonly QueuedFanOut[]): Promise<void>;
}

export interface GameChanges {
  from: number;
  to: number;
  revokedViewers: Set<string>;
}

/** The slice of a connection: the one it was given when it subscribed, else one from its id (a subscription stored before slices). */
export function sliceOf(subscription: Pick<StoredSubscription, 'connectionId' | 'slice'>): number {
  if (Number.isSafeInteger(subscription.slice) && subscription.slice! >= 0) return subscription.slice! % FAN_OUT_SLICES;
  return createHash('sha256').update(subscription.connectionId).digest().readUInt32BE(0) % FAN_OUT_SLICES;
}

/**
 * The messages of one game's changes: per slice, the connections the changes concern (a slice
 * with no new commit gets a message only if a revocation ends one of its subscriptions).
 */
export function fanOutMessages(gameId: string, changes: GameChanges, subscriptions: readonly StoredSubscription[]): QueuedFanOut[] {
  const revokedViewers = [...changes.revokedViewers].sort();
  const slices = new Map<number, FanOutTarget[]>();
  for (const s of subscriptions) {
    const revoked = revokedViewers.some((viewerId) => endedByViewerRevocation(s.identity, viewerId));
    if (changes.to === 0 && !revoked) continue;
    const slice = sliceOf(s);
    let targets = slices.get(slice);
    if (!targets) slices.set(slice, (targets = []));
    targets.push({ connectionId: s.connectionId, identity: s.identity, rulesetId: s.rulesetId, after: s.after, authorizedAt: s.authorizedAt });
  }
  const messages: QueuedFanOut[] = [];
  for (const [slice, targets] of [...slices].sort(([a], [b]) => a - b)) {
    for (let start = 0; start < targets.length; start += CONNECTIONS_PER_MESSAGE) {
      const message: FanOutMessage = { gameId, from: changes.to === 0 ? 0 : changes.from, to: changes.to, revokedViewers, targets: targets.slice(start, start + CONNECTIONS_PER_MESSAGE) };
      const body = JSON.stringify(message);
      // A stream batch given again sends the same bodies: SQS drops them within its 5 minutes.
      messages.push({ groupId: `${gameId}.${slice}`, deduplicationId: createHash('sha256').update(body).digest('hex'), body });
    }
  }
  return messages;
}

const GAME_ID = /^[A-Za-z0-9_-]{1,64}$/;
const VIEWER_ID = /^v-[0-9a-z]{1,10}$/;
const CONNECTION_ID = /^[A-Za-z0-9_=+/-]{1,128}$/;
const seq = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;

/** A message body as only the stream function writes it, or undefined (it is then dropped, never retried). */
export function readFanOutMessage(body: string): FanOutMessage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const m = parsed as Partial<FanOutMessage> | null;
  if (!m || typeof m !== 'object' || typeof m.gameId !== 'string' || !GAME_ID.test(m.gameId) || !seq(m.from) || !seq(m.to)) return undefined;
  if (!Array.isArray(m.revokedViewers) || !m.revokedViewers.every((v) => typeof v === 'string' && VIEWER_ID.test(v))) return undefined;
  if (!Array.isArray(m.targets) || m.targets.length > CONNECTIONS_PER_MESSAGE) return undefined;
  for (const t of m.targets as Partial<FanOutTarget>[]) {
    if (!t || typeof t.connectionId !== 'string' || !CONNECTION_ID.test(t.connectionId) || !isIdentity(t.identity)) return undefined;
    if (typeof t.rulesetId !== 'string' || !seq(t.after) || !seq(t.authorizedAt)) return undefined;
  }
  return m as FanOutMessage;
}

export interface FanOutDeps {
  /** Commits of a game with seq > after, at most `limit`, in order (the game table, commit items only). */
  readCommits(gameId: string, after: number, limit: number): Promise<Commit[]>;
  subscriptions: SubscriptionStore;
  gateway: Gateway;
  limits: Pick<PushLimits, 'maxFrameBytes' | 'maxSubscriptionsPerConnection'>;
  /** Where faults that cost no retry are reported (a connection's removal that failed: TTL or the next post removes it). */
  report?: (fault: { reason: string }) => void;
}

/** At most `n` of the tasks run at once. */
export function limiter(n: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/**
 * Delivers fan-out messages: each connection gets its commits one after another (in seq order),
 * connections in parallel up to the limiter's bound. A connection found gone (410) is forgotten;
 * one that cannot be sent to is dropped and catches up when it reconnects. Throws only when the
 * commits cannot be read: the message is then given again.
 */
export function fanOutDelivery(deps: FanOutDeps) {
  const report = deps.report ?? ((fault) => console.error(JSON.stringify({ level: 'ERROR', message: 'push fan-out fault', ...fault })));
  const cache = new Map<string, Commit>();

  return async (message: FanOutMessage, inFlight: ReturnType<typeof limiter>): Promise<void> => {
    const { gameId } = message;
    const live: FanOutTarget[] = [];
    const ended: Promise<void>[] = [];
    for (const target of message.targets) {
      if (!message.revokedViewers.some((viewerId) => endedByViewerRevocation(target.identity, viewerId))) live.push(target);
      else
        ended.push(
          inFlight(async () => {
            await forget(() => deps.subscriptions.remove(target.connectionId, gameId));
            await post(target.connectionId, encode(pushError('unauthenticated', 'This spectator link was revoked: it no longer reads this game.', gameId)));
          }),
        );
    }
    const commits = message.to > 0 && live.length > 0 ? await commitsOf(gameId, message.from, message.to) : [];
    // The commits' texts need their game's ruleset: loaded on demand (a cold start carries none).
    for (const rulesetId of new Set(live.map((target) => target.rulesetId))) await loadRuleset(rulesetId);
    const texts = new Map<string, string>();
    const textOf = (rulesetId: string, commit: Commit) => {
      const key = `${commit.seq} ${rulesetId}`;
      let text = texts.get(key);
      if (text === undefined) texts.set(key, (text = commitText(rulesetId, commit, deps.limits)));
      return text;
    };
    await Promise.all([...ended, ...live.map((target) => toConnection(target, commits, textOf, inFlight))]);
  };

  /** The commits from..to: those a slice of the same game read before from memory, the rest from the table. */
  async function commitsOf(gameId: string, from: number, to: number): Promise<Commit[]> {
    const commits: Commit[] = [];
    let next = from;
    for (; next <= to; next++) {
      const cached = cache.get(`${gameId} ${next}`);
      if (!cached) break;
      commits.push(cached);
    }
    if (next > to) return commits;
    for (const commit of await deps.readCommits(gameId, next - 1, to - next + 1)) {
      if (commit.seq > to) break;
      commits.push(commit);
      cache.set(`${gameId} ${commit.seq}`, commit);
      if (cache.size > CACHED_COMMITS) cache.delete(cache.keys().next().value!);
    }
    return commits;
  }

  async function toConnection(target: FanOutTarget, commits: readonly Commit[], textOf: (rulesetId: string, commit: Commit) => string, inFlight: ReturnType<typeof limiter>) {
    const subscriber = { identity: target.identity, after: target.after, authorizedAt: target.authorizedAt };
    for (const commit of commits) {
      const delivery = deliveryFor(subscriber, commit, textOf(target.rulesetId, commit));
      if (delivery.kind === 'skip') continue;
      if (delivery.kind === 'end') {
        await forget(() => deps.subscriptions.remove(target.connectionId, commit.gameId));
        await inFlight(() => post(target.connectionId, delivery.text));
        return;
      }
      if (!(await inFlight(() => post(target.connectionId, delivery.text)))) return;
      subscriber.after = commit.seq;
    }
  }

  async function post(connectionId: string, text: string): Promise<boolean> {
    const outcome = await deps.gateway.post(connectionId, text);
    if (outcome === 'sent') return true;
    if (outcome === 'failed') await deps.gateway.drop(connectionId);
    await forget(() => removeConnection(deps.subscriptions, connectionId, deps.limits.maxSubscriptionsPerConnection + 1));
    return false;
  }

  async function forget(removal: () => Promise<void>): Promise<void> {
    try {
      await removal();
    } catch (error) {
      report({ reason: `removing a subscription failed (${error instanceof Error ? error.name : 'unknown'})` });
    }
  }
}

/** The parts of an SQS event record this handler reads. */
export interface QueueRecordLike {
  messageId: string;
  body: string;
  attributes?: { MessageGroupId?: string };
}

/**
 * The fan-out function: a batch of SQS FIFO messages, each group's in order. A message whose
 * commits could not be read is reported failed, and so is every later message of its group
 * (SQS gives them again in order); other groups go on. A body this queue never carries is dropped.
 */
export function fanOutHandler(deliver: ReturnType<typeof fanOutDelivery>, options: { postsInFlight?: number; report?: (fault: { reason: string }) => void } = {}) {
  const report = options.report ?? ((fault) => console.error(JSON.stringify({ level: 'ERROR', message: 'push fan-out fault', ...fault })));
  return async (event: { Records?: readonly QueueRecordLike[] }): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> => {
    const inFlight = limiter(options.postsInFlight ?? POSTS_IN_FLIGHT);
    const groups = new Map<string, QueueRecordLike[]>();
    for (const record of event.Records ?? []) {
      const group = record.attributes?.MessageGroupId ?? record.messageId;
      let records = groups.get(group);
      if (!records) groups.set(group, (records = []));
      records.push(record);
    }
    const failures: { itemIdentifier: string }[] = [];
    await Promise.all(
      [...groups.values()].map(async (records) => {
        for (let i = 0; i < records.length; i++) {
          const message = readFanOutMessage(records[i].body);
          if (!message) {
            report({ reason: 'a fan-out message this queue never carries was dropped' });
            continue;
          }
          try {
            await deliver(message, inFlight);
          } catch (error) {
            report({ reason: `a fan-out message failed and is given again (${error instanceof Error ? error.name : 'unknown'})` });
            failures.push(...records.slice(i).map((r) => ({ itemIdentifier: r.messageId })));
            return;
          }
        }
      }),
    );
    return { batchItemFailures: failures };
  };
}
