import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, shown once at creation. */
export function newToken(): string {
  return `arb_${randomBytes(32).toString('base64url')}`;
}

/** Hex SHA-256 of UTF-8 text: how tokens (and Idempotency-Keys) are stored. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export const hashToken = sha256Hex;

/** The presented token's hash, ready to compare with stored ones (hashMatches). */
export function presentedHash(token: string): Buffer {
  return Buffer.from(hashToken(token), 'hex');
}

/** A presented token's hash against a stored one, in constant time. */
export function hashMatches(presented: Buffer, storedHex: string): boolean {
  return timingSafeEqual(presented, Buffer.from(storedHex, 'hex'));
}

/** A public id: the prefix and 48 random bits in base 36 (`v-…` spectator links, `k-…` issued tokens). */
export function randomId(prefix: string): string {
  return `${prefix}-${randomBytes(6).readUIntBE(0, 6).toString(36)}`;
}
