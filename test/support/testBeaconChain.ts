import { bls12_381 } from '@noble/curves/bls12-381.js';
import { BLS_UNCHAINED_G1, type BeaconChain } from '../../domain/beacon/chain';
import { roundMessage } from '../../domain/beacon/blsSignature';
import { hexOf, utf8Of } from '../../domain/crypto/encoding';
import { sha256 } from '../../domain/crypto/primitives';

const DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';
const short = bls12_381.shortSignatures;

/**
 * A drand-like chain of the tests' own (beacon.md §7): its own BLS key, made from a fixed
 * seed, and a short period. No verifier accepts it unless it is pinned by its hash.
 */
export interface TestBeaconChain {
  chain: BeaconChain;
  /** The BLS signature of a round, in hex, as a relay serves it. */
  sign(round: number): string;
  /** The first round whose time is not after `ms`. */
  latestAt(ms: number): number;
}

export function testBeaconChain(options: { name?: string; period?: number; genesis?: number; seed?: string } = {}): TestBeaconChain {
  const seed = utf8Of(options.seed ?? 'arbiter test beacon chain');
  const { secretKey, publicKey } = short.keygen(new Uint8Array([...sha256(seed), ...sha256(sha256(seed)).slice(0, 16)]));
  const publicKeyHex = hexOf(publicKey.toBytes(true));
  const period = options.period ?? 1;
  const genesis = options.genesis ?? Math.floor(Date.now() / 1000) - 60;
  const name = options.name ?? 'arbiter-test';
  // drand's chain hash is a hash of the chain's info; this one hashes what a verifier is asked to pin.
  const chainHash = hexOf(sha256(utf8Of(JSON.stringify({ name, publicKey: publicKeyHex, period, genesis, scheme: BLS_UNCHAINED_G1 }))));
  const chain: BeaconChain = { chain: name, chainHash, publicKey: publicKeyHex, period, genesis, scheme: BLS_UNCHAINED_G1 };
  return {
    chain,
    sign: (round) => hexOf(short.sign(short.hash(roundMessage(round), DST), secretKey).toBytes(true)),
    latestAt: (ms) => Math.floor((ms / 1000 - genesis) / period) + 1,
  };
}
