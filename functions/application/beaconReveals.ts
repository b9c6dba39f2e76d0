import type { BeaconChain } from '../../domain/beacon/chain';
import type { Commit } from '../../domain/fairness/hashChain';
import type { RevealPayload } from '../../domain/game/beaconRolls';
import type { BeaconSource } from '../ports/beaconSource';
import type { PendingReveals } from '../ports/pendingReveals';
import { ApplicationError } from './errors';
import { revealLate } from './revealLateness';

/** How long after its round's time a relay is first asked: drand's relays publish a little after it. */
export const FIRST_ASK_DELAY_MS = 300;
/** Waits between asks double from this… */
export const FIRST_BACKOFF_MS = 500;
/** …up to this; no wait is ever longer than MAX_WAIT_MS (a long wait is taken in pieces). */
export const MAX_BACKOFF_MS = 8_000;
export const MAX_WAIT_MS = 30_000;
/** Entries revealed by one revealDue call, at most. */
export const REVEALS_PER_CALL = 25;

/** A pending commit whose round is long published and still not revealed (beacon.md §7): nothing secret in it. */
export interface LateReveal {
  gameId: string;
  seq: number;
  round: number;
  roundAt: string;
}

/** A beacon game as the reveals read it, from the store (not a cache another process may have moved past). */
export interface BeaconGameNow {
  chain: BeaconChain;
  /** The game's last seq: below an entry's, its pending commit is not stored yet (or never will be). */
  version: number;
  pending?: { seq: number; round: number; roundAt: string };
}

/**
 * How long after its round an entry whose commit is not stored is still waited for: the entry
 * is written before the commit, so a slow write (KMS, the store) must not make it look gone.
 */
export const UNSTORED_GRACE_MS = 10 * 60_000;

export interface BeaconRevealsDeps {
  source: BeaconSource;
  pendingReveals: PendingReveals;
  /** Appends the reveal in the game's turn (GroupCommit.reveal); the stored one when it already is. */
  reveal(gameId: string, payload: RevealPayload): Promise<unknown>;
  /** The game now; undefined when it is no longer stored. */
  gameNow(gameId: string): Promise<BeaconGameNow | undefined>;
  now: () => string;
  /** Resolves after `ms` (timers; a test's clock). */
  wait?: (ms: number) => Promise<void>;
  /** The metric hook of a late reveal, called once per pending commit. */
  onLate?: (late: LateReveal) => void;
  /** One structured line (JSON); console.log by default. */
  log?: (line: string) => void;
}

type Waiting = NonNullable<BeaconGameNow['pending']> & { period: number };
type Attempt = 'revealed' | 'gone' | { retry: Waiting | undefined };

/**
 * Reveals pending commits (beacon.md §2.3): after a pending commit is stored, waits for its
 * round, asks the BeaconSource, and appends the reveal; a source not ready or down is asked
 * again with a capped backoff until it answers, and a reveal overdue is reported once
 * (`beacon_reveal_late`). `revealDue` finds the entries of PendingReveals that are due —
 * those of a process that stopped, or of another function — and reveals them.
 */
export class BeaconReveals {
  private closed = false;
  /** Pending commits being revealed by this process, by `<gameId> <seq>`. */
  private readonly following = new Map<string, Promise<void>>();
  private readonly reported = new Set<string>();
  private readonly sleepers = new Set<{ timer: ReturnType<typeof setTimeout>; resolve: () => void }>();

  constructor(private readonly deps: BeaconRevealsDeps) {}

  /** The `stored` hook: each pending commit of the group is followed until revealed. */
  stored(gameId: string, commits: readonly Commit[]): void {
    for (const commit of commits) {
      const first = commit.events[0];
      if (first?.type !== 'BeaconRollPending') continue;
      this.follow(gameId, commit.seq, Date.parse(String(first.data.roundAt)));
    }
  }

  /**
   * Follows one pending commit as `stored` does, its round published at `roundAtMs`; resolves
   * once it is revealed or found gone, or once close() is called (what a function that must
   * return calls, the schedule catching what it left).
   */
  followed(gameId: string, seq: number, roundAtMs: number): Promise<void> {
    this.follow(gameId, seq, roundAtMs);
    return this.following.get(keyOf(gameId, seq)) ?? Promise.resolve();
  }

  /**
   * Reveals the entries of PendingReveals due at `nowMs` (at most REVEALS_PER_CALL), one ask
   * each: what a schedule or a restarted server calls. Entries already revealed, or whose
   * commit was never stored, are removed.
   */
  async revealDue(nowMs: number): Promise<{ due: number; revealed: number }> {
    const due = await this.deps.pendingReveals.due(nowMs, REVEALS_PER_CALL);
    let revealed = 0;
    for (const entry of due) {
      if (this.closed) break;
      const key = keyOf(entry.gameId, entry.seq);
      if (this.following.has(key)) continue;
      const attempt = this.attempt(entry.gameId, entry.seq, entry.dueAtMs);
      this.following.set(key, attempt.then(() => undefined, () => undefined));
      try {
        const result = await attempt;
        if (result === 'revealed') revealed += 1;
        else if (result !== 'gone') this.reportIfLate(entry.gameId, result.retry);
      } finally {
        this.following.delete(key);
      }
    }
    return { due: due.length, revealed };
  }

