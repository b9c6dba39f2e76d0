import { base64urlOf } from '../crypto/encoding';
import { sha256 } from '../crypto/primitives';

/** trust.md §1: how a fingerprint is written to people, `ed25519:` and 43 base64url characters. */
export const FINGERPRINT_PATTERN = /^ed25519:[A-Za-z0-9_-]{43}$/;

/**
 * trust.md §1: the RFC 7638 thumbprint of an Ed25519 public key, SHA-256 of
 * `{"crv":"Ed25519","kty":"OKP","x":"<x>"}` in base64url without padding.
 * Only `x` counts: the kid is a label anyone can choose.
 */
export function fingerprintOf(jwk: { x: string }): string {
  const members = `{"crv":"Ed25519","kty":"OKP","x":${JSON.stringify(jwk.x)}}`;
  return `ed25519:${base64urlOf(sha256(members))}`;
}

export function isFingerprint(text: unknown): text is string {
  return typeof text === 'string' && FINGERPRINT_PATTERN.test(text);
}
