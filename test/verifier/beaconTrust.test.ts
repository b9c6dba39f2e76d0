import { describe, expect, it, vi } from 'vitest';
import { QUICKNET } from '../../domain/beacon/chain';
import { QUICKNET_BEACONS } from '../domain/beacon/vector';

const bls = vi.hoisted(() => ({ calls: 0 }));
vi.mock('../../domain/beacon/blsSignature', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../domain/beacon/blsSignature')>();
  return { ...actual, beaconSignatureValid: (...args: Parameters<typeof actual.beaconSignatureValid>) => (bls.calls++, actual.beaconSignatureValid(...args)) };
});

const { beaconOptions, cachedBeaconCheck } = await import('../../verifier/beaconTrust');

describe("the CLI's drand signature check", () => {
  it('checks each signature of a chain once, however many games of a tournament use it (a BLS check costs about 50 ms)', () => {
    const check = cachedBeaconCheck();
    const [first, second] = QUICKNET_BEACONS;
    bls.calls = 0;
    expect(check(QUICKNET, first.round, first.signature)).toBe(true);
    expect(check(QUICKNET, first.round, first.signature)).toBe(true);
    expect(check(QUICKNET, first.round + 1, first.signature)).toBe(false);
    expect(check(QUICKNET, first.round + 1, first.signature)).toBe(false);
    expect(check(QUICKNET, second.round, second.signature)).toBe(true);
    expect(bls.calls).toBe(3);
  });

  it('--trust-beacon takes chain hashes, or HASH:PUBLICKEY, in any case, lowercased', () => {
    expect(beaconOptions([QUICKNET.chainHash.toUpperCase()]).trustedChains).toEqual([QUICKNET.chainHash]);
    const bound = `${QUICKNET.chainHash}:${QUICKNET.publicKey}`;
    expect(beaconOptions([bound.toUpperCase()]).trustedChains).toEqual([bound]);
    expect(() => beaconOptions(['52db9b'])).toThrow('--trust-beacon takes a drand chain hash (64 hex digits), or HASH:PUBLICKEY');
    expect(() => beaconOptions([`${QUICKNET.chainHash}:83cf`])).toThrow('not "');
  });
});
