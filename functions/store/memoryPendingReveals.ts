import type { PendingReveal, PendingReveals } from '../ports/pendingReveals';

/** PendingReveals of one process (tests, and a server whose store lives in memory). */
export class MemoryPendingReveals implements PendingReveals {
  private readonly entries = new Map<string, PendingReveal>();

  async add(gameId: string, seq: number, round: number, dueAtMs: number): Promise<void> {
    const key = `${gameId} ${seq}`;
    if (!this.entries.has(key)) this.entries.set(key, { gameId, seq, round, dueAtMs });
  }

  async due(nowMs: number, limit: number): Promise<PendingReveal[]> {
    return [...this.entries.values()]
      .filter((entry) => entry.dueAtMs <= nowMs)
      .sort((a, b) => a.dueAtMs - b.dueAtMs)
      .slice(0, limit)
      .map((entry) => ({ ...entry }));
  }

  async remove(gameId: string, seq: number): Promise<void> {
    this.entries.delete(`${gameId} ${seq}`);
  }
}
