import { describe, expect, it } from 'vitest';
import { buildKeyRotation, type KeyRotation } from '../../../domain/trust/keyRotation';
import { walkKeyLog } from '../../../domain/trust/keyLog';
import { newKey, type TestKey } from '../../domain/verify/signedExports';

const AT = '2026-11-22T10:00:00.000Z';
const rotation = (n: number, from: TestKey, to: TestKey, signer = from): KeyRotation => buildKeyRotation({ n, previous: from.fingerprint, next: to.jwk, at: AT }, signer.sign);
const trustedOf = (walk: ReturnType<typeof walkKeyLog>) => new Map([...walk.trusted].map(([fingerprint, t]) => [fingerprint, t.via]));

describe('walkKeyLog (trust.md §3)', () => {
  const a = newKey('a');
  const b = newKey('b');
  const c = newKey('c');

  it('hands trust from a pinned key to the keys it rotated to, in order', () => {
    const walk = walkKeyLog([rotation(1, a, b), rotation(2, b, c)], [a.fingerprint], [a.jwk]);
    expect(trustedOf(walk)).toEqual(new Map<string, unknown>([[a.fingerprint, 'pinned'], [b.fingerprint, 1], [c.fingerprint, 2]]));
    expect(walk.used).toEqual([1, 2]);
    expect(walk.failure).toBeUndefined();
    expect(walk.trusted.get(c.fingerprint)?.jwk?.x).toBe(c.jwk.x);
  });

  it('only hands trust forward: pinning a later key does not trust the keys before it', () => {
    const walk = walkKeyLog([rotation(1, a, b), rotation(2, b, c)], [b.fingerprint], [a.jwk, b.jwk]);
    expect(trustedOf(walk)).toEqual(new Map<string, unknown>([[b.fingerprint, 'pinned'], [c.fingerprint, 2]]));
    expect(walk.failure).toBeUndefined();
  });

  it('trusts nothing from a log alone: without a pin, no key is reached', () => {
    const walk = walkKeyLog([rotation(1, a, b)], [], [a.jwk, b.jwk]);
    expect(walk.trusted.size).toBe(0);
    expect(walk.used).toEqual([]);
  });

  it('refuses a statement not signed by the key it retires, and ends the walk there', () => {
    const mallory = newKey('m');
    const walk = walkKeyLog([rotation(1, a, mallory, mallory), rotation(2, mallory, c, mallory)], [a.fingerprint], [a.jwk]);
    expect(walk.failure).toEqual({ n: 1, reason: 'is not signed by its key: the signature does not match the hash' });
    expect(trustedOf(walk)).toEqual(new Map([[a.fingerprint, 'pinned']]));
  });

  it('refuses a statement whose next key was swapped after signing', () => {
    const mallory = newKey('b');
    const swapped = { ...rotation(1, a, b), next: mallory.jwk };
    const walk = walkKeyLog([swapped], [a.fingerprint], [a.jwk]);
    expect(walk.failure).toEqual({ n: 1, reason: 'does not hash to its "hash"' });
    expect(walk.trusted.has(mallory.fingerprint)).toBe(false);
  });

  it('counts n from 1 without gaps', () => {
    expect(walkKeyLog([rotation(2, a, b)], [a.fingerprint], [a.jwk]).failure).toEqual({ n: 1, reason: 'is numbered 2, not 1' });
    const gap = walkKeyLog([rotation(1, a, b), rotation(3, b, c)], [a.fingerprint], [a.jwk]);
    expect(gap.failure).toEqual({ n: 2, reason: 'is numbered 3, not 2' });
    expect(gap.trusted.has(c.fingerprint)).toBe(false);
  });

  it('stops at the first failure: a valid statement after it hands over nothing', () => {
    const broken = { ...rotation(2, b, c), at: 'later' };
    const walk = walkKeyLog([rotation(1, a, b), broken, rotation(3, b, c)], [a.fingerprint], [a.jwk]);
    expect(walk.failure?.n).toBe(2);
    expect(walk.trusted.has(c.fingerprint)).toBe(false);
  });

  it('passes over statements signed by keys nobody here knows', () => {
    const stranger = newKey('s');
    const walk = walkKeyLog([rotation(1, stranger, c), rotation(2, a, b)], [a.fingerprint], [a.jwk]);
    expect(walk.failure).toBeUndefined();
    expect(trustedOf(walk)).toEqual(new Map<string, unknown>([[a.fingerprint, 'pinned'], [b.fingerprint, 2]]));
  });

  it('says when a trusted key cannot be matched to a public key', () => {
    const walk = walkKeyLog([rotation(1, a, b)], [a.fingerprint], []);
    expect(walk.failure).toEqual({ n: 1, reason: `cannot be checked: no key given has the trusted fingerprint ${a.fingerprint}` });
  });

  it('reports what is not a log or not a statement, without throwing', () => {
    expect(walkKeyLog(undefined, [a.fingerprint]).failure).toBeUndefined();
    expect(walkKeyLog({}, [a.fingerprint]).failure).toEqual({ n: 0, reason: 'is not a list' });
    for (const junk of [null, 7, 'x', [], { type: 'KeyRotation' }, { ...rotation(1, a, b), next: { kty: 'OKP', crv: 'Ed25519', x: 'short', kid: 'b' } }]) {
      expect(walkKeyLog([junk], [a.fingerprint], [a.jwk]).failure?.n).toBe(1);
    }
  });
});
