/**
 * The notification engine as the team contract names it (part C, functions/notify/): what the
 * AWS delivery function calls. Until C's engine lands this is the only definition; at the
 * merge it becomes a type-only re-export of C's.
 */
export interface NotificationEngine {
  /** Delivers every commit of the game after each of its subscriptions' cursors; idempotent, so a repeated call delivers nothing twice. */
  catchUpGame(gameId: string): Promise<void>;
  /** Digests due by minutes and reminders of overdue sides, as of `nowIso`. */
  tick?(nowIso: string): Promise<void>;
}
