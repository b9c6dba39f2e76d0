import { hmacSha256 } from '../crypto/primitives';

export const MIN_SIDES = 2;
export const MAX_SIDES = 1000;
const TWO_POW_32 = 0x1_0000_0000;

/**
 * fairness-v1 §4: the dice of commit `seq` are read from
 * block(c) = HMAC-SHA256(gameKey, ASCII("<seq>:<c>")), c = 0, 1, 2, …
 * as big-endian 32-bit words, one die by exact rejection sampling.
 */
export class DiceStream {
  private block: Uint8Array = new Uint8Array(0);
  private offset = 0;
  private counter = 0;

  constructor(
    private readonly gameKey: Uint8Array,
    private readonly seq: number,
  ) {}

  /** The next 32-bit word of the stream. */
  nextWord(): number {
    if (this.offset >= this.block.length) {
      this.block = hmacSha256(this.gameKey, `${this.seq}:${this.counter}`);
      this.counter += 1;
      this.offset = 0;
    }
    const b = this.block;
    const at = this.offset;
    this.offset += 4;
    return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
  }

  /** One die with `sides` faces, 1..sides, unbiased. */
  roll(sides: number): number {
    assertSides(sides);
    const limit = TWO_POW_32 - (TWO_POW_32 % sides);
    let word = this.nextWord();
    while (word >= limit) word = this.nextWord();
    return (word % sides) + 1;
  }
}

export function assertSides(sides: number): void {
  if (!Number.isInteger(sides) || sides < MIN_SIDES || sides > MAX_SIDES) {
    throw new RangeError(`a die has ${MIN_SIDES} to ${MAX_SIDES} sides, not ${sides}`);
  }
}
