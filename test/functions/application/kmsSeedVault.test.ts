import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { kmsSecretVault, kmsSeedVault } from '../../../functions/application/kmsSeedVault';

const KEY_ARN = 'arn:aws:kms:eu-west-1:000000000000:key/seed';
const kms = mockClient(KMSClient);
afterEach(() => kms.reset());

/** KMS as far as a seed sees it: authenticated encryption bound to the encryption context. */
function fakeSymmetricKey() {
  const key = randomBytes(32);
  const aad = (context: Record<string, string> | undefined) => Buffer.from(JSON.stringify(context ?? {}));
  kms.on(EncryptCommand).callsFake(({ Plaintext, EncryptionContext }: { Plaintext: Uint8Array; EncryptionContext?: Record<string, string> }) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(EncryptionContext));
    const body = Buffer.concat([cipher.update(Plaintext), cipher.final()]);
    return { KeyId: KEY_ARN, CiphertextBlob: new Uint8Array(Buffer.concat([iv, cipher.getAuthTag(), body])) };
  });
  kms.on(DecryptCommand).callsFake(({ CiphertextBlob, EncryptionContext }: { CiphertextBlob: Uint8Array; EncryptionContext?: Record<string, string> }) => {
    const blob = Buffer.from(CiphertextBlob);
    const decipher = createDecipheriv('aes-256-gcm', key, blob.subarray(0, 12)).setAAD(aad(EncryptionContext));
    decipher.setAuthTag(blob.subarray(12, 28));
    try {
      return { KeyId: KEY_ARN, Plaintext: new Uint8Array(Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()])) };
    } catch {
      throw Object.assign(new Error('InvalidCiphertextException'), { name: 'InvalidCiphertextException' });
    }
  });
}

describe('the KMS seed vault', () => {
  it('seals a seed with Encrypt under the game id as encryption context, and opens it with Decrypt', async () => {
    fakeSymmetricKey();
    const vault = kmsSeedVault(new KMSClient({ region: 'eu-west-1' }), KEY_ARN);
    const seed = randomBytes(32);
    const sealed = await vault.seal('g-1', seed);
    expect(sealed).toMatch(/^kms-v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(seed.toString('base64url'));
    expect(kms.commandCalls(EncryptCommand)[0].args[0].input).toEqual({ KeyId: KEY_ARN, Plaintext: seed, EncryptionContext: { gameId: 'g-1' } });
    expect((await vault.open('g-1', sealed)).equals(seed)).toBe(true);
    expect(kms.commandCalls(DecryptCommand)[0].args[0].input).toMatchObject({ KeyId: KEY_ARN, EncryptionContext: { gameId: 'g-1' } });
  });

  it("refuses a seed moved to another game, and text that is not its own", async () => {
    fakeSymmetricKey();
    const vault = kmsSeedVault(new KMSClient({ region: 'eu-west-1' }), KEY_ARN);
    const sealed = await vault.seal('g-1', randomBytes(32));
    await expect(vault.open('g-2', sealed)).rejects.toThrow(/InvalidCiphertext/);
    await expect(vault.open('g-1', 'aes256gcm-v1.a.b.c')).rejects.toThrow(/not a seed sealed by KMS/);
  });

  it('opens a notification subscription\'s sealed target, of any length, under its own context; the seed vault still refuses anything but 32 bytes', async () => {
    fakeSymmetricKey();
    const client = new KMSClient({ region: 'eu-west-1' });
    const target = Buffer.from(JSON.stringify({ url: 'https://discord.com/api/webhooks/1/secret-part', secret: 'whsec_' + 'A'.repeat(44) }), 'utf8');
    // The commands function seals with the seed vault (sealing checks no length); the delivery function opens with the secret vault.
    const sealed = await kmsSeedVault(client, KEY_ARN).seal('subscription:s-1', target);
    expect((await kmsSecretVault(client, KEY_ARN).open('subscription:s-1', sealed)).equals(target)).toBe(true);
    expect(kms.commandCalls(DecryptCommand)[0].args[0].input).toMatchObject({ EncryptionContext: { gameId: 'subscription:s-1' } });
    await expect(kmsSecretVault(client, KEY_ARN).open('subscription:s-2', sealed)).rejects.toThrow(/InvalidCiphertext/);
    await expect(kmsSeedVault(client, KEY_ARN).open('subscription:s-1', sealed)).rejects.toThrow('KMS answered a seed that is not 32 bytes');
  });
});
