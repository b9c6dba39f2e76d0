/**
 * A timer item per expiring game: the store deletes it when it is due (DynamoDB's TTL on
 * AWS; the local server's hourly sweep), which starts the sweep of its game. It is a trigger,
 * not the truth: the sweep judges the game by its last commit.
 */
export interface GameLeases {
  /** Sets the game's lease to end at `expiresAt` (unix seconds), creating it if need be. */
  arm(gameId: string, expiresAt: number): Promise<void>;
  /** The game never expires (sealed). */
  disarm(gameId: string): Promise<void>;
  /** Games whose lease ended at or before `now` (unix seconds), at most `limit` (the local sweep; AWS's TTL does this itself). */
  due(now: number, limit: number): Promise<string[]>;
  /** What the sweep judges a game by: its last commit's time and whether it is sealed; undefined when nothing of it is stored. */
  lastCommit(gameId: string): Promise<{ recordedAt: string; sealed: boolean } | undefined>;
  /** Deletes every item of the game: its commits, seed, secrets, spectator links, tokens, and lease last. */
  deleteGame(gameId: string): Promise<void>;
}
