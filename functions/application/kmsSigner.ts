import { GetPublicKeyCommand, SignCommand, type KMSClient } from '@aws-sdk/client-kms';
import { createPublicKey, verify } from 'node:crypto';
import type { Ed25519PublicJwk } from '../../domain/fairness/hashChain';
import type { KeyRotation } from '../../domain/trust/keyRotation';
import { publishedKey } from '../../domain/trust/publishedKey';
import type { Signer } from '../ports/signer';
import { kidOf, RetiredKeyError, retiredKeyProblem } from './signer';

/** SubjectPublicKeyInfo DER of an Ed25519 key (RFC 8410): this header, then the 32 bytes of x. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A key ring whose keys live in KMS: the current key by id, the retired ones by their public halves. */
export interface KmsKeyRing {
  /** Key id or ARN of the current KMS key (spec ECC_NIST_EDWARDS25519, usage SIGN_VERIFY). */
  currentKeyId: string;
  retired: { kid: string; x: string }[];
  log: KeyRotation[];
}

/** The 32-byte public key x of an Ed25519 KMS key, from GetPublicKey's DER. */
export async function kmsPublicKey(client: KMSClient, keyId: string): Promise<Ed25519PublicJwk> {
  const answer = await client.send(new GetPublicKeyCommand({ KeyId: keyId }));
  if (answer.KeySpec !== 'ECC_NIST_EDWARDS25519' || answer.KeyUsage !== 'SIGN_VERIFY') {
    throw new Error(`KMS key ${keyId} is ${answer.KeySpec ?? '?'} for ${answer.KeyUsage ?? '?'}, not an Ed25519 signing key`);
  }
  const der = Buffer.from(answer.PublicKey ?? new Uint8Array());
  if (der.length !== ED25519_SPKI_PREFIX.length + 32 || !der.subarray(0, ED25519_SPKI_PREFIX.length).equals(ED25519_SPKI_PREFIX)) {
    throw new Error(`KMS key ${keyId} answered a public key that is not Ed25519 SubjectPublicKeyInfo`);
  }
  const x = der.subarray(ED25519_SPKI_PREFIX.length).toString('base64url');
  return { kty: 'OKP', crv: 'Ed25519', x, kid: kidOf(x) };
}

/**
 * A signer whose private key never leaves KMS. KMS's ED25519_SHA_512 with MessageType RAW
 * is PureEdDSA (RFC 8032 §5.1.6) over the message bytes; the message here is the raw 32
 * bytes of the hash, so the 64-byte signature KMS answers is exactly the fairness-v1
 * signature (Ed25519 over the raw hash bytes). Each signature is checked against the
 * public key before it is used: a commit is never stored with a signature that does not verify.
 *
 * `mode: 'publish'` builds the same signer for a function that may only read the public
 * key (kms:GetPublicKey): it publishes keys and cannot sign.
 */
export async function kmsSigner(client: KMSClient, ring: KmsKeyRing, mode: 'sign' | 'publish' = 'sign'): Promise<Signer> {
  const current = await kmsPublicKey(client, ring.currentKeyId);
  const retiredProblem = retiredKeyProblem(current.x, ring);
  if (retiredProblem && mode === 'sign') throw new RetiredKeyError(retiredProblem);
  const retired: Ed25519PublicJwk[] = ring.retired.map(({ kid, x }) => ({ kty: 'OKP', crv: 'Ed25519', x, kid }));
  const published = [publishedKey(current, 'current'), ...retired.map((jwk) => publishedKey(jwk, 'retired'))];
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: current.x }, format: 'jwk' });
  return {
    kid: current.kid,
    fingerprint: published[0].fingerprint,
    canSign: mode === 'sign',
    async sign(hashHex) {
      if (mode !== 'sign') throw new Error('this function may not sign');
      const message = Buffer.from(hashHex, 'hex');
      const answer = await client.send(
        new SignCommand({ KeyId: ring.currentKeyId, Message: message, MessageType: 'RAW', SigningAlgorithm: 'ED25519_SHA_512' }),
      );
      const signature = Buffer.from(answer.Signature ?? new Uint8Array());
      if (signature.length !== 64 || !verify(null, message, publicKey, signature)) {
        throw new Error(`KMS key ${ring.currentKeyId} answered a signature that does not verify as Ed25519 over the hash`);
      }
      return signature.toString('base64');
    },
    publicJwks: () => [current, ...retired],
    keysDocument: () => ({ keys: published, log: ring.log }),
  };
}
