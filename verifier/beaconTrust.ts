import { cachedBeaconCheck } from '../domain/beacon/blsSignature';
import type { BeaconVerifyOptions } from '../domain/verify/checkBeacons';
import { UsageError } from './parseArguments';

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
