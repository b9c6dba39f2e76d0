import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type JsonWebKey } from 'node:crypto';
import type { Ed25519PublicJwk } from '../../domain/fairness/hashChain';
import { fingerprintOf } from '../../domain/trust/fingerprint';
import type { KeyRotation } from '../../domain/trust/keyRotation';
import { publishedKey } from '../../domain/trust/publishedKey';
import type { Signer } from '../ports/signer';
export type { Signer } from '../ports/signer';

export interface StoredSigningKey {
  kid: string;
  /** The private key as a JWK (d and x). Never logged, never served. */
  jwk: JsonWebKey;
}

/** What a server knows of its keys: the one it signs with, those it retired, and the statements that retired them. */
export interface KeyRing {
  current: StoredSigningKey;
  retired: { kid: string; x: string }[];
  log: KeyRotation[];
}

export function generateSigningKey(): StoredSigningKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  return { kid: kidOf(jwk.x!), jwk };
}

export function kidOf(x: string): string {
  return `ed25519-${createHash('sha256').update(x).digest('hex').slice(0, 16)}`;
}

/** The public half of a stored key. */
export function publicJwkOf(stored: StoredSigningKey): Ed25519PublicJwk {
  const publicJwk = createPublicKey(createPrivateKey({ key: stored.jwk, format: 'jwk' })).export({ format: 'jwk' });
  return { kty: 'OKP', crv: 'Ed25519', x: publicJwk.x!, kid: stored.kid };
}

/** A signing function for one stored key: standard base64 Ed25519 over the raw 32 bytes of a hash. */
export function signWith(stored: StoredSigningKey): (hashHex: string) => string {
  const privateKey = createPrivateKey({ key: stored.jwk, format: 'jwk' });
  return (hashHex) => sign(null, Buffer.from(hashHex, 'hex'), privateKey).toString('base64');
}

/**
 * trust.md §6: a retired key signs nothing. Why the key `x` may not sign for a ring that
 * lists it as retired or whose log retired it (a signing key restored from a backup, a
 * rotation undone by hand), or undefined when it may.
 */
export function retiredKeyProblem(x: string, ring: { retired: { x: string }[]; log: KeyRotation[] }): string | undefined {
  const fingerprint = fingerprintOf({ x });
  const statement = ring.log.find((s) => s.previous === fingerprint);
  if (!statement && !ring.retired.some((k) => k.x === x)) return undefined;
  return `the signing key ${fingerprint} is retired${statement ? ` (key log statement ${statement.n}, ${statement.at})` : ''}: a retired key signs nothing, so this server will not sign with it`;
}

export class RetiredKeyError extends Error {}

/** Throws RetiredKeyError for a ring whose current key is retired: the server never signs with one. */
export function signerFromKeyRing(ring: KeyRing): Signer {
  const current = publicJwkOf(ring.current);
  const retiredProblem = retiredKeyProblem(current.x, ring);
  if (retiredProblem) throw new RetiredKeyError(retiredProblem);
  const retired: Ed25519PublicJwk[] = ring.retired.map(({ kid, x }) => ({ kty: 'OKP', crv: 'Ed25519', x, kid }));
  const published = [publishedKey(current, 'current'), ...retired.map((jwk) => publishedKey(jwk, 'retired'))];
  const sign = signWith(ring.current);
  return {
    kid: ring.current.kid,
    fingerprint: published[0].fingerprint,
    canSign: true,
    sign: async (hashHex) => sign(hashHex),
    publicJwks: () => [current, ...retired],
    keysDocument: () => ({ keys: published, log: ring.log }),
  };
}

/** What a signer publishes, without the power to sign: for functions that serve keys and stored heads. */
export function publishingOnly(signer: Signer): Signer {
  return {
    kid: signer.kid,
    fingerprint: signer.fingerprint,
    canSign: false,
    sign: () => Promise.reject(new Error('this function may not sign')),
    publicJwks: () => signer.publicJwks(),
    keysDocument: () => signer.keysDocument(),
  };
}

/** A server that never rotated: one key, an empty log. */
export function signerFromKey(stored: StoredSigningKey): Signer {
  return signerFromKeyRing({ current: stored, retired: [], log: [] });
}
