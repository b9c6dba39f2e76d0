import { createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCanonicalX, publicKeyOf, signatureIsValid, type Ed25519PublicJwk } from '../../../domain/fairness/hashChain';

// The checks as they were written on Node's Buffer and KeyObject, before the crypto
// port: what publicKeyOf and signatureIsValid must still answer.
const before = {
  isCanonicalX: (x: unknown) => typeof x === 'string' && /^[A-Za-z0-9_-]{43}$/.test(x) && Buffer.from(x, 'base64url').toString('base64url') === x,
  publicKeyOf(jwk: Ed25519PublicJwk) {
    if (!before.isCanonicalX(jwk.x)) return undefined;
    try {
      const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x } as never, format: 'jwk' });
      return key.asymmetricKeyType === 'ed25519' ? key : undefined;
    } catch {
      return undefined;
    }
  },
  signatureIsValid(hashHex: string, signatureB64: string, jwk: Ed25519PublicJwk) {
    if (!/^[0-9a-f]{64}$/.test(hashHex)) return false;
    const signature = Buffer.from(signatureB64, 'base64');
    if (signature.length !== 64 || signature.toString('base64') !== signatureB64) return false;
    const key = before.publicKeyOf(jwk);
    return key !== undefined && verify(null, Buffer.from(hashHex, 'hex'), key, signature);
  },
};

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const x = publicKey.export({ format: 'jwk' }).x!;
const jwk = { kty: 'OKP', crv: 'Ed25519', x, kid: 'k' } as Ed25519PublicJwk;
const hash = 'ab'.repeat(32);
const signature = sign(null, Buffer.from(hash, 'hex'), privateKey).toString('base64');
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The same 64 bytes with an unused bit of the last character set: Buffer reads it, the check refuses it. */
const looseSignature = `${signature.slice(0, 85)}${BASE64[BASE64.indexOf(signature[85]) | 1]}==`;
/** `text` with one character replaced. */
const edited = (text: string) =>
  fc.tuple(fc.nat(), fc.constantFrom(...'AQgw/+_-=0F')).map(([at, c]) => text.slice(0, at % text.length) + c + text.slice((at % text.length) + 1));

describe('publicKeyOf and signatureIsValid answer as before the crypto port', () => {
  it('take a key only as OKP, Ed25519, and x written canonically', () => {
    fc.assert(
      fc.property(fc.constantFrom('OKP', 'okp', 'EC', undefined), fc.constantFrom('Ed25519', 'ed25519', 'X25519', 'Ed448', undefined), fc.oneof(fc.constant(x), edited(x), fc.constant(`${x}=`)), (kty, crv, x) => {
        const key = { kty, crv, x, kid: 'k' } as Ed25519PublicJwk;
        expect(isCanonicalX(x)).toBe(before.isCanonicalX(x));
        expect(publicKeyOf(key) !== undefined).toBe(before.publicKeyOf(key) !== undefined);
      }),
      { numRuns: 500 },
    );
    expect(publicKeyOf(jwk)).toBeDefined();
  });

  it('accept a signature only in canonical base64, of the hash in lowercase hex', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(hash), edited(hash), fc.constant(hash.toUpperCase())), fc.oneof(fc.constant(signature), edited(signature), fc.constant(looseSignature), fc.constant(signature.slice(0, -2))), (hashHex, signatureB64) => {
        const expected = before.signatureIsValid(hashHex, signatureB64, jwk);
        expect(signatureIsValid(hashHex, signatureB64, jwk)).toBe(expected);
        expect(signatureIsValid(hashHex, signatureB64, publicKeyOf(jwk)!)).toBe(expected);
      }),
      { numRuns: 500 },
    );
    expect(signatureIsValid(hash, signature, jwk)).toBe(true);
    expect(Buffer.from(looseSignature, 'base64')).toEqual(Buffer.from(signature, 'base64'));
    expect(signatureIsValid(hash, looseSignature, jwk)).toBe(false);
  });
});
