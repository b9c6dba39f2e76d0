import type { DiceSource, Die } from '../../dice';
import { RuleViolation } from '../../errors';
import { MAX_SIDES, MIN_SIDES } from '../../fairness/diceStream';
import { formatDiceExpression, parseDiceExpression, type DiceExpression } from './diceExpression';

export const MAX_DICE_PER_COMMAND = 100;
/** The integers of an expression add up to a modifier from -1000 to +1000. */
export const MAX_MODIFIER = 1000;

export type DiceSpec = string | readonly { count: number; sides: number }[];

export interface RollOutcome {
  dice: string;
  rolls: Die[];
  modifier: number;
  total: number;
}

export function toExpression(spec: DiceSpec): DiceExpression {
  if (typeof spec === 'string') return parseDiceExpression(spec);
  return { terms: spec.map(({ count, sides }) => ({ sign: 1 as const, count, sides })), modifier: 0 };
}

/** Checks the service's limits, then rolls every die of the expression in order. */
export function rollDice(spec: DiceSpec, dice: DiceSource): RollOutcome {
  const expression = toExpression(spec);
  const count = expression.terms.reduce((sum, t) => sum + t.count, 0);
  if (count > MAX_DICE_PER_COMMAND) {
    throw new RuleViolation(
      `A roll may have at most ${MAX_DICE_PER_COMMAND} dice; this one has ${count}. Split it into several rolls.`,
      'dice: at most 100 dice a command',
    );
  }
  const odd = expression.terms.find((t) => t.sides < MIN_SIDES || t.sides > MAX_SIDES);
  if (odd) {
    throw new RuleViolation(
      `Dice have ${MIN_SIDES} to ${MAX_SIDES} sides; a d${odd.sides} can't be rolled here.`,
      'dice: sides 2 to 1000',
    );
  }
  const rolls: Die[] = [];
  let total = expression.modifier;
  for (const term of expression.terms) {
    for (let n = 0; n < term.count; n++) {
      const value = dice.roll(term.sides);
      rolls.push({ sides: term.sides, value });
      total += term.sign * value;
    }
  }
  return { dice: formatDiceExpression(expression), rolls, modifier: expression.modifier, total };
}

/**
 * The sign of each die of a recorded expression, in order. It reads the normalized form
 * that formatDiceExpression writes, without the limits put on what players send: a roll
 * recorded before a limit existed must still describe itself.
 */
function recordedSigns(dice: string): number[] {
  return [...dice.matchAll(/([+-]?)(\d+)d\d+/g)].flatMap(([, sign, count]) => Array.from({ length: Number(count) }, () => (sign === '-' ? -1 : 1)));
}

/** "4 2 6 +1 = 13": the dice in order (subtracted ones with "-"), the modifier, the total. */
export function describeRoll(outcome: RollOutcome): string {
  const signs = recordedSigns(outcome.dice);
  const parts = outcome.rolls.map((r, i) => (signs[i] < 0 ? `-${r.value}` : `${r.value}`));
  if (outcome.modifier > 0) parts.push(`+${outcome.modifier}`);
  if (outcome.modifier < 0) parts.push(`${outcome.modifier}`);
  return `${parts.join(' ')} = ${outcome.total}`;
}
