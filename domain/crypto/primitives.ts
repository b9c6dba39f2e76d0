import { createHash, createHmac, createPublicKey, KeyObject, verify } from 'node:crypto';
import type { CryptoPrimitives, Ed25519PublicKey } from './port';

// The crypto port (port.ts) as Node gives it, through OpenSSL. Domain code imports
// this file, and only this one; the one file under domain/ allowed node: and Buffer.
// A browser bundle swaps it for browserPrimitives.ts at bundle time
// (verifier/browserBundle.ts): esbuild's `alias` option only rewrites package
// names, never a relative path like this one, so a resolve plugin does the swap.

export function sha256(data: Uint8Array | string): Uint8Array {
  return createHash('sha256').update(data).digest();
}

export function hmacSha256(key: Uint8Array, data: Uint8Array | string): Uint8Array {
  return createHmac('sha256', key).update(data).digest();
}

/** A KeyObject: building one costs more than a verification, hence one per key. */
export function ed25519PublicKey(raw: Uint8Array): Ed25519PublicKey | undefined {
  if (raw.length !== 32) return undefined;
  try {
    const x = Buffer.from(raw.buffer, raw.byteOffset, raw.length).toString('base64url');
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' }) as unknown as Ed25519PublicKey;
  } catch {
    return undefined;
  }
}

export function isEd25519PublicKey(value: unknown): value is Ed25519PublicKey {
  return value instanceof KeyObject && value.type === 'public' && value.asymmetricKeyType === 'ed25519';
}

export function ed25519Verify(key: Ed25519PublicKey, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    return verify(null, message, key as unknown as KeyObject, signature);
  } catch {
    return false;
  }
}

void ({ sha256, hmacSha256, ed25519PublicKey, isEd25519PublicKey, ed25519Verify } satisfies CryptoPrimitives);
