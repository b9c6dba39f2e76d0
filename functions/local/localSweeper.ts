import type { AbandonedGames, SweepOutcome } from '../application/abandonedGames';

/** How often the local server looks for games whose lease ended (AWS's TTL does it there). */
export const LOCAL_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The local server's stand-in for DynamoDB's TTL: every hour, the games whose lease ended
 * are swept (abandonedGames.ts).
 */
export class LocalSweeper {
  private readonly timer: NodeJS.Timeout;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly games: AbandonedGames,
    intervalMs = LOCAL_SWEEP_INTERVAL_MS,
  ) {
    this.timer = setInterval(() => void this.sweep().catch(() => {}), intervalMs);
    this.timer.unref();
  }

  /** One sweep, after any sweep still running. */
  sweep(): Promise<Record<SweepOutcome, number>> {
    const next = this.running.then(() => this.games.sweepDue());
    this.running = next.catch(() => {});
    return next;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
