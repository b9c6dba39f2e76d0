import { createHash, createPublicKey, KeyObject, verify, type JsonWebKey } from 'node:crypto';
import { canonicalJson } from '../canonicalJson';
import type { Die } from '../dice';

export const GENESIS_PREV_HASH = '0'.repeat(64);

export interface RecordedEvent {
  type: string;
  data: Record<string, unknown>;
}

export interface RecordedCommand {
  type: string;
  payload: unknown;
}

/** A commit before it is hashed and signed (fairness-v1 §5). */
export interface UnsignedCommit {
  gameId: string;
  seq: number;
  commandId: string;
  actor: string;
  as?: 'organizer';
  command: RecordedCommand;
  events: RecordedEvent[];
  dice: Die[];
  recordedAt: string;
  kid: string;
  prevHash: string;
}

export interface Commit extends UnsignedCommit {
  hash: string;
  signature: string;
}

/** fairness-v1 §5: hash = hex(SHA-256(UTF8(JCS(record without hash and signature)))). */
export function commitHash(record: UnsignedCommit | Commit): string {
  const { hash: _h, signature: _s, ...unsigned } = record as Commit;
  return createHash('sha256').update(canonicalJson(unsigned), 'utf8').digest('hex');
}

export interface Ed25519PublicJwk extends JsonWebKey {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
}

/**
 * An Ed25519 `x` written the one way RFC 8037 allows: 43 base64url characters, no padding,
 * unused bits zero. Other spellings of the same key would hash to other fingerprints.
 */
export function isCanonicalX(x: unknown): x is string {
  return typeof x === 'string' && /^[A-Za-z0-9_-]{43}$/.test(x) && Buffer.from(x, 'base64url').toString('base64url') === x;
}

/** The key object of a published JWK, or undefined when it is not an Ed25519 public key written canonically. */
export function publicKeyOf(jwk: Ed25519PublicJwk): KeyObject | undefined {
  if (!isCanonicalX(jwk?.x)) return undefined;
  try {
    const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
    return key.asymmetricKeyType === 'ed25519' ? key : undefined;
  } catch {
    return undefined;
  }
}

/** fairness-v1 §5: signature = base64(Ed25519(serverKey, raw 32 bytes of hash)). */
export function signatureIsValid(hashHex: string, signatureB64: string, key: KeyObject | Ed25519PublicJwk): boolean {
  if (typeof hashHex !== 'string' || typeof signatureB64 !== 'string' || !/^[0-9a-f]{64}$/.test(hashHex)) return false;
  // Only the canonical encoding counts: otherwise unused padding bits could be flipped unnoticed.
  const signature = Buffer.from(signatureB64, 'base64');
  if (signature.length !== 64 || signature.toString('base64') !== signatureB64) return false;
  const keyObject = key instanceof KeyObject ? key : publicKeyOf(key);
  if (!keyObject) return false;
  try {
    return verify(null, Buffer.from(hashHex, 'hex'), keyObject, signature);
  } catch {
    return false;
  }
}
