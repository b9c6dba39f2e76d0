import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, shown once at creation. */
export function newToken(): string {
  return `arb_${randomBytes(32).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
