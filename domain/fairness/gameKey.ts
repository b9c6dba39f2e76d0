import { canonicalJson } from '../canonicalJson';
import { bytesOfHex, hexOf } from '../crypto/encoding';
import { hmacSha256, sha256 } from '../crypto/primitives';

/** One `EntropyContributed` as fairness-v1 §3 lists it: [by, entropy]. */
export type EntropyEntry = readonly [by: string, entropy: string];

/** fairness-v1 §1: commitment = hex(SHA-256(serverSeed)). */
export function commitmentOf(serverSeed: Uint8Array): string {
  return hexOf(sha256(serverSeed));
}

/** fairness-v1 §3: gameKey = HMAC-SHA256(serverSeed, UTF8(JCS({ gameId, entropy }))). */
export function gameKeyOf(serverSeed: Uint8Array, gameId: string, entropy: readonly EntropyEntry[]): Uint8Array {
  const message = canonicalJson({ gameId, entropy: entropy.map(([by, e]) => [by, e]) });
  return hmacSha256(serverSeed, message);
}

export function parseSeedHex(hex: string): Uint8Array | undefined {
  return /^[0-9a-f]{64}$/.test(hex) ? bytesOfHex(hex) : undefined;
}
