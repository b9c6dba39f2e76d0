import { parseDiceExpression } from './diceExpression';
import type { RollOutcome } from './roll';

/** Every term counts successes: the total is a number of successes, and the line says so. */
export function successesOnly(outcome: RollOutcome): boolean {
  if (outcome.notation !== 2) return false;
  try {
    return parseDiceExpression(outcome.dice, 2).terms.every((t) => t.target);
  } catch {
    return false;
  }
}
