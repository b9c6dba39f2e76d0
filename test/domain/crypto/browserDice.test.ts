import { describe, expect, it, vi } from 'vitest';
import * as browser from '../../../domain/crypto/browserPrimitives';
import { hexOf } from '../../../domain/crypto/encoding';
import * as primitives from '../../../domain/crypto/primitives';
import { DiceStream } from '../../../domain/fairness/diceStream';
import { commitmentOf, gameKeyOf } from '../../../domain/fairness/gameKey';
import { VECTOR } from '../fairness/vector';

// What a browser bundle does: the domain, unchanged, on the browser implementation of the port.
vi.mock('../../../domain/crypto/primitives', () => import('../../../domain/crypto/browserPrimitives'));

const roll = (gameKey: Uint8Array, seq: number, sides: number, n: number) => {
  const stream = new DiceStream(gameKey, seq);
  return Array.from({ length: n }, () => stream.roll(sides));
};

describe('the fairness-v1 test vector on the browser primitives', () => {
  it('runs on the browser primitives', () => {
    expect(primitives.hmacSha256).toBe(browser.hmacSha256);
  });

  it('gives the published commitment, game keys and dice', () => {
    const seed = Uint8Array.from(VECTOR.serverSeed.match(/../g)!, (byte) => parseInt(byte, 16));
    expect(commitmentOf(seed)).toBe(VECTOR.commitment);
    for (const [entropy, expected] of [
      [[], VECTOR.noEntropy],
      [VECTOR.withEntropy.entropy, VECTOR.withEntropy],
    ] as const) {
      const gameKey = gameKeyOf(seed, VECTOR.gameId, entropy);
      expect(hexOf(gameKey)).toBe(expected.gameKey);
      expect(roll(gameKey, 2, 6, 10)).toEqual(expected.seq2d6);
      expect(roll(gameKey, 3, 20, 5)).toEqual(expected.seq3d20);
      expect(roll(gameKey, 4, 1000, 5)).toEqual(expected.seq4d1000);
    }
  });
});
