const POLL_INTERVAL_MS = 1000;

/**
 * Long polls: a reader waits until a game has a commit after the one it has seen.
 * Commits made by this process wake it at once; `newerExists` asks the store for
 * other processes' commits once a second.
 */
export class CommitWaiters {
  private readonly waiters = new Map<string, Set<() => void>>();

  notify(gameId: string): void {
    for (const wake of this.waiters.get(gameId) ?? []) wake();
  }

  async wait(gameId: string, ms: number, newerExists: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (await newerExists()) return;
      const remaining = deadline - Date.now();
      if (remaining <= 0) return;
      await new Promise<void>((resolve) => {
        const set = this.waiters.get(gameId) ?? new Set();
        const wake = () => {
          clearTimeout(timer);
          set.delete(wake);
          if (set.size === 0 && this.waiters.get(gameId) === set) this.waiters.delete(gameId);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(remaining, POLL_INTERVAL_MS));
        set.add(wake);
        this.waiters.set(gameId, set);
      });
    }
  }
}
