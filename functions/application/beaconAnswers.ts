import { BeaconPending } from '../../domain/errors';
import { ApplicationError } from './errors';

/**
 * beacon.md §2.2: 409 beacon_pending, with Retry-After by the service's clock: the seconds
 * to the round's time plus one period (the relay's delay, the reveal's write), at least 1.
 */
export function beaconPendingAnswer(error: BeaconPending, nowMs: number): ApplicationError {
  const seconds = Math.max(1, Math.ceil((Date.parse(error.roundAt) - nowMs) / 1000) + error.period);
  return new ApplicationError(409, error.code, error.message, { round: error.round, roundAt: error.roundAt }, { 'retry-after': String(seconds) });
}

/** Runs an append, answering a pending roll's refusal with its Retry-After. */
export async function answeringBeaconPending<T>(append: () => Promise<T>, now: () => string): Promise<T> {
  try {
    return await append();
  } catch (error) {
    if (error instanceof BeaconPending) throw beaconPendingAnswer(error, Date.parse(now()));
    throw error;
  }
}
