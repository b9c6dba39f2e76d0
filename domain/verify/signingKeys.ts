import { publicKeyOf, type Ed25519PublicJwk } from '../fairness/hashChain';
import { fingerprintOf } from '../trust/fingerprint';
import type { ExportBundle, Fail } from './exportBundle';
import { shown } from './shown';

/**
 * An export's (or a tournament header's) keys by kid, as the signature checks look them up. A kid is only a
 * label, so two different keys under one kid, or a `fingerprint` member that is not
 * the key's own, are failures: what is shown must be what was checked.
 */
export function signingKeysOf(keys: ExportBundle['keys']['keys'], fail: Fail): Map<string, Ed25519PublicJwk> {
  const byKid = new Map<string, Ed25519PublicJwk>();
  for (const key of keys) {
    if (!publicKeyOf(key)) continue; // a commit signed with it fails its signature check
    const fingerprint = fingerprintOf(key);
    const claimed = (key as { fingerprint?: unknown }).fingerprint;
    if (claimed !== undefined && claimed !== fingerprint) {
      fail(0, 'keys', `the key ${shown(key.kid)} claims the fingerprint ${shown(claimed)}, but its public key has ${fingerprint}`);
    }
    const earlier = byKid.get(key.kid);
    if (earlier && earlier.x !== key.x) fail(0, 'keys', `two different keys are both called ${shown(key.kid)}`);
    byKid.set(key.kid, key);
  }
  return byKid;
}
