import { describe, expect, it } from 'vitest';
import { beaconSignatureValid } from '../../../domain/beacon/blsSignature';
import { QUICKNET, pendingRoundFor, roundAtIso, roundTimeMs } from '../../../domain/beacon/chain';
import { beaconDice, beaconKeyOf, beaconRandomness } from '../../../domain/beacon/randomness';
import { bytesOfHex, hexOf } from '../../../domain/crypto/encoding';
import { hmacSha256 } from '../../../domain/crypto/primitives';
import { gameKeyOf } from '../../../domain/fairness/gameKey';
import { BEACON_VECTOR as V, QUICKNET_BEACONS } from './vector';

describe('beacon.md §1: real quicknet beacons', () => {
  it('lists the four beacons of the spec', () => {
    expect(QUICKNET_BEACONS.map((b) => b.round)).toEqual([1000, 42, 5928395, 12040883]);
  });
  for (const { round, signature } of QUICKNET_BEACONS) {
    it(`round ${round} verifies under quicknet's key, and not as round ${round + 1} or ${round - 1}`, () => {
      expect(beaconSignatureValid(QUICKNET, round, signature)).toBe(true);
      expect(beaconSignatureValid(QUICKNET, round + 1, signature)).toBe(false);
      expect(beaconSignatureValid(QUICKNET, round - 1, signature)).toBe(false);
    });
  }
  it('refuses a signature with one bit changed, a malformed one, and another key', () => {
    const { round, signature } = QUICKNET_BEACONS[0];
    const flipped = signature.slice(0, 40) + (signature[40] === '0' ? '1' : '0') + signature.slice(41);
    expect(beaconSignatureValid(QUICKNET, round, flipped)).toBe(false);
    expect(beaconSignatureValid(QUICKNET, round, signature.slice(2))).toBe(false);
    expect(beaconSignatureValid(QUICKNET, round, signature.toUpperCase())).toBe(false);
    expect(beaconSignatureValid({ ...QUICKNET, publicKey: QUICKNET.publicKey.replace(/^83/, '84') }, round, signature)).toBe(false);
  });
  it('takes randomness(r) as SHA-256 of the signature bytes', () => {
    expect(beaconRandomness(V.signature)).toBe(V.randomness);
  });
});

describe('beacon.md §3: the dice of a revealed command (test vector)', () => {
  const gameKey = gameKeyOf(bytesOfHex(V.serverSeed)!, V.gameId, []);
  it('derives the beacon key from the game key and the round', () => {
    expect(V.message).toBe(`drand/${V.chainHash}/${V.round}/${V.randomness}`);
    expect(hexOf(beaconKeyOf(gameKey, V.chainHash, V.round, V.randomness))).toBe(V.beaconKey);
    expect(hexOf(hmacSha256(bytesOfHex(V.beaconKey)!, '2:0'))).toBe(V.block0n2);
  });
  it('draws the vector dice for n = 2 and n = 3', () => {
    const d6 = beaconDice(gameKey, QUICKNET, V.round, V.signature, 2);
    expect(V.n2d6.map(() => d6.roll(6))).toEqual(V.n2d6);
    const d20 = beaconDice(gameKey, QUICKNET, V.round, V.signature, 3);
    expect(V.n3d20.map(() => d20.roll(20))).toEqual(V.n3d20);
  });
  it('gives other dice for another round, another game key or another pending seq', () => {
    const draw = (key: Uint8Array, round: number, seq: number) => {
      const dice = beaconDice(key, QUICKNET, round, V.signature, seq);
      return Array.from({ length: 10 }, () => dice.roll(6));
    };
    expect(draw(gameKey, V.round, 2)).toEqual(V.n2d6);
    expect(draw(gameKey, V.round + 1, 2)).not.toEqual(V.n2d6);
    expect(draw(gameKeyOf(bytesOfHex(V.serverSeed)!, 'g-other', []), V.round, 2)).not.toEqual(V.n2d6);
    expect(draw(gameKey, V.round, 4)).not.toEqual(V.n2d6);
  });
});

describe('beacon.md §1, §2.1: round times', () => {
  it('time(r) = genesis + (r − 1) × period', () => {
    expect(roundTimeMs(QUICKNET, 1)).toBe(1692803367000);
    expect(roundAtIso(QUICKNET, 1000)).toBe(new Date((1692803367 + 999 * 3) * 1000).toISOString());
  });
  it('names the first round at least one whole period after recordedAt', () => {
    const at = (ms: number) => new Date(ms).toISOString();
    const t1000 = roundTimeMs(QUICKNET, 1000);
    expect(pendingRoundFor(QUICKNET, at(t1000))).toBe(1001);
    expect(pendingRoundFor(QUICKNET, at(t1000 + 1))).toBe(1002);
    expect(pendingRoundFor(QUICKNET, at(t1000 - 1))).toBe(1001);
    for (const ms of [t1000 - 2999, t1000 + 1, t1000 + 1500, t1000 + 2999]) {
      const r = pendingRoundFor(QUICKNET, at(ms));
      expect(roundTimeMs(QUICKNET, r)).toBeGreaterThanOrEqual(ms + 3000);
      expect(roundTimeMs(QUICKNET, r - 1)).toBeLessThan(ms + 3000);
    }
  });
  it('never names a round before the first', () => {
    expect(pendingRoundFor(QUICKNET, '2020-01-01T00:00:00.000Z')).toBe(1);
  });
});
