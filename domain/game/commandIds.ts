/** commandId → seq of its commit, as a game's state reads it (a Map is one). */
export interface CommandIds extends Iterable<[string, number]> {
  readonly size: number;
  get(commandId: string): number | undefined;
  has(commandId: string): boolean;
}

/**
 * The commandIds of a game, never changed once made: `with` gives a new index and leaves
 * this one as it was, so a state and the state folded from it share nothing mutable.
 *
 * Copying the whole map for each commit would make folding a game quadratic. Instead the
 * entries sit in frozen maps of decreasing size, like the digits of a binary counter: `with`
 * adds a map of one, then merges the last two while the newer is as large as the older, so
 * each entry is copied O(log n) times in all, and a look-up reads at most log n maps.
 */
export class CommandIdIndex implements CommandIds {
  private constructor(
    /** Oldest first; none is changed after it is made. */
    private readonly levels: readonly ReadonlyMap<string, number>[],
    readonly size: number,
  ) {}

  static of(entries: Iterable<readonly [string, number]>): CommandIdIndex {
    const all = new Map(entries);
    return new CommandIdIndex(all.size > 0 ? [all] : [], all.size);
  }

  /** An index of these commandIds, the same one when it already is. */
  static from(commandIds: CommandIds): CommandIdIndex {
    return commandIds instanceof CommandIdIndex ? commandIds : CommandIdIndex.of(commandIds);
  }

  with(commandId: string, seq: number): CommandIdIndex {
    const size = this.has(commandId) ? this.size : this.size + 1;
    const levels = [...this.levels, new Map([[commandId, seq]])];
    while (levels.length >= 2 && levels[levels.length - 1].size >= levels[levels.length - 2].size) {
      const newer = levels.pop()!;
      const merged = new Map(levels.pop());
      for (const [id, value] of newer) merged.set(id, value);
      levels.push(merged);
    }
    return new CommandIdIndex(levels, size);
  }

  get(commandId: string): number | undefined {
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const seq = this.levels[i].get(commandId);
      if (seq !== undefined) return seq;
    }
    return undefined;
  }

  has(commandId: string): boolean {
    return this.get(commandId) !== undefined;
  }

  /** In the order they were first added, with their latest seq, as a Map lists them. */
  *[Symbol.iterator](): Iterator<[string, number]> {
    for (const [i, level] of this.levels.entries()) {
      for (const commandId of level.keys()) {
        if (!this.levels.slice(0, i).some((older) => older.has(commandId))) yield [commandId, this.get(commandId)!];
      }
    }
  }
}
