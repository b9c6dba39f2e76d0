// The drand signature check (BLS12-381, about 27 KB gzipped), loaded by the verify worker only
// when a file holds a beacon game: a first visit never downloads it (web/build.ts).
import { beaconSignatureValid } from '../../domain/beacon/blsSignature';
import type { BeaconSignatureCheck } from '../../domain/beacon/chain';

/** beaconSignatureValid, each signature of each chain checked once however many games of a tournament use it (about 50 ms each). */
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
