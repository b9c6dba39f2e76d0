/**
 * Dice expressions of the `dice` ruleset (docs/rulesets/dice.md):
 *   expr = term (("+" | "-") term)*      term = dice | integer
 * Notation 1 (games of rules version 1): dice = [count] "d" sides, e.g. 2d6, 3d6+1, 1d6+1d4-1;
 * d% is refused and d66 is a 66-sided die.
 * Notation 2 (rules version 2) adds, in this order after the die:
 *   dice = [count] "d" (sides | "%") ["!"] [("kh" | "kl" | "k") keep] [("<=" | "<" | ">=" | ">" | "=") target]
 * where d% is a d100 and d66 reads two d6, tens then units (11..66).
 * Spaces are ignored; "D", "K", "H", "L" read as their small letters.
 */
export type Notation = 1 | 2;

export const COMPARISONS = ['>=', '>', '<=', '<', '='] as const;
export type Comparison = (typeof COMPARISONS)[number];

export interface DiceTerm {
  sign: 1 | -1;
  count: number;
  /** The highest reading: the die's sides, or 66 for a d66. */
  sides: number;
  /** A d66: two d6 drawn for each reading, the first the tens, the second the units. */
  tensAndUnits?: true;
  /** A die showing its highest reading rolls one more die (MAX_EXTRA_DICE_PER_DIE at most). */
  explode?: true;
  keep?: { highest: boolean; count: number };
  /** The term counts the dice that meet the target instead of adding them up. */
  target?: { comparison: Comparison; value: number };
}

export interface DiceExpression {
  terms: DiceTerm[];
  modifier: number;
}

export class DiceExpressionError extends Error {
  constructor(
    message: string,
    /** 1-based position in the expression as sent (spaces included). */
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
    this.name = 'DiceExpressionError';
  }
}

const MAX_NUMBER_DIGITS = 7;
const D66 = 66;

/** Does reading this expression need notation 2? (d% needs it only to be read: it is recorded as 1d100.) */
export const needsNotation2 = ({ terms }: DiceExpression): boolean =>
  terms.some((t) => t.tensAndUnits || t.explode || t.keep || t.target);

export function parseDiceExpression(source: string, notation: Notation = 2): DiceExpression {
  const terms: DiceTerm[] = [];
  let modifier = 0;
  let i = 0;
  const skipSpaces = () => {
    while (i < source.length && source[i] === ' ') i++;
  };
  const readNumber = (): number | undefined => {
    const start = i;
    while (i < source.length && source[i] >= '0' && source[i] <= '9') i++;
    if (i === start) return undefined;
    if (i - start > MAX_NUMBER_DIGITS) throw new DiceExpressionError('number too long', start + 1);
    return Number(source.slice(start, i));
  };
  /** The next character after spaces, small letters for capitals. */
  const peek = (): string | undefined => {
    skipSpaces();
    return source[i]?.toLowerCase();
  };
  const readModifiers = (term: DiceTerm) => {
    if (peek() === '!') {
      i++;
      term.explode = true;
    }
    if (peek() === 'k') {
      const at = i + 1;
      i++;
      const which = peek();
      if (which === 'h' || which === 'l') i++;
      skipSpaces();
      const count = readNumber();
      if (count === undefined) throw new DiceExpressionError('expected how many dice to keep after "k"', i + 1);
      if (count < 1) throw new DiceExpressionError('keep at least one die', at);
      if (count > term.count) throw new DiceExpressionError(`keeps ${count} of ${term.count} dice`, at);
      term.keep = { highest: which !== 'l', count };
    }
    skipSpaces();
    const comparison = COMPARISONS.find((c) => source.startsWith(c, i));
    if (comparison) {
      i += comparison.length;
      skipSpaces();
      const value = readNumber();
      if (value === undefined) throw new DiceExpressionError(`expected a target number after "${comparison}"`, i + 1);
      term.target = { comparison, value };
    }
    const next = peek();
    if (next !== undefined && '!k<>='.includes(next)) {
      throw new DiceExpressionError(`"${source[i]}" is out of order or repeated: after the die come "!", then "kh" or "kl", then the target`, i + 1);
    }
  };

  skipSpaces();
  if (i >= source.length) throw new DiceExpressionError('empty expression', 1);
  let sign: 1 | -1 = 1;
  for (;;) {
    skipSpaces();
    const termStart = i;
    const count = readNumber();
    skipSpaces();
    if (source[i] === 'd' || source[i] === 'D') {
      i++;
      skipSpaces();
      let sides: number | undefined;
      if (source[i] === '%') {
        if (notation === 1) throw new DiceExpressionError('d% is not supported, write d100', i + 1);
        i++;
        sides = 100;
      } else {
        sides = readNumber();
      }
      if (sides === undefined) throw new DiceExpressionError('expected the number of sides after "d"', i + 1);
      if (count === 0) throw new DiceExpressionError('a dice term needs at least one die', termStart + 1);
      const term: DiceTerm = { sign, count: count ?? 1, sides };
      if (notation === 2) {
        if (sides === D66) term.tensAndUnits = true;
        readModifiers(term);
      }
      terms.push(term);
    } else if (count !== undefined) {
      modifier += sign * count;
    } else {
      throw new DiceExpressionError(
        i < source.length ? `unexpected "${source[i]}"` : 'expected a term',
        Math.min(i, source.length) + 1,
      );
    }
    skipSpaces();
    if (i >= source.length) break;
    if (source[i] === '+') sign = 1;
    else if (source[i] === '-') sign = -1;
    else throw new DiceExpressionError(`unexpected "${source[i]}", expected "+" or "-"`, i + 1);
    i++;
  }
  if (terms.length === 0) throw new DiceExpressionError('an expression needs at least one die', 1);
  return { terms, modifier };
}

/** The normalized form recorded in `DiceRolled.dice`: counts written out, no spaces, d% as 1d100, "k" as "kh". */
export function formatDiceExpression({ terms, modifier }: DiceExpression): string {
  let text = '';
  terms.forEach((t, index) => {
    const op = t.sign < 0 ? '-' : index === 0 ? '' : '+';
    text += `${op}${t.count}d${t.sides}`;
    if (t.explode) text += '!';
    if (t.keep) text += `${t.keep.highest ? 'kh' : 'kl'}${t.keep.count}`;
    if (t.target) text += `${t.target.comparison}${t.target.value}`;
  });
  if (modifier > 0) text += `+${modifier}`;
  if (modifier < 0) text += `-${-modifier}`;
  return text;
}
