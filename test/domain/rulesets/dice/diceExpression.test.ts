import { describe, expect, it } from 'vitest';
import { DiceExpressionError, formatDiceExpression, parseDiceExpression, type Notation } from '../../../../domain/rulesets/dice/diceExpression';

const refusal = (text: string, notation: Notation) => {
  try {
    parseDiceExpression(text, notation);
  } catch (error) {
    expect(error).toBeInstanceOf(DiceExpressionError);
    return { position: (error as DiceExpressionError).position, message: (error as Error).message };
  }
  return expect.unreachable(`${text} was read`);
};

describe('dice expressions', () => {
  it.each([
    ['d6', '1d6'],
    ['2d6', '2d6'],
    ['3d6+1', '3d6+1'],
    ['1d6+1d4-1', '1d6+1d4-1'],
    [' 2 d 10 - 3 + 1 ', '2d10-2'],
    ['1d20-1d6', '1d20-1d6'],
    ['4D6', '4d6'],
    ['d66', '1d66'],
  ])('%s normalizes to %s, in both notations', (text, normalized) => {
    expect(formatDiceExpression(parseDiceExpression(text, 1))).toBe(normalized);
    expect(formatDiceExpression(parseDiceExpression(text, 2))).toBe(normalized);
  });

  it.each([
    ['', 1, /empty/],
    ['2x6', 2, /unexpected "x"/],
    ['3d6+', 5, /expected a term/],
    ['3d', 3, /number of sides/],
    ['0d6', 1, /at least one die/],
    ['5', 1, /at least one die/],
    ['3d6 1', 5, /expected "\+" or "-"/],
  ])('%j is refused at position %i, in both notations', (text, position, message) => {
    for (const notation of [1, 2] as const) {
      const { position: at, message: said } = refusal(text, notation);
      expect(at).toBe(position);
      expect(said).toMatch(message);
    }
  });
});

describe('dice expressions: notation 1 (games of rules version 1)', () => {
  it('refuses d% at position 2', () => {
    expect(refusal('d%', 1)).toEqual({ position: 2, message: 'd% is not supported, write d100 at position 2' });
  });

  it('reads d66 as one 66-sided die', () => {
    expect(parseDiceExpression('d66', 1).terms).toEqual([{ sign: 1, count: 1, sides: 66 }]);
  });

  it.each([
    ['4d6kh3', 4],
    ['6d6>=5', 4],
    ['1d6!', 4],
  ])('refuses %j where notation 2 reads it, at position %i', (text, position) => {
    expect(refusal(text, 1).position).toBe(position);
  });
});

describe('dice expressions: notation 2 (rules version 2)', () => {
  it.each([
    ['d%', '1d100'],
    ['3d%+1', '3d100+1'],
    ['4d6kh3', '4d6kh3'],
    ['4d6k3', '4d6kh3'],
    ['4d6KL1', '4d6kl1'],
    [' 6 d 6 >= 5 ', '6d6>=5'],
    ['6d6>4', '6d6>4'],
    ['3d6<=2', '3d6<=2'],
    ['3d6<2', '3d6<2'],
    ['2d10=10', '2d10=10'],
    ['1D6!', '1d6!'],
    ['5d10!kh2>=8-1', '5d10!kh2>=8-1'],
    ['2d66kl1', '2d66kl1'],
    ['7d999', '7d999'],
  ])('%s normalizes to %s', (text, normalized) => {
    expect(formatDiceExpression(parseDiceExpression(text, 2))).toBe(normalized);
  });

  it('reads d66 as two d6, tens then units, and d% as a d100', () => {
    expect(parseDiceExpression('2d66', 2).terms).toEqual([{ sign: 1, count: 2, sides: 66, tensAndUnits: true }]);
    expect(parseDiceExpression('d%', 2).terms).toEqual([{ sign: 1, count: 1, sides: 100 }]);
  });

  it.each([
    ['4d6kh5', 4, 'keeps 5 of 4 dice'],
    ['4d6kh0', 4, 'keep at least one die'],
    ['4d6kh', 6, 'expected how many dice to keep after "k"'],
    ['4d6kx3', 5, 'expected how many dice to keep after "k"'],
    ['6d6>=', 6, 'expected a target number after ">="'],
    ['6d6=>5', 5, 'expected a target number after "="'],
    ['4d6kh3!', 7, '"!" is out of order or repeated: after the die come "!", then "kh" or "kl", then the target'],
    ['1d6!!', 5, '"!" is out of order or repeated: after the die come "!", then "kh" or "kl", then the target'],
    ['6d6>=5kh3', 7, '"k" is out of order or repeated: after the die come "!", then "kh" or "kl", then the target'],
    ['4d6kh2kl1', 7, '"k" is out of order or repeated: after the die come "!", then "kh" or "kl", then the target'],
    ['6d6>=5>2', 7, '">" is out of order or repeated: after the die come "!", then "kh" or "kl", then the target'],
    ['5>=3+1d6', 2, 'unexpected ">", expected "+" or "-"'],
    ['d%%', 3, 'unexpected "%", expected "+" or "-"'],
    ['2d6>=99999999', 6, 'number too long'],
  ])('%j is refused at position %i: %s', (text, position, message) => {
    expect(refusal(text, 2)).toEqual({ position, message: `${message} at position ${position}` });
  });
});
