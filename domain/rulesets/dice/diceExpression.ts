/**
 * Dice expressions of the `dice` ruleset:
 *   expr = term (("+" | "-") term)*      term = [count] "d" sides | integer
 * e.g. d6, 2d6, 3d6+1, 1d6+1d4-1. Spaces are ignored; d% is not supported.
 */
export interface DiceTerm {
  sign: 1 | -1;
  count: number;
  sides: number;
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

export function parseDiceExpression(source: string): DiceExpression {
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
      if (source[i] === '%') throw new DiceExpressionError('d% is not supported, write d100', i + 1);
      const sides = readNumber();
      if (sides === undefined) throw new DiceExpressionError('expected the number of sides after "d"', i + 1);
      if (count === 0) throw new DiceExpressionError('a dice term needs at least one die', termStart + 1);
      terms.push({ sign, count: count ?? 1, sides });
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

/** The normalized form recorded in `DiceRolled.dice`: counts written out, no spaces. */
export function formatDiceExpression({ terms, modifier }: DiceExpression): string {
  let text = '';
  terms.forEach((t, index) => {
    const op = t.sign < 0 ? '-' : index === 0 ? '' : '+';
    text += `${op}${t.count}d${t.sides}`;
  });
  if (modifier > 0) text += `+${modifier}`;
  if (modifier < 0) text += `-${-modifier}`;
  return text;
}
