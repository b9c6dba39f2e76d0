import type { Commit, Ed25519PublicJwk } from '../fairness/hashChain';
import type { GameHead } from '../trust/gameHead';
import type { KeyRotation } from '../trust/keyRotation';

/** The export of fairness-v1 §7, with the key log and signed head of trust.md §3 and §4. */
export interface ExportBundle {
  gameId: string;
  ruleset: string;
  commitment: string;
  commits: Commit[];
  keys: { keys: Ed25519PublicJwk[] };
  /** trust.md §3; exports made before it have none. */
  keyLog?: KeyRotation[];
  /** trust.md §4; exports made before it have none, and cannot prove they are complete. */
  head?: GameHead;
  serverSeed?: string;
}

export interface VerificationFailure {
  /** The commit's position from 1; 0 for the export as a whole (its shape, head, key log). */
  seq: number;
  check: string;
  reason: string;
}

export type Fail = (seq: number, check: string, reason: string) => void;

/** First failure first; a stable sort keeps the order checks ran in within one seq. */
export function sortedFailures(failures: readonly VerificationFailure[]): VerificationFailure[] {
  return [...failures].sort((a, b) => a.seq - b.seq);
}
