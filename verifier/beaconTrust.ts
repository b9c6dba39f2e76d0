import { beaconSignatureValid } from '../domain/beacon/blsSignature';
import type { BeaconSignatureCheck } from '../domain/beacon/chain';
import type { BeaconVerifyOptions } from '../domain/verify/checkBeacons';
import { UsageError } from './parseArguments';

/** beaconSignatureValid, each signature of each chain checked once however many games of a tournament use it (a BLS check costs about 50 ms). */
export function cachedBeaconCheck(): BeaconSignatureCheck {
  const verified = new Map<string, boolean>();
  return (chain, round, signature) => {
    const key = `${chain.publicKey}/${chain.scheme}/${round}/${signature}`;
    let valid = verified.get(key);
    if (valid === undefined) {
      valid = beaconSignatureValid(chain, round, signature);
      verified.set(key, valid);
    }
    return valid;
  };
}

/** --trust-beacon CHAINHASH or CHAINHASH:PUBLICKEY (repeatable) and the BLS check: what verify, stats and a tournament's verify pass to the domain. */
export function beaconOptions(pinned: readonly string[]): BeaconVerifyOptions {
  const trustedChains = pinned.map((given) => {
    const pin = given.toLowerCase();
    if (!/^[0-9a-f]{64}(:[0-9a-f]{192})?$/.test(pin)) {
      throw new UsageError(`--trust-beacon takes a drand chain hash (64 hex digits), or HASH:PUBLICKEY (the chain's 96-byte public key in hex), not ${JSON.stringify(given)}`);
    }
    return pin;
  });
  return { check: cachedBeaconCheck(), trustedChains };
}