  /**
   * Follows every entry of PendingReveals, due or not, as if this process had just stored it
   * (at most `limit`): what a server calls when it starts, for the commits an earlier run left.
   */
  async resume(limit = 1000): Promise<number> {
    const entries = await this.deps.pendingReveals.due(Number.MAX_SAFE_INTEGER, limit);
    for (const entry of entries) this.follow(entry.gameId, entry.seq, entry.dueAtMs);
    return entries.length;
  }

  /** Stops every wait and every retry; resolves once no reveal of this process is in flight. */
  async close(): Promise<void> {
    this.closed = true;
    for (const sleeper of this.sleepers) {
      clearTimeout(sleeper.timer);
      sleeper.resolve();
    }
    this.sleepers.clear();
    await Promise.all([...this.following.values()]);
  }

  private follow(gameId: string, seq: number, roundAtMs: number): void {
    const key = keyOf(gameId, seq);
    if (this.closed || this.following.has(key)) return;
    const run = this.keepTrying(gameId, seq, roundAtMs)
      .catch((error) => this.log({ level: 'error', message: 'beacon_reveal_failed', gameId, seq, error: (error as Error).name }))
      .finally(() => this.following.delete(key));
    this.following.set(key, run);
  }

  private async keepTrying(gameId: string, seq: number, roundAtMs: number): Promise<void> {
    const firstAsk = roundAtMs + FIRST_ASK_DELAY_MS;
    let backoff = FIRST_BACKOFF_MS;
    while (!this.closed) {
      const early = firstAsk - this.nowMs();
      if (early > 0) {
        await this.sleep(Math.min(early, MAX_WAIT_MS));
        continue;
      }
      const result = await this.attempt(gameId, seq, roundAtMs);
      if (result === 'revealed' || result === 'gone') {
        this.reported.delete(keyOf(gameId, seq));
        return;
      }
      this.reportIfLate(gameId, result.retry);
      await this.sleep(backoff);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  }

  /** One ask and, with a beacon, the reveal. Never throws: a failure is a retry. */
  private async attempt(gameId: string, seq: number, dueAtMs: number): Promise<Attempt> {
    let game: BeaconGameNow | undefined;
    try {
      game = await this.deps.gameNow(gameId);
    } catch (error) {
      if (error instanceof ApplicationError && error.status === 404) game = undefined;
      else return { retry: undefined };
    }
    const pending = game?.pending;
    // Written before its commit: a commit not stored yet may still be (a slow signer or store), so it is asked for again.
    if (game && game.version < seq && this.nowMs() < dueAtMs + UNSTORED_GRACE_MS) return { retry: undefined };
    if (!game || !pending || pending.seq !== seq) {
      // Revealed already (by this process or another), or never stored: nothing to wait for.
      await this.deps.pendingReveals.remove(gameId, seq).catch(() => undefined);
      return 'gone';
    }
    const waiting: Waiting = { ...pending, period: game.chain.period };
    try {
      const beacon = await this.deps.source.round(game.chain, pending.round);
      await this.deps.reveal(gameId, { pending: seq, round: pending.round, signature: beacon.signature });
    } catch {
      // Not published yet, every relay down, or the store busy: asked again after the backoff.
      return { retry: waiting };
    }
    // Removed after the reveal is stored; should this fail, the entry is found revealed and removed later.
    await this.deps.pendingReveals.remove(gameId, seq).catch(() => undefined);
    return 'revealed';
  }

  private reportIfLate(gameId: string, pending: Waiting | undefined): void {
    if (!pending) return;
    const key = keyOf(gameId, pending.seq);
    if (this.reported.has(key) || !revealLate(pending.period, pending.roundAt, this.nowMs())) return;
    this.reported.add(key);
    const late: LateReveal = { gameId, seq: pending.seq, round: pending.round, roundAt: pending.roundAt };
    this.log({ level: 'warn', message: 'beacon_reveal_late', ...late });
    try {
      this.deps.onLate?.(late);
    } catch {
      // A metric's failure is its own: the reveal goes on.
    }
  }

  private log(fields: Record<string, unknown>): void {
    (this.deps.log ?? console.log)(JSON.stringify(fields));
  }

  private nowMs(): number {
    return Date.parse(this.deps.now());
  }

  private sleep(ms: number): Promise<void> {
    if (this.deps.wait) return this.deps.wait(ms);
    return new Promise<void>((resolve) => {
      const sleeper = {
        timer: setTimeout(() => {
          this.sleepers.delete(sleeper);
          resolve();
        }, ms),
        resolve,
      };
      sleeper.timer.unref?.();
      this.sleepers.add(sleeper);
    });
  }
}

const keyOf = (gameId: string, seq: number) => `${gameId} ${seq}`;
