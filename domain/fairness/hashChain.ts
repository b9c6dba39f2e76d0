import { canonicalJson } from '../canonicalJson';
import { bytesOfBase64, bytesOfBase64url, bytesOfHex, hexOf } from '../crypto/encoding';
import type { Ed25519PublicKey } from '../crypto/port';
import { ed25519PublicKey, ed25519Verify, isEd25519PublicKey, sha256 } from '../crypto/primitives';
import type { Die } from './die';

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
  return hexOf(sha256(canonicalJson(unsigned)));
}

export interface Ed25519PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  [member: string]: unknown;
}

/**
 * An Ed25519 `x` written the one way RFC 8037 allows: 43 base64url characters, no padding,
 * unused bits zero. Other spellings of the same key would hash to other fingerprints.
 */
export function isCanonicalX(x: unknown): x is string {
  return typeof x === 'string' && /^[A-Za-z0-9_-]{43}$/.test(x) && bytesOfBase64url(x) !== undefined;
}

/**
 * The key ready for verifying of a published JWK, or undefined when it is not an
 * Ed25519 public key written canonically. Keep it to verify many signatures.
 */
export function publicKeyOf(jwk: Ed25519PublicJwk): Ed25519PublicKey | undefined {
  if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !isCanonicalX(jwk.x)) return undefined;
  return ed25519PublicKey(bytesOfBase64url(jwk.x)!);
}

/** fairness-v1 §5: signature = base64(Ed25519(serverKey, raw 32 bytes of hash)). */
export function signatureIsValid(hashHex: string, signatureB64: string, key: Ed25519PublicKey | Ed25519PublicJwk): boolean {
  if (typeof hashHex !== 'string' || typeof signatureB64 !== 'string' || !/^[0-9a-f]{64}$/.test(hashHex)) return false;
  const signature = bytesOfBase64(signatureB64);
  if (signature?.length !== 64) return false;
  const publicKey = isEd25519PublicKey(key) ? key : publicKeyOf(key);
  if (!publicKey) return false;
  return ed25519Verify(publicKey, bytesOfHex(hashHex)!, signature);
}
