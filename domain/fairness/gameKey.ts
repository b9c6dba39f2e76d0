import { createHash, createHmac } from 'node:crypto';
import { canonicalJson } from '../canonicalJson';

/** One `EntropyContributed` as fairness-v1 §3 lists it: [by, entropy]. */
export type EntropyEntry = readonly [by: string, entropy: string];

/** fairness-v1 §1: commitment = hex(SHA-256(serverSeed)). */
export function commitmentOf(serverSeed: Buffer): string {
  return createHash('sha256').update(serverSeed).digest('hex');
}

/** fairness-v1 §3: gameKey = HMAC-SHA256(serverSeed, UTF8(JCS({ gameId, entropy }))). */
export function gameKeyOf(serverSeed: Buffer, gameId: string, entropy: readonly EntropyEntry[]): Buffer {
  const message = canonicalJson({ gameId, entropy: entropy.map(([by, e]) => [by, e]) });
  return createHmac('sha256', serverSeed).update(message, 'utf8').digest();
}

export function parseSeedHex(hex: string): Buffer | undefined {
  return /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : undefined;
}
