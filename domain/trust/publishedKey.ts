import type { Ed25519PublicJwk } from '../fairness/hashChain';
import { fingerprintOf } from './fingerprint';

/** One entry of GET /keys and of an export's `keys` (trust.md §2). */
export interface PublishedKey extends Ed25519PublicJwk {
  use: 'sig';
  alg: 'EdDSA';
  fingerprint: string;
  status: 'current' | 'retired';
}

export function publishedKey(jwk: { x: string; kid: string }, status: PublishedKey['status']): PublishedKey {
  const key = { kty: 'OKP' as const, crv: 'Ed25519' as const, x: jwk.x, kid: jwk.kid };
  return { ...key, use: 'sig', alg: 'EdDSA', fingerprint: fingerprintOf(key), status };
}
