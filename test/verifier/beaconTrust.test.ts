import { describe, expect, it } from 'vitest';
import { beaconSignatureValid, cachedBeaconCheck } from '../../domain/beacon/blsSignature';
import { QUICKNET, type BeaconSignatureCheck } from '../../domain/beacon/chain';
import { beaconOptions } from '../../verifier/beaconTrust';
import { QUICKNET_BEACONS } from '../domain/beacon/vector';

const bls = { calls: 0 };
const counted: BeaconSignatureCheck = (...args) => (bls.calls++, beaconSignatureValid(...args));

describe("the CLI's drand signature check", () => {
  it('checks each signature of a chain once, however many games of a tournament use it (a BLS check costs about 50 ms)', () => {
    const check = cachedBeaconCheck(counted);
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
