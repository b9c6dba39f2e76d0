/**
 * What the AWS delivery function needs of the notification engine (part C, functions/notify/).
 * C's NotificationEngine has `catchUpGame`; `tick` is its `resume()` (every game with
 * subscriptions caught up) bound at the merge, in functions/lambda/notifyEngine.ts.
 */
export interface NotificationEngine {
  /** Delivers every commit of the game after each of its subscriptions' cursors; idempotent, so a repeated call delivers nothing twice. */
  catchUpGame(gameId: string): Promise<void>;
  /** The minute's tick, as of `nowIso`: digests that fell due, games whose hand-off was lost (and, once the engine has them, reminders of overdue sides). */
  tick?(nowIso: string): Promise<void>;
}
