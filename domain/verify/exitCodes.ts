// No imports: the web app's script reads these without taking in the report's schemas (zod).
/** trust.md §5 exit codes. */
export const EXIT = {
  /** Every check passed, everything is signed by trusted keys, and the game is sealed (or unsealed is allowed). */
  ok: 0,
  /** A check failed, including a signature by a key the trusted fingerprints do not reach. */
  failed: 1,
  /** The input or the arguments cannot be used. */
  unusable: 2,
  /** Consistent, but no trusted fingerprint is configured, or the game is not sealed yet. */
  inconclusive: 3,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
