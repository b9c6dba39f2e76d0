import { bytesOfHex, hexOf } from '../crypto/encoding';
import { hmacSha256, sha256 } from '../crypto/primitives';
import { FairnessDice } from '../dice';
import type { BeaconChain } from './chain';

/** beacon.md §1: randomness(r) = SHA-256(signature bytes), in hex. */
export function beaconRandomness(signatureHex: string): string {
  const bytes = bytesOfHex(signatureHex);
  if (!bytes) throw new RangeError('a beacon signature is hex');
  return hexOf(sha256(bytes));
}

/** beacon.md §3: beaconKey = HMAC-SHA256(gameKey, UTF8("drand/" + chainHash + "/" + r + "/" + hex(randomness(r)))). */
export function beaconKeyOf(gameKey: Uint8Array, chainHash: string, round: number, randomnessHex: string): Uint8Array {
  return hmacSha256(gameKey, `drand/${chainHash}/${round}/${randomnessHex}`);
}

/**
 * beacon.md §3: the dice of the reveal of pending commit `pendingSeq` — fairness-v1 §4's
 * stream, keyed by the beacon key instead of the game key, counted from the pending seq.
 */
export function beaconDice(gameKey: Uint8Array, chain: Pick<BeaconChain, 'chainHash'>, round: number, signatureHex: string, pendingSeq: number): FairnessDice {
  return new FairnessDice(beaconKeyOf(gameKey, chain.chainHash, round, beaconRandomness(signatureHex)), pendingSeq);
}
