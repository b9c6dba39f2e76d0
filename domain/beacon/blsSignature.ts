import { bls12_381 } from '@noble/curves/bls12-381.js';
import { bytesOfHex } from '../crypto/encoding';
import { sha256 } from '../crypto/primitives';
import type { BeaconChain, BeaconSignatureCheck } from './chain';

export type { BeaconSignatureCheck } from './chain';

// About 74 KB of code once minified: imported by the surfaces that check beacons (the
// relay client, the CLI, the standalone verifier, the web page's beacon chunk), never by
// domain/verify itself, which takes the check as an argument.

const DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';
const short = bls12_381.shortSignatures;

/** The message drand signs for a round of an unchained chain: SHA-256 of the round as a big-endian uint64. */
export function roundMessage(round: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(round));
  return sha256(bytes);
}

/**
 * beacon.md §1: the signature of `round` verifies under the chain's public key
 * (bls-unchained-g1-rfc9380). Never throws: malformed input is simply not valid.
 */
export function beaconSignatureValid(chain: Pick<BeaconChain, 'publicKey' | 'scheme'>, round: number, signatureHex: string): boolean {
  if (!Number.isSafeInteger(round) || round < 1) return false;
  const signature = typeof signatureHex === 'string' && /^[0-9a-f]{96}$/.test(signatureHex) ? bytesOfHex(signatureHex) : undefined;
  const publicKey = /^[0-9a-f]{192}$/.test(chain.publicKey) ? bytesOfHex(chain.publicKey) : undefined;
  if (!signature || !publicKey || chain.scheme !== 'bls-unchained-g1-rfc9380') return false;
  try {
    return short.verify(short.Signature.fromBytes(signature), short.hash(roundMessage(round), DST), publicKey);
  } catch {
    return false;
  }
}

/**
 * beaconSignatureValid, each signature of each chain checked once however many games of a file
 * use it (a BLS check costs about 50 ms in JavaScript): what the verifiers pass to domain/verify.
 */
export function cachedBeaconCheck(check: BeaconSignatureCheck = beaconSignatureValid): BeaconSignatureCheck {
  const verified = new Map<string, boolean>();
  return (chain, round, signature) => {
    const key = `${chain.publicKey}/${chain.scheme}/${round}/${signature}`;
    let valid = verified.get(key);
    if (valid === undefined) {
      valid = check(chain, round, signature);
      verified.set(key, valid);
    }
    return valid;
  };
}
