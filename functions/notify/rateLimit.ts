/**
 * At most `limit` deliveries per key (a game, a destination host) in any `windowMs`: how long
 * the next one must wait. Keys are data (game ids, host names): a Map.
 */
export class RateLimit {
  private readonly sent = new Map<string, number[]>();

  /** Keys held now (the sweep's effect is seen here). */
  get size(): number {
    return this.sent.size;
  }

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Milliseconds until one more may go under every key (0: now); counts it as sent when it is 0. */
  take(keys: readonly string[], nowMs: number): number {
    let wait = 0;
    for (const key of keys) {
      const recent = (this.sent.get(key) ?? []).filter((at) => at > nowMs - this.windowMs);
      this.sent.set(key, recent);
      if (recent.length >= this.limit) wait = Math.max(wait, recent[0]! + this.windowMs - nowMs);
    }
    if (wait === 0) for (const key of keys) this.sent.get(key)!.push(nowMs);
    // A key whose last delivery left the window holds nothing: dropped, so random host names cannot grow the map.
    if (this.sent.size > 10_000) for (const [key, times] of this.sent) if ((times.at(-1) ?? -Infinity) <= nowMs - this.windowMs) this.sent.delete(key);
    return wait;
  }
}
