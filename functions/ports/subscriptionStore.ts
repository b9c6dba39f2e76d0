/** How a subscription is told: generic signed JSON, a Discord or Slack incoming webhook, or e-mail. */
export type SubscriptionKind = 'webhook' | 'discord' | 'slack' | 'email';

/** One mail or post per commit, per turn, or every N minutes. */
export type Digest = 'commit' | 'turn' | { everyMinutes: number };

/** Where a subscription listens: one game, or every game of a tournament. */
export type SubscriptionScope = { gameId: string } | { tournamentId: string };

/**
 * What made the owner's token the owner's when it subscribed (as credentials.ts's ActingToken
 * says): the creation's token, a reissued one by id, or the tournament's. A subscription
 * lasts while that token still acts on the game: a revocation or reissue ends it.
 */
export type SubscriptionGrant = 'creation' | 'tournament' | { tokenId: string };

/**
 * A subscription as stored. Its target (URL, address, signing secret) is sealed by the seed
 * vault under the subscription's id; `maskedTarget` is all that is ever shown. An e-mail
 * subscription's confirm/unsubscribe code is stored as its hash only.
 */
export interface SubscriptionRecord {
  subscriptionId: string;
  scope: SubscriptionScope;
  kind: SubscriptionKind;
  /** The role that made it (a side, `organizer`) or `tournament`. */
  owner: string;
  /** Absent on records made before grants were kept: those are ended, as a revoked one. */
  grantedBy?: SubscriptionGrant;
  sealedTarget: string;
  maskedTarget: string;
  digest: Digest;
  status: 'active' | 'confirming';
  codeHash?: string;
  createdAt: string;
  /** A game's subscription: the game's version when it was made; it is told the commits after. A tournament's is told those recorded after `createdAt`. */
  afterSeq?: number;
}

/** A commit (or digest) that could not be delivered after every retry. */
export interface DeadLetter {
  seq: number;
  at: string;
  error: string;
}

/** Dead letters kept per subscription: the latest this many. */
export const DEAD_LETTERS_KEPT = 50;

/**
 * Subscriptions, their cursors (per subscription and game: the last seq delivered or
 * dead-lettered) and dead letters. Cursors move only forward and only from the value read
 * (`advance` is conditional), so two processes catching up the same game at once deliver
 * each commit at least once and never move a cursor back.
 */
export interface SubscriptionStore {
  add(record: SubscriptionRecord): Promise<void>;
  get(subscriptionId: string): Promise<SubscriptionRecord | undefined>;
  /** The subscriptions of one game or one tournament, oldest first. */
  inScope(scope: SubscriptionScope): Promise<SubscriptionRecord[]>;
  /** False when there was none. Its cursors and dead letters go with it. */
  remove(subscriptionId: string): Promise<boolean>;
  confirm(subscriptionId: string): Promise<boolean>;
  cursor(subscriptionId: string, gameId: string): Promise<number | undefined>;
  /** Sets the cursor to `to` if it is still `from` (undefined: none yet); false when another process moved it. */
  advance(subscriptionId: string, gameId: string, from: number | undefined, to: number): Promise<boolean>;
  /** Adds a dead letter, keeping the latest DEAD_LETTERS_KEPT. */
  addDeadLetter(subscriptionId: string, letter: DeadLetter): Promise<void>;
  deadLetters(subscriptionId: string): Promise<DeadLetter[]>;
  /**
   * Remembers the reminder `key` (a side and its move) as the latest of the subscription in the
   * game: true when it was not already, false when it was (another run, or a process before a
   * restart, sent it). Only the latest is kept, one per subscription and game.
   */
  markReminded(subscriptionId: string, gameId: string, key: string): Promise<boolean>;
}
