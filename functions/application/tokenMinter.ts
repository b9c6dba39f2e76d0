import { GenerateMacCommand, type KMSClient } from '@aws-sdk/client-kms';
import { createHmac } from 'node:crypto';

/**
 * The tokens of a game created with an Idempotency-Key are derived from the key by a secret
 * only the creating function holds, so that the same key answers the same tokens again
 * while the server still stores nothing but their hashes.
 */
export interface TokenMinter {
  /** 32 bytes for this key (by its hash); the same key, the same bytes. */
  master(keyHash: string): Promise<Buffer>;
}

const LABEL = 'arbiter-creation-tokens:v1|';

/** The local server's: HMAC-SHA256 under a key in its data directory. */
export function hmacTokenMinter(key: Buffer): TokenMinter {
  if (key.length !== 32) throw new Error('a token key has 32 bytes');
  return { master: async (keyHash) => createHmac('sha256', key).update(`${LABEL}${keyHash}`, 'utf8').digest() };
}

/** On AWS: KMS GenerateMac with an HMAC key that only the creating function may use. */
export function kmsTokenMinter(client: KMSClient, keyId: string): TokenMinter {
  return {
    async master(keyHash) {
      const answer = await client.send(new GenerateMacCommand({ KeyId: keyId, MacAlgorithm: 'HMAC_SHA_256', Message: Buffer.from(`${LABEL}${keyHash}`, 'utf8') }));
      const mac = Buffer.from(answer.Mac ?? new Uint8Array());
      if (mac.length !== 32) throw new Error('KMS answered a MAC that is not 32 bytes');
      return mac;
    },
  };
}

export const noTokenMinter: TokenMinter = {
  master: () => Promise.reject(new Error('this function may not create games')),
};

/** A role's token from the creation's master bytes: as long and as random-looking as newToken's. */
export function derivedToken(master: Buffer, role: string): string {
  return `arb_${createHmac('sha256', master).update(`token|${role}`, 'utf8').digest('base64url')}`;
}
