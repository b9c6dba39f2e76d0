/** One queued piece of work and how to answer it. */
export interface Queued<J, R> {
  job: J;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit's queue: work for one key (a game) that arrives while a group of that key is
 * being written waits, and the next group takes all of it that waited, in arrival order, up
 * to `maxGroup`. One group per key at a time; other keys run freely. `runGroup` must settle
 * every job it is given (it is told off with the error of anything it throws).
 */
export class GroupQueue<J, R> {
  private readonly waiting = new Map<string, Queued<J, R>[]>();
  private readonly draining = new Set<Promise<void>>();

  constructor(
    private readonly runGroup: (key: string, group: Queued<J, R>[]) => Promise<void>,
    private readonly maxGroup: number,
  ) {
    if (!Number.isInteger(maxGroup) || maxGroup < 1) throw new Error(`a group holds at least 1 job: got ${maxGroup}`);
  }

  submit(key: string, job: J): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = this.waiting.get(key);
      if (queue) {
        queue.push({ job, resolve, reject });
        return;
      }
      this.waiting.set(key, [{ job, resolve, reject }]);
      const drain = this.drain(key).finally(() => this.draining.delete(drain));
      this.draining.add(drain);
    });
  }

  /** Resolves once no group is being written or waiting (what follows a group's answers, a snapshot, included): before the store closes. */
  async idle(): Promise<void> {
    while (this.draining.size > 0) await Promise.all([...this.draining]);
  }

  /** Groups of `key` one after another until none waits; the key's queue exists while this runs. */
  private async drain(key: string): Promise<void> {
    for (;;) {
      // One turn of the event loop first: requests already received (their sockets read in the
      // same turn) join this group instead of waiting a whole write for the next.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const queue = this.waiting.get(key)!;
      if (queue.length === 0) {
        this.waiting.delete(key);
        return;
      }
      const group = queue.splice(0, this.maxGroup);
      try {
        await this.runGroup(key, group);
      } catch (error) {
        for (const entry of group) entry.reject(error);
      }
    }
  }
}
