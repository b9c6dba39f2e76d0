import type { DiceSource, Die } from '../../dice';
import { DomainError, RuleViolation } from '../../errors';
import { MAX_SIDES, MIN_SIDES } from '../../fairness/diceStream';
import { DiceExpressionError, formatDiceExpression, needsNotation2, parseDiceExpression, type DiceExpression, type DiceTerm, type Notation } from './diceExpression';

export const MAX_DICE_PER_COMMAND = 100;
/** An exploding die rolls at most this many extra dice, so it counts as 1 + 9 = 10 dice against the limit. */
export const MAX_EXTRA_DICE_PER_DIE = 9;
/** The integers of an expression add up to a modifier from -1000 to +1000. */
export const MAX_MODIFIER = 1000;

export type DiceSpec = string | readonly { count: number; sides: number }[];

export interface RollOutcome {
  dice: string;
  rolls: Die[];
  modifier: number;
  total: number;
  /** Present (2) when `dice` is written in notation 2: d66, "!", keep or a target. */
  notation?: 2;
}

/** One reading of a term: a die, or the two d6 of a d66, and what the term made of it. */
export interface Reading {
  value: number;
  sign: 1 | -1;
  /** It showed its highest reading and rolled one more die. */
  exploded: boolean;
  /** Dropped by kh/kl: not counted. */
  dropped: boolean;
  /** Meets the term's target (undefined when the term has none). */
  success?: boolean;
}

export interface TermOutcome {
  term: DiceTerm;
  readings: Reading[];
  /** The sum of the kept readings, or the number of successes for a term with a target. */
  value: number;
}

/**
 * A string that notation 1 does not read, sent to a game of rules version 1: the same 400,
 * word for word, that the schema gave before version 2 (the schema now reads notation 2).
 */
export class DiceNotationRefused extends DomainError {
  readonly code = 'invalid_request';
  constructor(field: string, error: DiceExpressionError) {
    super(`Invalid request: ${field}: ${error.message}`);
    this.name = 'DiceNotationRefused';
    this.details = { issues: [{ field, message: error.message }] };
  }
}

/** `field` names the dice in the request, for a refusal. */
export function toExpression(spec: DiceSpec, notation: Notation, field = 'dice'): DiceExpression {
  if (typeof spec === 'string') {
    try {
      return parseDiceExpression(spec, notation);
    } catch (error) {
      throw error instanceof DiceExpressionError ? new DiceNotationRefused(field, error) : error;
    }
  }
  return { terms: spec.map(({ count, sides }) => ({ sign: 1 as const, count, sides })), modifier: 0 };
}

/** Physical dice a term may draw at most: a d66 draws two a reading, an exploding die up to 1 + MAX_EXTRA_DICE_PER_DIE. */
const mostDiceOf = (t: DiceTerm) => t.count * (t.tensAndUnits ? 2 : 1) * (t.explode ? 1 + MAX_EXTRA_DICE_PER_DIE : 1);

/**
 * The service's limits, checked before any die is drawn, on the most dice the expression
 * can draw: a refused command must draw and reveal nothing (fairness-v1 §4).
 */
export function checkLimits(expression: DiceExpression): void {
  const most = expression.terms.reduce((sum, t) => sum + mostDiceOf(t), 0);
  if (most > MAX_DICE_PER_COMMAND) {
    const how = expression.terms.some((t) => t.explode || t.tensAndUnits)
      ? `this one may draw up to ${most} (a d66 is 2 dice, an exploding die counts as ${1 + MAX_EXTRA_DICE_PER_DIE}: itself and up to ${MAX_EXTRA_DICE_PER_DIE} extra dice)`
      : `this one has ${most}`;
    throw new RuleViolation(`A roll may have at most ${MAX_DICE_PER_COMMAND} dice; ${how}. Split it into several rolls.`, 'dice: at most 100 dice a command');
  }
  const odd = expression.terms.find((t) => !t.tensAndUnits && (t.sides < MIN_SIDES || t.sides > MAX_SIDES));
  if (odd) {
    throw new RuleViolation(`Dice have ${MIN_SIDES} to ${MAX_SIDES} sides; a d${odd.sides} can't be rolled here.`, 'dice: sides 2 to 1000');
  }
}

