import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToNumberLE, equalBytes } from '@noble/curves/utils.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 as nobleSha256, sha512 } from '@noble/hashes/sha2.js';
import { utf8Of } from './encoding';
import type { CryptoPrimitives, Ed25519PublicKey } from './port';

// The crypto port (port.ts) in plain JavaScript, for browser bundles: they put this
// file in place of primitives.ts (verifier/browserBundle.ts).

const bytesOf = (data: Uint8Array | string) => (typeof data === 'string' ? utf8Of(data) : data);

export function sha256(data: Uint8Array | string): Uint8Array {
  return nobleSha256(bytesOf(data));
}

export function hmacSha256(key: Uint8Array, data: Uint8Array | string): Uint8Array {
  return hmac(nobleSha256, key, bytesOf(data));
}

const { Point } = ed25519;
type Point = InstanceType<typeof Point>;

class BrowserEd25519Key {
  constructor(
    readonly bytes: Uint8Array,
    /** Null when the bytes are no point of the curve: such a key verifies nothing. */
    readonly point: Point | null,
  ) {}
}

export function ed25519PublicKey(raw: Uint8Array): Ed25519PublicKey | undefined {
  if (raw.length !== 32) return undefined;
  const bytes = Uint8Array.from(raw);
  let point: Point | null = null;
  try {
    // As OpenSSL decodes A: y need not be reduced, and x = 0 may carry a sign bit.
    point = Point.fromBytes(bytes, true);
  } catch {
    // not a point
  }
  return new BrowserEd25519Key(bytes, point) as unknown as Ed25519PublicKey;
}

export function isEd25519PublicKey(value: unknown): value is Ed25519PublicKey {
  return value instanceof BrowserEd25519Key;
}

/**
 * The equation OpenSSL checks (and Node with it), so that both verifiers accept the
 * same signatures, odd ones included: S < L, then the canonical encoding of
 * [S]B - [k]A, k = SHA-512(R || A || M) mod L, must be R's 32 bytes. noble's own
 * verify checks the cofactored equation and refuses small-order keys, which differs
 * from OpenSSL on crafted inputs.
 */
export function ed25519Verify(key: Ed25519PublicKey, message: Uint8Array, signature: Uint8Array): boolean {
  const { bytes, point } = key as unknown as BrowserEd25519Key;
  if (!point || signature.length !== 64) return false;
  const r = signature.subarray(0, 32);
  const s = bytesToNumberLE(signature.subarray(32));
  if (s >= Point.Fn.ORDER) return false;
  const k = Point.Fn.create(bytesToNumberLE(sha512.create().update(r).update(bytes).update(message).digest()));
  const expected = Point.BASE.multiplyUnsafe(s).subtract(point.multiplyUnsafe(k));
  return equalBytes(expected.toBytes(), r);
}

void ({ sha256, hmacSha256, ed25519PublicKey, isEd25519PublicKey, ed25519Verify } satisfies CryptoPrimitives);
