import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ORGANIZER } from '../../domain/ruleset';
import type { GameSecrets } from '../store/eventStore';

/** 256 random bits, shown once at creation. */
export function newToken(): string {
  return `arb_${randomBytes(32).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The role a bearer token holds in this game, or undefined for an unknown token. */
export function roleOfToken(secrets: GameSecrets, token: string | undefined): string | undefined {
  if (!token) return undefined;
  const presented = Buffer.from(hashToken(token), 'hex');
  const matches = (hash: string) => timingSafeEqual(presented, Buffer.from(hash, 'hex'));
  if (matches(secrets.tokenHashes.organizer)) return ORGANIZER;
  return Object.entries(secrets.tokenHashes.players).find(([, hash]) => matches(hash))?.[0];
}
