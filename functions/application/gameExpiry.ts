import { createHash } from 'node:crypto';
import type { GameState } from '../../domain/game/gameState';
import { ApplicationError } from './errors';
export type { GameLeases } from '../ports/gameLeases';

/**
 * Games left unsealed: a game of no tournament that gets no command for `afterDays` days is
 * abandoned; it takes no more commands and is deleted (docs/deploy.md, "Abandoned games").
 * Sealed games and tournament games are kept.
 */
export interface ExpiryPolicy {
  afterDays: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * The sweeper deletes a game only this long after it became abandoned: a command accepted
 * by a process whose clock runs a little behind is never deleted with it.
 */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

export function expiryPolicyOf(days: string | undefined, source: string): ExpiryPolicy | undefined {
  if (days === undefined || days.trim() === '' || days.trim() === '0') return undefined;
  const afterDays = Number(days);
  if (!Number.isInteger(afterDays) || afterDays < 1 || afterDays > 3650) {
    throw new Error(`${source} is a whole number of days from 1 to 3650 (or 0 for never): got ${JSON.stringify(days)}`);
  }
  return { afterDays };
}

/** Whether this game can expire at all under the policy. */
export function expires(policy: ExpiryPolicy | undefined, state: GameState, tournamentId: string | undefined): policy is ExpiryPolicy {
  return policy !== undefined && !state.sealed && tournamentId === undefined;
}

/** The moment (ms) a game whose last command was recorded at `lastRecordedAt` is abandoned. */
export function abandonedAt(policy: ExpiryPolicy, lastRecordedAt: string): number {
  return Date.parse(lastRecordedAt) + policy.afterDays * DAY_MS;
}

/**
 * A lease armed by a command recorded at `recordedAt` ends at the end of its UTC day plus
 * the policy's days and the game's spread (unix seconds): never before the game is abandoned,
 * and the same for every command of one day, so that a game is re-armed at most once a day.
 */
export function leaseEnd(policy: ExpiryPolicy, recordedAt: string, gameId: string): number {
  const endOfDay = (Math.floor(Date.parse(recordedAt) / DAY_MS) + 1) * DAY_MS;
  return Math.ceil((endOfDay + policy.afterDays * DAY_MS + SWEEP_GRACE_MS) / 1000) + leaseSpreadSeconds(gameId);
}

/**
 * 0 to a day less a second, the same for a game every time: the leases of the games last
 * played on one day end spread over the day after, not all at one second (one burst of TTL
 * deletions, of stream records and of sweeps).
 */
export function leaseSpreadSeconds(gameId: string): number {
  return createHash('sha256').update(gameId).digest().readUInt32BE(0) % (DAY_MS / 1000);
}

/** A command on a new UTC day re-arms the lease: the one armed before would end too soon. */
export function rearms(previousRecordedAt: string, recordedAt: string): boolean {
  return Math.floor(Date.parse(previousRecordedAt) / DAY_MS) !== Math.floor(Date.parse(recordedAt) / DAY_MS);
}

export function gameAbandoned(policy: ExpiryPolicy, lastRecordedAt: string): ApplicationError {
  return new ApplicationError(
    410,
    'game_abandoned',
    `This game was abandoned: it had no command for ${policy.afterDays} days after ${lastRecordedAt} and was not sealed, so it takes no more commands and is being deleted. Sealed games and tournament games are kept.`,
    { lastCommandAt: lastRecordedAt, afterDays: policy.afterDays },
  );
}