/** Checks the service's limits, then rolls every die of the expression in order. */
export function rollDice(spec: DiceSpec, dice: DiceSource, notation: Notation, field?: string): RollOutcome {
  const expression = toExpression(spec, notation, field);
  checkLimits(expression);
  return rollExpression(expression, dice);
}

/**
 * Several rolls in one command, in order: every expression is read and checked first — each
 * against the limits, and all of them together against MAX_DICE_PER_COMMAND — so that a
 * refused command draws no die (fairness-v1 §4).
 */
export function rollSeveral(specs: readonly DiceSpec[], dice: DiceSource, notation: Notation, field: (index: number) => string): RollOutcome[] {
  const expressions = specs.map((spec, index) => toExpression(spec, notation, field(index)));
  expressions.forEach((expression) => checkLimits(expression));
  const most = expressions.reduce((sum, e) => sum + e.terms.reduce((n, t) => n + mostDiceOf(t), 0), 0);
  if (most > MAX_DICE_PER_COMMAND) {
    throw new RuleViolation(`A command may roll at most ${MAX_DICE_PER_COMMAND} dice in all; these ${specs.length} rolls may draw up to ${most}. Send them in two commands.`, 'dice: at most 100 dice a command');
  }
  return expressions.map((expression) => rollExpression(expression, dice));
}

function rollExpression(expression: DiceExpression, dice: DiceSource): RollOutcome {
  const rolls: Die[] = [];
  const terms = evaluate(expression, (sides) => {
    const value = dice.roll(sides);
    rolls.push({ sides, value });
    return value;
  });
  const outcome: RollOutcome = { dice: formatDiceExpression(expression), rolls, modifier: expression.modifier, total: totalOf(expression, terms) };
  return needsNotation2(expression) ? { ...outcome, notation: 2 } : outcome;
}

export const totalOf = (expression: DiceExpression, terms: readonly TermOutcome[]) => terms.reduce((sum, t) => sum + t.term.sign * t.value, expression.modifier);

/**
 * Draws each term's dice: the handful first, then, die by die, the extra dice of each die
 * that shows its highest reading (as rpg-dice-roller draws them). A die's extra dice are
 * read right after it; then kh/kl keep and a target counts.
 */
export function evaluate(expression: DiceExpression, roll: (sides: number) => number): TermOutcome[] {
  return expression.terms.map((term) => {
    const read = () => (term.tensAndUnits ? roll(6) * 10 + roll(6) : roll(term.sides));
    const reading = (value: number, extra: number): Reading => ({
      value,
      sign: term.sign,
      exploded: term.explode === true && value === term.sides && extra < MAX_EXTRA_DICE_PER_DIE,
      dropped: false,
    });
    const handful = Array.from({ length: term.count }, () => reading(read(), 0));
    const readings = handful.flatMap((first) => {
      const chain = [first];
      while (chain[chain.length - 1].exploded) chain.push(reading(read(), chain.length));
      return chain;
    });
    if (term.keep) dropAllBut(readings, term.keep);
    if (term.target) for (const r of readings) r.success = meets(r.value, term.target);
    const kept = readings.filter((r) => !r.dropped);
    const value = term.target ? kept.filter((r) => r.success).length : kept.reduce((sum, r) => sum + r.value, 0);
    return { term, readings, value };
  });
}

/**
 * kh/kl: the highest (lowest) `count` readings are kept. Between equal readings, kh keeps the
 * later ones and kl the earlier ones, as rpg-dice-roller does: the total is the same either way.
 */
function dropAllBut(readings: Reading[], keep: NonNullable<DiceTerm['keep']>): void {
  const ascending = readings.map((r, index) => ({ value: r.value, index })).sort((a, b) => a.value - b.value || a.index - b.index);
  const dropped = keep.highest ? ascending.slice(0, ascending.length - keep.count) : ascending.slice(keep.count);
  for (const { index } of dropped) readings[index].dropped = true;
}

function meets(value: number, { comparison, value: target }: NonNullable<DiceTerm['target']>): boolean {
  switch (comparison) {
    case '>=':
      return value >= target;
    case '>':
      return value > target;
    case '<=':
      return value <= target;
    case '<':
      return value < target;
    case '=':
      return value === target;
  }
}
