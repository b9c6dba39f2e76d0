import type { IdempotencyRecord } from '../ports/eventStore';

/**
 * How long a creation that lost the race for its Idempotency-Key waits for the winner's
 * record (ms before each read): DynamoDB cancels the second of two concurrent transactions on
 * one key (TransactionConflict) while the first is still landing. About 1.5 s in all, then 409.
 */
export const WINNER_READ_DELAYS_MS = [0, 50, 100, 200, 400, 800] as const;

const pause = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/** The record of the creation that took the key, read until it lands (a bounded wait), or undefined. */
export async function winnerOf(read: () => Promise<IdempotencyRecord | undefined>, delays: readonly number[] = WINNER_READ_DELAYS_MS): Promise<IdempotencyRecord | undefined> {
  for (const delay of delays) {
    await pause(delay);
    const record = await read();
    if (record) return record;
  }
  return undefined;
}
