import { ED25519_TORSION_SUBGROUP, ed25519 } from '@noble/curves/ed25519.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../domain/canonicalJson';
import * as browser from '../../../domain/crypto/browserPrimitives';
import { bytesOfHex, hexOf } from '../../../domain/crypto/encoding';
import type { CryptoPrimitives } from '../../../domain/crypto/port';
import * as node from '../../../domain/crypto/primitives';
import { VECTOR } from '../fairness/vector';

const implementations: [string, CryptoPrimitives][] = [
  ['node', node],
  ['browser', browser],
];
const hex = (text: string) => bytesOfHex(text)!;
const bytes = fc.uint8Array({ maxLength: 200 });
const text = fc.string({ unit: 'binary', maxLength: 100 });

/** Whether the Node and browser implementations both verify (or both refuse) the signature, and which. */
function verdict(key: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const [byNode, byBrowser] = [node, browser].map((p) => p.ed25519Verify(p.ed25519PublicKey(key)!, message, signature));
  expect(byBrowser, `key ${hexOf(key)} signature ${hexOf(signature)} message ${hexOf(message)}`).toBe(byNode);
  return byNode;
}

describe('SHA-256 and HMAC-SHA256: Node and browser agree', () => {
  it('on random bytes and text (text as UTF-8)', () => {
    fc.assert(
      fc.property(fc.oneof(bytes, text), fc.uint8Array({ maxLength: 150 }), (data, key) => {
        expect(hexOf(browser.sha256(data))).toBe(hexOf(node.sha256(data)));
        expect(hexOf(browser.hmacSha256(key, data))).toBe(hexOf(node.hmacSha256(key, data)));
      }),
      { numRuns: 500 },
    );
    expect(browser.sha256('\uD800')).toEqual(new Uint8Array(node.sha256('\uD800')));
  });

  it.each(implementations)('%s gives the fairness-v1 test vector', (_, p) => {
    const seed = hex(VECTOR.serverSeed);
    expect(hexOf(p.sha256(seed))).toBe(VECTOR.commitment);
    const plain = p.hmacSha256(seed, VECTOR.noEntropy.message);
    expect(hexOf(plain)).toBe(VECTOR.noEntropy.gameKey);
    expect(hexOf(p.hmacSha256(plain, '2:0'))).toBe(VECTOR.noEntropy.block2_0);
    const withEntropy = canonicalJson({ gameId: VECTOR.gameId, entropy: VECTOR.withEntropy.entropy });
    expect(hexOf(p.hmacSha256(seed, withEntropy))).toBe(VECTOR.withEntropy.gameKey);
  });
});

describe('Ed25519 verification: Node and browser agree', () => {
  // RFC 8032 §7.1, TEST 1: the empty message.
  const rfcKey = hex('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
  const rfcSignature = hex('e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b');

  it.each(implementations)('%s verifies RFC 8032 test 1 and refuses it with a bit flipped', (_, p) => {
    const key = p.ed25519PublicKey(rfcKey)!;
    expect(p.isEd25519PublicKey(key)).toBe(true);
    expect(p.ed25519Verify(key, new Uint8Array(0), rfcSignature)).toBe(true);
    for (const bit of [0, 100, 255, 256, 400, 511]) {
      const flipped = Uint8Array.from(rfcSignature);
      flipped[bit >> 3] ^= 1 << (bit & 7);
      expect(p.ed25519Verify(key, new Uint8Array(0), flipped)).toBe(false);
    }
    expect(p.ed25519Verify(key, Uint8Array.of(0), rfcSignature)).toBe(false);
    const otherKey = Uint8Array.from(rfcKey);
    otherKey[0] ^= 1;
    expect(p.ed25519Verify(p.ed25519PublicKey(otherKey)!, new Uint8Array(0), rfcSignature)).toBe(false);
  });

  it('on random keys and messages, signed and then with one bit flipped', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), bytes, fc.nat(), fc.constantFrom('key', 'message', 'signature'), (secret, message, at, what) => {
        const key = ed25519.getPublicKey(secret);
        const signature = ed25519.sign(message, secret);
        expect(verdict(key, message, signature)).toBe(true);
        const parts = { key: Uint8Array.from(key), message: Uint8Array.from(message), signature: Uint8Array.from(signature) };
        const target = parts[what];
        if (target.length === 0) return;
        const bit = at % (target.length * 8);
        target[bit >> 3] ^= 1 << (bit & 7);
        expect(verdict(parts.key, parts.message, parts.signature)).toBe(false);
      }),
      { numRuns: 150 },
    );
  });

  it('on random bytes as key and signature', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 64, maxLength: 64 }), bytes, (key, signature, message) => {
        expect(verdict(key, message, signature)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('on crafted keys and signatures where strict verifiers differ: small-order and unreduced keys, S ≥ L, unreduced R', () => {
    const { Point } = ed25519;
    const L = Point.Fn.ORDER;
    const le = (n: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn));
    const P = 2n ** 255n - 19n;
    const keys = [
      ...ED25519_TORSION_SUBGROUP.map(hex),
      // y = p + k for k < 19: the same y as k, written unreduced, with and without the sign bit.
      ...Array.from({ length: 19 }, (_, k) => le(P + BigInt(k))),
      ...Array.from({ length: 19 }, (_, k) => le(P + BigInt(k) + 2n ** 255n)),
      hex('0100000000000000000000000000000000000000000000000000000000000080'), // x = 0 with its sign bit
    ];
    const signatures = (s: bigint, r: Uint8Array) => [new Uint8Array([...r, ...le(s)]), new Uint8Array([...r, ...le(s + L)])];
    let accepted = 0;
    fc.assert(
      fc.property(bytes, fc.bigInt({ min: 0n, max: L - 1n }), (message, s) => {
        for (const key of keys) {
          const candidates = [
            // R = [S]B verifies whenever [k]A is the identity, k = H(R || A || M): often for a small-order A.
            ...signatures(s, Point.BASE.multiplyUnsafe(s).toBytes()),
            ...signatures(0n, hex(ED25519_TORSION_SUBGROUP[0])),
            ...signatures(0n, le(P + 1n)), // the identity, R written unreduced
          ];
          for (const signature of candidates) if (verdict(key, message, signature)) accepted += 1;
        }
      }),
      { numRuns: 20 },
    );
    // Without accepted signatures, agreeing would only show that both refuse.
    expect(accepted).toBeGreaterThan(20);
  });

  it('both take any 32 bytes as a key and nothing else, and refuse signatures of other lengths', () => {
    for (const p of [node, browser]) {
      expect(p.ed25519PublicKey(new Uint8Array(32).fill(0xff))).toBeDefined();
      for (const length of [0, 31, 33, 64]) expect(p.ed25519PublicKey(new Uint8Array(length))).toBeUndefined();
      const key = p.ed25519PublicKey(rfcKey)!;
      expect(p.ed25519Verify(key, new Uint8Array(0), rfcSignature.subarray(0, 63))).toBe(false);
      expect(p.ed25519Verify(key, new Uint8Array(0), new Uint8Array([...rfcSignature, 0]))).toBe(false);
      expect(p.isEd25519PublicKey({ x: 'not a key' })).toBe(false);
    }
    expect(node.isEd25519PublicKey(browser.ed25519PublicKey(rfcKey))).toBe(false);
    expect(browser.isEd25519PublicKey(node.ed25519PublicKey(rfcKey))).toBe(false);
  });
});
