import { DiceRoll, NumberGenerator } from '@dice-roller/rpg-dice-roller';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Die } from '../../../../domain/dice';
import { parseDiceExpression } from '../../../../domain/rulesets/dice/diceExpression';
import { evaluate, rollDice } from '../../../../domain/rulesets/dice/roll';
import { seededRandom } from '../../../support/seededRandom';

/**
 * Differential test against @dice-roller/rpg-dice-roller 5.5.1, a maintained notation
 * library, driven with the same faces: its number generator's engine answers each die with
 * the face we drew (random-js's integer(1, S) gives engine.next() + 1 for a value below S).
 * Compared: the total, every die's value, and which dice were dropped, succeeded or exploded.
 * Where the two differ by design, a test below says so (docs/rulesets/dice.md, "rpg-dice-roller").
 */
interface Marked {
  value: number;
  dropped: boolean;
  success: boolean;
  exploded: boolean;
}

let faces: readonly Die[] = [];
let next = 0;
const engine = {
  next(): number {
    if (next >= faces.length) throw new Error(`rpg-dice-roller asked for die ${next + 1}; we drew ${faces.length}`);
    return faces[next++].value - 1;
  },
};
const originalEngine = NumberGenerator.generator.engine;
beforeAll(() => {
  NumberGenerator.generator.engine = engine;
});
afterAll(() => {
  NumberGenerator.generator.engine = originalEngine;
});

/** rpg-dice-roller's reading of `notation` on the given faces: its total and every die, in order. */
function theirs(notation: string, dice: readonly Die[]): { total: number; dice: Marked[]; asked: number } {
  faces = dice;
  next = 0;
  const roll = new DiceRoll(notation);
  const marked = (roll.rolls as unknown[])
    .filter((part): part is { rolls: { value: number; modifiers: Set<string> }[] } => typeof part === 'object' && part !== null && 'rolls' in part)
    .flatMap((results) =>
      results.rolls.map((r) => ({ value: r.value, dropped: r.modifiers.has('drop'), success: r.modifiers.has('target-success'), exploded: r.modifiers.has('explode') })),
    );
  return { total: roll.total, dice: marked, asked: next };
}

/**
 * Ours, on dice drawn from `random`: a die shows its highest face one time in four (explosions
 * are common, and a chain of 10 that would reach our cap is rare enough to stay out of these
 * seeds), any other face otherwise.
 */
function ours(notation: string, random: ReturnType<typeof seededRandom>): { total: number; dice: Marked[]; drawn: Die[] } {
  const outcome = rollDice(notation, { drawn: [], roll: (sides) => (random.next() < 1 / 4 ? sides : random.int(1, sides - 1)) }, 2);
  let replayed = 0;
  const readings = evaluate(parseDiceExpression(outcome.dice, 2), () => outcome.rolls[replayed++].value).flatMap((t) => t.readings);
  const dice = readings.map((r) => ({ value: r.value, dropped: r.dropped, success: r.success === true, exploded: r.exploded }));
  return { total: outcome.total, dice, drawn: outcome.rolls };
}

const EXPRESSIONS = [
  '4d6kh3',
  '4d6kl1',
  '4d6k3',
  '5d6kh2',
  '6d6>=5',
  '6d6>4',
  '6d6<=2',
  '6d6<3',
  '5d10=10',
  '2d6>=5+1',
  '10d6>=5-1d6',
  '1d6!',
  '3d6!',
  '2d10!+1',
  '3d2!',
  '4d6!kh3',
  '5d10!kh2>=8',
  '3d6kh2>=4',
  '1d20-2d6kh1',
  'd%',
  '3d100kh1',
  '7d999',
  '2d6+1d4-1',
  '1d20-1d6',
] as const;
const SEQUENCES_PER_EXPRESSION = 150;

describe('dice notation against rpg-dice-roller 5.5.1, with the same faces', () => {
  for (const [index, notation] of EXPRESSIONS.entries()) {
    it(`${notation}: the same total, dice kept, successes and explosions over ${SEQUENCES_PER_EXPRESSION} face sequences`, () => {
      const random = seededRandom(0x36_000 + index);
      for (let n = 0; n < SEQUENCES_PER_EXPRESSION; n++) {
        const mine = ours(notation, random);
        const library = theirs(notation, mine.drawn);
        const faces = mine.drawn.map((d) => d.value).join(' ');
        expect(library.asked, `dice drawn for ${notation} on ${faces}`).toBe(mine.drawn.length);
        expect(library.dice, `dice of ${notation} on ${faces}`).toEqual(mine.dice);
        expect(library.total, `total of ${notation} on ${faces}`).toBe(mine.total);
      }
    });
  }
});

describe('where the notation differs from rpg-dice-roller on purpose', () => {
  it("d66 is the wargamers' d66, two d6 read tens then units; rpg-dice-roller reads a 66-sided die", () => {
    const mine = rollDice('d66', { drawn: [], roll: () => 3 }, 2);
    expect(mine).toMatchObject({ total: 33, rolls: [{ sides: 6, value: 3 }, { sides: 6, value: 3 }] });
    expect(theirs('d66', [{ sides: 66, value: 33 }])).toMatchObject({ total: 33, asked: 1 });
  });

  it('an exploding die rolls at most 9 extra dice here; rpg-dice-roller goes on (up to 1000)', () => {
    const sixes = Array.from({ length: 12 }, () => ({ sides: 6, value: 6 }));
    const mine = rollDice('1d6!', { drawn: [], roll: () => 6 }, 2);
    expect(mine.rolls).toHaveLength(10);
    expect(mine.total).toBe(60);
    expect(() => theirs('1d6!', sixes)).toThrow(/asked for die 13/);
  });

  it('keeping more dice than were rolled is malformed here (400); rpg-dice-roller drops one of them', () => {
    expect(() => parseDiceExpression('2d6kh3', 2)).toThrow('keeps 3 of 2 dice at position 4');
    expect(theirs('2d6kh3', [{ sides: 6, value: 4 }, { sides: 6, value: 1 }])).toMatchObject({ total: 4, dice: [{ value: 4, dropped: false }, { value: 1, dropped: true }] });
  });
});
