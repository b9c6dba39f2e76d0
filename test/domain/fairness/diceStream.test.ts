import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../domain/canonicalJson';
import { hexOf } from '../../../domain/crypto/encoding';
import { DiceStream } from '../../../domain/fairness/diceStream';
import { commitmentOf, gameKeyOf } from '../../../domain/fairness/gameKey';
import { VECTOR } from './vector';

const seed = Buffer.from(VECTOR.serverSeed, 'hex');
const roll = (gameKey: Uint8Array, seq: number, sides: number, n: number) => {
  const stream = new DiceStream(gameKey, seq);
  return Array.from({ length: n }, () => stream.roll(sides));
};

describe('fairness-v1 test vector', () => {
  it('commits to the seed with SHA-256', () => {
    expect(commitmentOf(seed)).toBe(VECTOR.commitment);
  });

  describe('without entropy', () => {
    const gameKey = gameKeyOf(seed, VECTOR.gameId, []);
    it('canonicalizes the game-key message', () => {
      expect(canonicalJson({ gameId: VECTOR.gameId, entropy: [] })).toBe(VECTOR.noEntropy.message);
    });
    it('derives the game key', () => {
      expect(hexOf(gameKey)).toBe(VECTOR.noEntropy.gameKey);
    });
    it('derives block 0 of seq 2', () => {
      expect(createHmac('sha256', gameKey).update('2:0').digest('hex')).toBe(VECTOR.noEntropy.block2_0);
    });
    it('rolls ten d6 at seq 2, five d20 at seq 3, five d1000 at seq 4', () => {
      expect(roll(gameKey, 2, 6, 10)).toEqual(VECTOR.noEntropy.seq2d6);
      expect(roll(gameKey, 3, 20, 5)).toEqual(VECTOR.noEntropy.seq3d20);
      expect(roll(gameKey, 4, 1000, 5)).toEqual(VECTOR.noEntropy.seq4d1000);
    });
  });

  describe('with entropy from both players', () => {
    const gameKey = gameKeyOf(seed, VECTOR.gameId, VECTOR.withEntropy.entropy);
    it('derives the game key', () => {
      expect(hexOf(gameKey)).toBe(VECTOR.withEntropy.gameKey);
    });
    it('rolls the published dice', () => {
      expect(roll(gameKey, 2, 6, 10)).toEqual(VECTOR.withEntropy.seq2d6);
      expect(roll(gameKey, 3, 20, 5)).toEqual(VECTOR.withEntropy.seq3d20);
      expect(roll(gameKey, 4, 1000, 5)).toEqual(VECTOR.withEntropy.seq4d1000);
    });
  });
});

describe('rejection sampling', () => {
  /** A stream whose words are given, to see which words a die rejects. */
  class ScriptedStream extends DiceStream {
    constructor(private readonly words: number[]) {
      super(Buffer.alloc(32), 1);
    }
    override nextWord(): number {
      const word = this.words.shift();
      if (word === undefined) throw new Error('script exhausted');
      return word;
    }
  }
  const TWO_32 = 2 ** 32;

  it.each([6, 7, 10, 20, 1000])('d%i rejects exactly the words at or above the limit', (sides) => {
    const limit = TWO_32 - (TWO_32 % sides);
    // The first word at the limit is rejected, the next below it is used.
    expect(new ScriptedStream([limit, limit - 1]).roll(sides)).toBe(((limit - 1) % sides) + 1);
    expect(new ScriptedStream([TWO_32 - 1, 0]).roll(sides)).toBe(1);
    expect(new ScriptedStream([limit - 1]).roll(sides)).toBe(sides);
  });

  it('never rejects for a power of two', () => {
    expect(new ScriptedStream([TWO_32 - 1]).roll(2)).toBe(2);
  });

  it('refuses dice outside 2 to 1000 sides', () => {
    const stream = new DiceStream(Buffer.alloc(32), 1);
    expect(() => stream.roll(1)).toThrow(RangeError);
    expect(() => stream.roll(1001)).toThrow(RangeError);
    expect(() => stream.roll(6.5)).toThrow(RangeError);
  });
});
