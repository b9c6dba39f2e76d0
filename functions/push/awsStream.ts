import type { Commit } from '../../domain/fairness/hashChain';
import { commitText, deliveryFor, endedByViewerRevocation } from './delivery';
import { loadRuleset } from '../application/rulesetLoader';
import type { Gateway } from './gateway';
import { encode, PUSH_LIMITS, pushError, type PushLimits } from './protocol';
import { removeConnection, type StoredSubscription, type SubscriptionStore } from './subscriptionStore';

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
  limits?: Partial<PushLimits>;
  now?: () => number;
}

const GAME_ID = /^[A-Za-z0-9_-]{1,64}$/;
const VIEWERS_SUFFIX = '#viewers';
/** Posts in flight at once, across the subscribers of a game. */
const POSTS_AT_ONCE = 16;

interface GameChanges {
  from: number;
  to: number;
  revokedViewers: Set<string>;
}

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
 * The stream function: each new commit to the subscribers of its game, in seq order per
 * connection, with the same messages as the local server (delivery.ts). A connection found
 * gone is forgotten; one that cannot be sent to is dropped and catches up when it comes back.
 * Never given a seed, a token hash or a signing key: it reads keys from the stream and
 * commit items from the table, nothing else.
 */
export function streamHandler(deps: StreamDeps) {
  const limits: PushLimits = { ...PUSH_LIMITS, ...deps.limits };
  const now = deps.now ?? Date.now;

  return async (event: { Records?: readonly StreamRecordLike[] }): Promise<void> => {
    const changed = changesOf(event.Records ?? []);
    const withCommits = [...changed].filter(([, changes]) => changes.to > 0).map(([gameId]) => gameId);
    if (deps.notify && withCommits.length > 0) await deps.notify(withCommits);
    for (const [gameId, changes] of changed) {
      const subscriptions = await deps.subscriptions.forGame(gameId, limits.maxSubscribersPerGame, Math.floor(now() / 1000));
      if (subscriptions.length === 0) continue;
      const live: StoredSubscription[] = [];
      for (const subscription of subscriptions) {
        const revoked = [...changes.revokedViewers].some((viewerId) => endedByViewerRevocation(subscription.identity, viewerId));
        if (!revoked) {
          live.push(subscription);
          continue;
        }
        await deps.subscriptions.remove(subscription.connectionId, gameId);
        await post(subscription.connectionId, encode(pushError('unauthenticated', 'This spectator link was revoked: it no longer reads this game.', gameId)));
      }
      if (changes.to === 0 || live.length === 0) continue;
      const commits = (await deps.readCommits(gameId, changes.from - 1, changes.to - changes.from + 1)).filter((c) => c.seq <= changes.to);
      // The commits' texts need their game's ruleset: loaded on demand (a cold start carries none).
      for (const rulesetId of new Set(live.map((s) => s.rulesetId))) await loadRuleset(rulesetId);
      const texts = new Map<string, Map<number, string>>();
      const textOf = (rulesetId: string, commit: Commit) => {
        let byRuleset = texts.get(rulesetId);
        if (!byRuleset) texts.set(rulesetId, (byRuleset = new Map()));
        let text = byRuleset.get(commit.seq);
        if (text === undefined) byRuleset.set(commit.seq, (text = commitText(rulesetId, commit, limits)));
        return text;
      };
      for (let start = 0; start < live.length; start += POSTS_AT_ONCE) {
        await Promise.all(live.slice(start, start + POSTS_AT_ONCE).map((subscription) => fanOut(subscription, commits, textOf)));
      }
    }
  };

  /** One subscriber's commits, one after another: order per connection is kept. */
  async function fanOut(subscription: StoredSubscription, commits: readonly Commit[], textOf: (rulesetId: string, commit: Commit) => string) {
    const subscriber = { ...subscription };
    for (const commit of commits) {
      const delivery = deliveryFor(subscriber, commit, textOf(subscription.rulesetId, commit));
      if (delivery.kind === 'skip') continue;
      if (delivery.kind === 'end') {
        await deps.subscriptions.remove(subscription.connectionId, subscription.gameId);
        await post(subscription.connectionId, delivery.text);
        return;
      }
      if (!(await post(subscription.connectionId, delivery.text))) return;
      subscriber.after = commit.seq;
    }
  }

  async function post(connectionId: string, text: string): Promise<boolean> {
    const outcome = await deps.gateway.post(connectionId, text);
    if (outcome === 'sent') return true;
    if (outcome === 'failed') await deps.gateway.drop(connectionId);
    await removeConnection(deps.subscriptions, connectionId, limits.maxSubscriptionsPerConnection + 1);
    return false;
  }
}
