import { abandonedAt, leaseEnd, SWEEP_GRACE_MS, type ExpiryPolicy, type GameLeases } from './gameExpiry';

export type SweepOutcome = 'deleted' | 'kept-sealed' | 're-armed' | 'gone';

/** How many due games one local sweep takes: a bounded loop; the rest wait for the next hour. */
export const SWEEP_BATCH = 100;

/**
 * Deletes a game whose lease ended, after checking it by its last commit: a sealed game is
 * kept (and its lease dropped), a game with a command newer than the policy allows is re-armed
 * (a lease re-armed late, or a policy lengthened since), and only a game silent for the
 * policy's days and the grace after them is deleted.
 */
export class AbandonedGames {
  constructor(
    private readonly leases: GameLeases,
    private readonly policy: ExpiryPolicy,
    private readonly now: () => string,
    /** Told of each game deleted (a process's cache lets it go). */
    private readonly onDeleted: (gameId: string) => void = () => {},
  ) {}

  async sweep(gameId: string): Promise<SweepOutcome> {
    const last = await this.leases.lastCommit(gameId);
    if (!last) {
      // Nothing but (perhaps) the lease: a creation that never stored its game.
      await this.leases.deleteGame(gameId);
      return 'gone';
    }
    if (last.sealed) {
      await this.leases.disarm(gameId);
      return 'kept-sealed';
    }
    const now = Date.parse(this.now());
    if (abandonedAt(this.policy, last.recordedAt) + SWEEP_GRACE_MS > now) {
      await this.leases.arm(gameId, leaseEnd(this.policy, last.recordedAt, gameId));
      return 're-armed';
    }
    await this.leases.deleteGame(gameId);
    this.onDeleted(gameId);
    return 'deleted';
  }

  /** The local server's sweep (AWS's TTL finds due leases itself): at most SWEEP_BATCH games. */
  async sweepDue(): Promise<Record<SweepOutcome, number>> {
    const tally: Record<SweepOutcome, number> = { deleted: 0, 'kept-sealed': 0, 're-armed': 0, gone: 0 };
    const due = await this.leases.due(Math.floor(Date.parse(this.now()) / 1000), SWEEP_BATCH);
    for (const gameId of due) tally[await this.sweep(gameId)] += 1;
    return tally;
  }
}
