import type { Die } from './fairness/die';
import { DiceStream } from './fairness/diceStream';
import { InsufficientDice, InvalidDieValue } from './errors';

export type { Die } from './fairness/die';

/**
 * Where a decider gets its dice. Every die it draws is recorded, in draw order,
 * so that the commit can list them (fairness-v1 §4).
 */
export interface DiceSource {
  roll(sides: number): number;
  readonly drawn: readonly Die[];
}

abstract class RecordingDice implements DiceSource {
  readonly drawn: Die[] = [];
  roll(sides: number): number {
    const value = this.draw(sides);
    this.drawn.push({ sides, value });
    return value;
  }
  protected abstract draw(sides: number): number;
}

/** The dice of commit `seq` of a game: fairness-v1 §4. */
export class FairnessDice extends RecordingDice {
  private readonly stream: DiceStream;
  constructor(gameKey: Uint8Array, seq: number) {
    super();
    this.stream = new DiceStream(gameKey, seq);
  }
  protected draw(sides: number): number {
    return this.stream.roll(sides);
  }
}

/**
 * Dice given in advance, used in draw order: a verifier replaying recorded dice,
 * or a player checking a table with physical dice (/evaluate).
 */
export class GivenDice extends RecordingDice {
  private next = 0;
  constructor(private readonly values: readonly number[]) {
    super();
  }
  protected draw(sides: number): number {
    if (this.next >= this.values.length) throw new InsufficientDice(this.next + 1);
    const value = this.values[this.next];
    if (!Number.isInteger(value) || value < 1 || value > sides) {
      throw new InvalidDieValue(this.next, value, sides);
    }
    this.next += 1;
    return value;
  }
  get unused(): number {
    return this.values.length - this.next;
  }
}

/** Counts how many dice a procedure needs, answering every die with 1. */
export class CountingDice extends RecordingDice {
  protected draw(): number {
    return 1;
  }
}

/** Thrown by ProbeDice at its first draw: the command has passed every check before its first die. */
export class FirstDieDrawn extends Error {
  constructor() {
    super('the command reached its first die');
    this.name = 'FirstDieDrawn';
  }
}

/**
 * beacon.md §4: dice that stop a decider at its first draw. Rulesets check every input
 * before they draw, so a refusal before it is a refusal, and a first draw means "accepted,
 * pending the beacon".
 */
export class ProbeDice extends RecordingDice {
  protected draw(): number {
    throw new FirstDieDrawn();
  }
}
