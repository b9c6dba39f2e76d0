import { invalidRequest } from './errors';
import { sha256Hex } from './tokens';

/**
 * An Idempotency-Key is a secret for a day: whoever sends it with the same request gets the
 * game's tokens. So it must be unguessable: a UUID, or 22 or more base64url characters
 * (at least 128 random bits). The form is all the server can check; docs/api.md says how
 * to make one.
 */
const KEY_FORM = /^[A-Za-z0-9_-]{22,200}$/;

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export function checkIdempotencyKey(key: string): void {
  if (!KEY_FORM.test(key)) {
    throw invalidRequest([
      {
        field: IDEMPOTENCY_KEY_HEADER,
        message: 'must be a fresh random value of at least 128 bits: a UUID, or 22 to 200 base64url characters (A-Z a-z 0-9 - _)',
      },
    ]);
  }
}

/**
 * The hash the record is stored under. A key sent with a tournament's token is that
 * tournament's: the same key with another token, or none, is another record. Without one,
 * the hash of the key alone, as records stored before scopes were (a key never contains `|`).
 */
export function idempotencyKeyHash(key: string, tournamentId?: string): string {
  return sha256Hex(tournamentId === undefined ? key : `tournament:${tournamentId}|${key}`);
}
