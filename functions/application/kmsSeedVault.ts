import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { SeedVault } from '../ports/seedVault';

const FORMAT = 'kms-v1';
const SEED_BYTES = 32;

/**
 * Server seeds sealed by a symmetric KMS key that only the function that rolls may use:
 * KMS Encrypt of the 32 bytes, the game id as encryption context (a seed can't be moved to
 * another game, and CloudTrail names the game of each Decrypt).
 */
export function kmsSeedVault(client: KMSClient, keyId: string): SeedVault {
  return kmsVault(client, keyId, SEED_BYTES);
}

/**
 * Other secrets sealed the same way and under the same key (a notification subscription's
 * target, sealed under `subscription:<id>` as its context): opened whatever their length.
 */
export function kmsSecretVault(client: KMSClient, keyId: string): SeedVault {
  return kmsVault(client, keyId);
}

function kmsVault(client: KMSClient, keyId: string, openedBytes?: number): SeedVault {
  const context = (gameId: string) => ({ gameId });
  return {
    async seal(gameId, seed) {
      const answer = await client.send(new EncryptCommand({ KeyId: keyId, Plaintext: seed, EncryptionContext: context(gameId) }));
      if (!answer.CiphertextBlob?.length) throw new Error('KMS answered no ciphertext');
      return `${FORMAT}.${Buffer.from(answer.CiphertextBlob).toString('base64url')}`;
    },
    async open(gameId, sealed) {
      const [format, blob] = sealed.split('.');
      if (format !== FORMAT || !blob) throw new Error('not a seed sealed by KMS');
      const answer = await client.send(new DecryptCommand({ KeyId: keyId, CiphertextBlob: Buffer.from(blob, 'base64url'), EncryptionContext: context(gameId) }));
      const opened = Buffer.from(answer.Plaintext ?? new Uint8Array());
      if (openedBytes !== undefined && opened.length !== openedBytes) throw new Error(`KMS answered a seed that is not ${openedBytes} bytes`);
      return opened;
    },
  };
}
