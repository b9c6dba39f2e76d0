import { divide, parseDecimal, rational, type Rational } from './rational';

/** How a table reads its input, and so how its column labels are written. */
export type ColumnKind = 'ratio' | 'differential' | 'threshold';

/** A column label read as a number: the ratio a/d, the differential, or the threshold. */
export interface ColumnValue {
  value: Rational;
  /** ratio only: the two sides as written ("2-3": 2 and 3) */
  attack?: Rational;
  defence?: Rational;
}

// Fixed patterns: a label is data, matched against these, never made into a pattern.
const RATIO = /^(\d{1,9}(?:\.\d{1,6})?)[-:](\d{1,9}(?:\.\d{1,6})?)$/;
const DIFFERENTIAL = /^[+-]?\d{1,9}$/;
const THRESHOLD = /^[+-]?\d{1,9}(?:\.\d{1,6})?$/;

/** What any label may look like, whatever its kind (published in the JSON Schema; the kind's own pattern is checked after). */
export const ANY_LABEL = /^(?:\d{1,9}(?:\.\d{1,6})?[-:]\d{1,9}(?:\.\d{1,6})?|[+-]?\d{1,9}(?:\.\d{1,6})?)$/;

export const LABEL_HELP: Record<ColumnKind, string> = {
  ratio: 'a ratio label is two positive numbers joined by "-" or ":", e.g. "1-2", "3:2" or "1.5-1"',
  differential: 'a differential label is a whole number, e.g. "-3", "0" or "+2"',
  threshold: 'a threshold label is a number, the least value of its column, e.g. "0", "12" or "2.5"',
};

/** The value of a column label, or a reason it is not one of this kind. */
export function readLabel(kind: ColumnKind, label: string): ColumnValue | { problem: string } {
  switch (kind) {
    case 'ratio': {
      const match = RATIO.exec(label);
      if (!match) return { problem: `${JSON.stringify(label)} is not a ratio: ${LABEL_HELP.ratio}` };
      const attack = parseDecimal(match[1])!;
      const defence = parseDecimal(match[2])!;
      if (attack.n === 0n || defence.n === 0n) return { problem: `${JSON.stringify(label)} is not a ratio: both sides must be greater than 0` };
      return { value: divide(attack, defence), attack, defence };
    }
    case 'differential':
      if (!DIFFERENTIAL.test(label)) return { problem: `${JSON.stringify(label)} is not a differential: ${LABEL_HELP.differential}` };
      return { value: parseDecimal(label)! };
    case 'threshold':
      if (!THRESHOLD.test(label)) return { problem: `${JSON.stringify(label)} is not a threshold: ${LABEL_HELP.threshold}` };
      return { value: parseDecimal(label)! };
  }
}

export const isProblem = (read: ColumnValue | { problem: string }): read is { problem: string } => 'problem' in read;

/** The values of a valid table's labels, left to right (throws on a label validation would refuse). */
export function columnValues(kind: ColumnKind, labels: readonly string[]): Rational[] {
  return labels.map((label) => {
    const read = readLabel(kind, label);
    if (isProblem(read)) throw new Error(`invalid table: ${read.problem}`);
    return read.value;
  });
}

/**
 * For the nearest-* landings, a ratio label must be n-1 or 1-n with whole n: the value n
 * (for n-1) or 1/n (for 1-n), or a reason it is not.
 */
export function unitRatio(read: ColumnValue): Rational | undefined {
  const { attack, defence } = read;
  if (!attack || !defence) return undefined;
  const one = rational(1n);
  const isOne = (r: Rational) => r.n === one.n && r.d === one.d;
  if (isOne(defence) && attack.d === 1n) return read.value;
  if (isOne(attack) && defence.d === 1n) return read.value;
  return undefined;
}
