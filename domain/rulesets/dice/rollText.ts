import { parseDiceExpression } from './diceExpression';
import { evaluate, type Reading, type RollOutcome } from './roll';
import { successesOnly } from './successes';

/**
 * "4 2 6 +1 = 13": the dice in order (subtracted ones with "-"), the modifier, the total.
 * A roll in notation 2 marks what its terms made of each reading: "(2)" dropped by kh/kl,
 * "5*" a success, "6!" a die that exploded; a d66 reads as its two digits ("35").
 */
export function describeRoll(outcome: RollOutcome): string {
  const readings = outcome.notation === 2 ? readingsOf(outcome) : undefined;
  const parts = readings ? readings.map(shown) : plainDice(outcome);
  if (outcome.modifier > 0) parts.push(`+${outcome.modifier}`);
  if (outcome.modifier < 0) parts.push(`${outcome.modifier}`);
  return `${parts.join(' ')} = ${outcome.total}${successesOnly(outcome) ? ` ${outcome.total === 1 ? 'success' : 'successes'}` : ''}`;
}

function plainDice(outcome: RollOutcome): string[] {
  const signs = recordedSigns(outcome.dice);
  return outcome.rolls.map((r, i) => (signs[i] < 0 ? `-${r.value}` : `${r.value}`));
}

/**
 * The sign of each die of a recorded expression, in order. It reads the normalized form
 * that formatDiceExpression writes, without the limits put on what players send: a roll
 * recorded before a limit existed must still describe itself.
 */
function recordedSigns(dice: string): number[] {
  return [...dice.matchAll(/([+-]?)(\d+)d\d+/g)].flatMap(([, sign, count]) => Array.from({ length: Number(count) }, () => (sign === '-' ? -1 : 1)));
}

/**
 * The readings of a recorded roll: its expression evaluated again on the dice it recorded,
 * in order. Undefined for a record whose dice do not fit its expression (a tampered export
 * still gets a line: its plain dice).
 */
function readingsOf(outcome: RollOutcome): Reading[] | undefined {
  let next = 0;
  const recorded = (sides: number) => {
    const die = outcome.rolls[next++];
    if (!die || die.sides !== sides) throw new RangeError('not the recorded dice');
    return die.value;
  };
  try {
    const readings = evaluate(parseDiceExpression(outcome.dice, 2), recorded).flatMap((t) => t.readings);
    return next === outcome.rolls.length ? readings : undefined;
  } catch {
    return undefined;
  }
}

function shown(r: Reading): string {
  const text = `${r.sign < 0 ? '-' : ''}${r.value}${r.exploded ? '!' : ''}${r.success ? '*' : ''}`;
  return r.dropped ? `(${text})` : text;
}
