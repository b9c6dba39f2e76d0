import { describe, expect, it } from 'vitest';
import { DiceExpressionError, formatDiceExpression, parseDiceExpression } from '../../../../domain/rulesets/dice/diceExpression';

describe('dice expressions', () => {
  it.each([
    ['d6', '1d6'],
    ['2d6', '2d6'],
    ['3d6+1', '3d6+1'],
    ['1d6+1d4-1', '1d6+1d4-1'],
    [' 2 d 10 - 3 + 1 ', '2d10-2'],
    ['1d20-1d6', '1d20-1d6'],
    ['4D6', '4d6'],
  ])('%s normalizes to %s', (text, normalized) => {
    expect(formatDiceExpression(parseDiceExpression(text))).toBe(normalized);
  });

  it.each([
    ['', 1, /empty/],
    ['d%', 2, /d%/],
    ['2x6', 2, /unexpected "x"/],
    ['3d6+', 5, /expected a term/],
    ['3d', 3, /number of sides/],
    ['0d6', 1, /at least one die/],
    ['5', 1, /at least one die/],
    ['3d6 1', 5, /expected "\+" or "-"/],
  ])('%j is refused at position %i', (text, position, message) => {
    try {
      parseDiceExpression(text);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DiceExpressionError);
      expect((error as DiceExpressionError).position).toBe(position);
      expect((error as Error).message).toMatch(message);
    }
  });
});
