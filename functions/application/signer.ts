import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type JsonWebKey } from 'node:crypto';
import type { Ed25519PublicJwk } from '../../domain/fairness/hashChain';

/** Signs commit hashes with the server's Ed25519 key (fairness-v1 §5). */
export interface Signer {
  readonly kid: string;
  sign(hashHex: string): string;
  publicJwks(): Ed25519PublicJwk[];
}

export interface StoredSigningKey {
  kid: string;
  /** The private key as a JWK (d and x). Never logged, never served. */
  jwk: JsonWebKey;
}

export function generateSigningKey(): StoredSigningKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  return { kid: kidOf(jwk.x!), jwk };
}

/** PKCS#8 DER header of an Ed25519 private key; the 32-byte seed follows it (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The deployed service's key, derived from the secret the stack creates (Secrets Manager
 * generates text, not Ed25519 keys): seed = SHA-256(secret text).
 */
export function signingKeyFromSecret(secretText: string): StoredSigningKey {
  const seed = createHash('sha256').update(secretText, 'utf8').digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const jwk = privateKey.export({ format: 'jwk' });
  return { kid: kidOf(jwk.x!), jwk };
}

export function kidOf(x: string): string {
  return `ed25519-${createHash('sha256').update(x).digest('hex').slice(0, 16)}`;
}

export function signerFromKey(stored: StoredSigningKey, retired: Ed25519PublicJwk[] = []): Signer {
  const privateKey = createPrivateKey({ key: stored.jwk, format: 'jwk' });
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const current: Ed25519PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: publicJwk.x!, kid: stored.kid };
  return {
    kid: stored.kid,
    sign: (hashHex) => sign(null, Buffer.from(hashHex, 'hex'), privateKey).toString('base64'),
    publicJwks: () => [current, ...retired],
  };
}
