/**
 * The tokens of a game created with an Idempotency-Key are derived from the key by a secret
 * only the creating function holds, so that the same key answers the same tokens again
 * while the server still stores nothing but their hashes.
 */
export interface TokenMinter {
  /** 32 bytes for this key (by its hash); the same key, the same bytes. */
  master(keyHash: string): Promise<Buffer>;
  /** A keyed hash of a client's address, for the creation quota: the store never holds the address itself. */
  clientKey(address: string): Promise<string>;
}
