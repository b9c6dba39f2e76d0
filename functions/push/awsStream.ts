import type { Commit } from '../../domain/fairness/hashChain';
import { fanOutDelivery, fanOutMessages, limiter, POSTS_IN_FLIGHT, readFanOutMessage, type FanOutQueue, type GameChanges, type QueuedFanOut } from './fanOut';
import type { Gateway } from './gateway';
import { PUSH_LIMITS, type PushLimits } from './protocol';
import type { SubscriptionStore } from './subscriptionStore';

/** The parts of a DynamoDB stream record (view type KEYS_ONLY) this handler reads. */
export interface StreamRecordLike {
  eventName?: string;
  dynamodb?: { Keys?: Record<string, { S?: string; N?: string } | undefined> };
}

export interface StreamDeps {
  /** Commits of a game with seq > after, at most `limit`, in order (the game table, commit items only). */
  readCommits(gameId: string, after: number, limit: number): Promise<Commit[]>;
  subscriptions: SubscriptionStore;
  gateway: Gateway;
  /**
   * Hands the games with new commits to notifications (the SQS queue on AWS) before anything
   * is pushed: if it fails, the batch fails and Lambda gives it again, so no commit is left
   * unnotified by a failed hand-off.
   */
  notify?: (gameIds: readonly string[]) => Promise<void>;
  /** The fan-out queue (SQS FIFO on AWS); without one, this function posts the messages itself. */
  fanOut?: FanOutQueue;
  limits?: Partial<PushLimits>;
  now?: () => number;
}

const GAME_ID = /^[A-Za-z0-9_-]{1,64}$/;
const VIEWERS_SUFFIX = '#viewers';

/**
 * What a batch of the game table's stream says to push: per game, the range of seqs of new
 * commits, and the spectator links revoked. Only keys are read (the stream carries nothing
 * else): a commit is an INSERT under the game's own partition key, a spectator link's
 * revocation the one change ever made to its item under `<game>#viewers` (dynamoStore.ts).
 */
export function changesOf(records: readonly StreamRecordLike[]): Map<string, GameChanges> {
  const games = new Map<string, GameChanges>();
  const changesFor = (gameId: string) => {
    let changes = games.get(gameId);
    if (!changes) games.set(gameId, (changes = { from: Number.MAX_SAFE_INTEGER, to: 0, revokedViewers: new Set() }));
    return changes;
  };
  for (const record of records) {
    const pk = record.dynamodb?.Keys?.pk?.S;
    const sk = Number(record.dynamodb?.Keys?.sk?.N);
    if (typeof pk !== 'string' || !Number.isSafeInteger(sk) || sk < 1) continue;
    if (record.eventName === 'INSERT' && GAME_ID.test(pk)) {
      const changes = changesFor(pk);
      changes.from = Math.min(changes.from, sk);
      changes.to = Math.max(changes.to, sk);
    } else if (record.eventName === 'MODIFY' && pk.endsWith(VIEWERS_SUFFIX) && GAME_ID.test(pk.slice(0, -VIEWERS_SUFFIX.length))) {
      // A viewer's sort key is the base-36 number of its id `v-…` (dynamoStore.ts).
      changesFor(pk.slice(0, -VIEWERS_SUFFIX.length)).revokedViewers.add(`v-${sk.toString(36)}`);
    }
  }
  return games;
}

/**
 * The stream function: it only splits the work. For each game with new commits (or a revoked
 * spectator link) it reads the game's subscriptions and puts one message per slice of them on
 * the fan-out queue (fanOut.ts), where the fan-out function posts them in parallel. Without a
 * queue (a test, a stack without fan-out) it delivers the same messages itself. Never given a
 * seed, a token hash or a signing key: it reads keys from the stream, subscriptions, and (only
 * without a queue) commit items.
 */
export function streamHandler(deps: StreamDeps) {
  const limits: PushLimits = { ...PUSH_LIMITS, ...deps.limits };
  const now = deps.now ?? Date.now;
  const deliver = fanOutDelivery({ readCommits: deps.readCommits, subscriptions: deps.subscriptions, gateway: deps.gateway, limits });

  return async (event: { Records?: readonly StreamRecordLike[] }): Promise<void> => {
    const changed = changesOf(event.Records ?? []);
    const withCommits = [...changed].filter(([, changes]) => changes.to > 0).map(([gameId]) => gameId);
    if (deps.notify && withCommits.length > 0) await deps.notify(withCommits);
    const messages: QueuedFanOut[] = [];
    for (const [gameId, changes] of changed) {
      const subscriptions = await deps.subscriptions.forGame(gameId, limits.maxSubscribersPerGame, Math.floor(now() / 1000));
      messages.push(...fanOutMessages(gameId, changes, subscriptions));
    }
    if (messages.length === 0) return;
    // Any failure rejects the batch, and Lambda gives it again (no record is dropped); messages already sent are dropped by SQS as duplicates.
    if (deps.fanOut) return deps.fanOut.send(messages);
    const inFlight = limiter(POSTS_IN_FLIGHT);
    for (const queued of messages) await deliver(readFanOutMessage(queued.body)!, inFlight);
  };
}
