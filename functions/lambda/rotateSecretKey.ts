import { GetSecretValueCommand, PutSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { randomBytes } from 'node:crypto';
import { fingerprintOf } from '../../domain/trust/fingerprint';
import { buildKeyRotation } from '../../domain/trust/keyRotation';
import { keyRingFromSecret, publicJwkOf, signWith, signingKeyFromSecret, type RotatedSecret } from '../application/signer';

/**
 * Rotates the deployed signing key (trust.md §3): new secret text, a KeyRotation statement
 * signed by the old key, the old public key kept as retired, all in a new version of the
 * signing secret. Functions started from then on sign with the new key and publish the log.
 */
export async function rotateSecretKey(client: SecretsManagerClient, secretId: string, at: string): Promise<{ previous: string; next: string; n: number }> {
  const text = (await client.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
  if (!text) throw new Error('the signing secret has no text');
  const ring = keyRingFromSecret(text);
  const old = publicJwkOf(ring.current);
  const nextText = randomBytes(48).toString('base64url');
  const fresh = publicJwkOf(signingKeyFromSecret(nextText));
  const statement = buildKeyRotation({ n: ring.log.length + 1, previous: fingerprintOf(old), next: fresh, at }, signWith(ring.current));
  const rotated: RotatedSecret = { current: nextText, retired: [...ring.retired, { kid: old.kid, x: old.x }], log: [...ring.log, statement] };
  await client.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: JSON.stringify(rotated) }));
  return { previous: statement.previous, next: fingerprintOf(fresh), n: statement.n };
}
