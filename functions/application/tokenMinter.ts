import { GenerateMacCommand, type KMSClient } from '@aws-sdk/client-kms';
import { createHmac } from 'node:crypto';
import type { TokenMinter } from '../ports/tokenMinter';
export type { TokenMinter } from '../ports/tokenMinter';

const LABEL = 'arbiter-creation-tokens:v1|';
const CLIENT_LABEL = 'arbiter-creation-quota:v1|';

/** The local server's: HMAC-SHA256 under a key in its data directory. */
export function hmacTokenMinter(key: Buffer): TokenMinter {
  if (key.length !== 32) throw new Error('a token key has 32 bytes');
  const mac = (text: string) => createHmac('sha256', key).update(text, 'utf8').digest();
  return {
    master: async (keyHash) => mac(`${LABEL}${keyHash}`),
    clientKey: async (address) => mac(`${CLIENT_LABEL}${address}`).toString('base64url'),
  };
}

/** On AWS: KMS GenerateMac with an HMAC key that only the creating function may use. */
export function kmsTokenMinter(client: KMSClient, keyId: string): TokenMinter {
  const mac = async (text: string) => {
    const answer = await client.send(new GenerateMacCommand({ KeyId: keyId, MacAlgorithm: 'HMAC_SHA_256', Message: Buffer.from(text, 'utf8') }));
    const bytes = Buffer.from(answer.Mac ?? new Uint8Array());
    if (bytes.length !== 32) throw new Error('KMS answered a MAC that is not 32 bytes');
    return bytes;
  };
  return {
    master: (keyHash) => mac(`${LABEL}${keyHash}`),
    clientKey: async (address) => (await mac(`${CLIENT_LABEL}${address}`)).toString('base64url'),
  };
}

export const noTokenMinter: TokenMinter = {
  master: () => Promise.reject(new Error('this function may not create games')),
  clientKey: () => Promise.reject(new Error('this function may not create games')),
};

/** A role's token from the creation's master bytes: as long and as random-looking as newToken's. */
export function derivedToken(master: Buffer, role: string): string {
  return `arb_${createHmac('sha256', master).update(`token|${role}`, 'utf8').digest('base64url')}`;
}
