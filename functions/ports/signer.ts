import type { Ed25519PublicJwk } from '../../domain/fairness/hashChain';
import type { KeyRotation } from '../../domain/trust/keyRotation';
import type { PublishedKey } from '../../domain/trust/publishedKey';

/**
 * Signs commit hashes and statements with the server's current Ed25519 key (fairness-v1 §5,
 * trust.md): a key in a file (the local server), or one that never leaves a key service
 * (kmsSigner.ts). A function that only publishes keys has a signer that cannot sign.
 */
export interface Signer {
  readonly kid: string;
  /** trust.md §1: `ed25519:<thumbprint>` of the current key, the one users pin. */
  readonly fingerprint: string;
  /** False in functions that may only publish the keys (they serve heads stored by the signing function). */
  readonly canSign: boolean;
  /** Standard base64 Ed25519 signature of the raw 32 bytes of a hex hash. */
  sign(hashHex: string): Promise<string>;
  /** The current key, then the retired ones: every key that signed a commit still served. */
  publicJwks(): Ed25519PublicJwk[];
  /** GET /keys (trust.md §2). */
  keysDocument(): { keys: PublishedKey[]; log: KeyRotation[] };
}
