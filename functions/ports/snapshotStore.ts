/**
 * A snapshot: a game's folded state at one commit, so that a cold process reads it and only
 * the commits after it instead of the whole game. It is a cache, nothing more: never signed,
 * never exported, checked against the chain (the next commit's prevHash, or the commit it
 * names), and ignored when its format or its ruleset's state version differs from this
 * code's, when it is missing, unreadable or cut short — the game is then folded from commit 1
 * and the snapshot written again.
 */
export interface Snapshot {
  /** SNAPSHOT_FORMAT of the code that wrote it. */
  format: number;
  /** `<ruleset id>@<its stateVersion>`: a ruleset whose state changes shape bumps its version. */
  ruleset: string;
  /** The commit it folds to. */
  seq: number;
  hash: string;
  /** The state as JSON (Maps as entry lists, the ruleset by id; the commandIds as below). */
  state: string;
}

/** Where snapshots are kept: the store's own items, apart from commits. */
export interface SnapshotStore {
  read(gameId: string): Promise<Snapshot | undefined>;
  write(gameId: string, snapshot: Snapshot): Promise<void>;
}
