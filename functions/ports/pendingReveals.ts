/** A pending commit waiting for its reveal (beacon.md §2.3), kept where a restarted or another process finds it. */
export interface PendingReveal {
  gameId: string;
  seq: number;
  round: number;
  /** When its round is published (ms since the epoch): not worth asking a relay before. */
  dueAtMs: number;
}

/**
 * The pending commits still to reveal. An entry is written before its pending commit is
 * stored and removed once the reveal is: an entry whose commit was never stored, or is
 * already revealed, is found so and removed; a stored pending commit always has one.
 */
export interface PendingReveals {
  /** Idempotent: the same entry again changes nothing. */
  add(gameId: string, seq: number, round: number, dueAtMs: number): Promise<void>;
  /** Entries due at or before `nowMs`, at most `limit`, the earliest first. */
  due(nowMs: number, limit: number): Promise<PendingReveal[]>;
  remove(gameId: string, seq: number): Promise<void>;
}
