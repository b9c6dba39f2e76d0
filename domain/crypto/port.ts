declare const opaque: unique symbol;

/** An Ed25519 public key made ready for verifying: make one per key and keep it. */
export type Ed25519PublicKey = { readonly [opaque]: 'Ed25519PublicKey' };

/**
 * The cryptography the domain needs, as primitives.ts (Node) and browserPrimitives.ts
 * both export it. Text is hashed as its UTF-8 bytes.
 */
export interface CryptoPrimitives {
  sha256(data: Uint8Array | string): Uint8Array;
  hmacSha256(key: Uint8Array, data: Uint8Array | string): Uint8Array;
  /**
   * Any 32 bytes give a key, as in OpenSSL: one that is no point of the curve
   * verifies nothing. Undefined for any other length.
   */
  ed25519PublicKey(raw: Uint8Array): Ed25519PublicKey | undefined;
  isEd25519PublicKey(value: unknown): value is Ed25519PublicKey;
  /** RFC 8032 Ed25519 (pure, no context), checked as OpenSSL checks it; never throws. */
  ed25519Verify(key: Ed25519PublicKey, message: Uint8Array, signature: Uint8Array): boolean;
}
