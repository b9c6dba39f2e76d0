import { RuleViolation } from '../errors';
import type { TableDefinition } from './definition';
import { columnValues } from './labels';
import { compare, divide, fromNumber, rational, roundHalf, showRational, subtract, type Rational } from './rational';

/** A column shift or a die modifier, and where it comes from. */
export interface Modifier {
  source: string;
  value: number;
}

/** What a table reads: attack and defence (ratio, differential) or one value (threshold); shifts and die modifiers. */
export interface TableInput {
  attack?: number;
  defence?: number;
  value?: number;
  /** column shifts, + to the right */
  shifts?: readonly Modifier[];
  /** die modifiers, added to the roll */
  modifiers?: readonly Modifier[];
}

export interface TableLanding {
  kind: 'ratio' | 'differential' | 'threshold';
  attack?: number;
  defence?: number;
  value?: number;
  /** How the input reads before landing, e.g. "13:2 = 6.5:1", "+3", "15" */
  reads: string;
  /** rounded ratio/differential when landing is nearest-*, e.g. "6:1" */
  rounded?: string;
  /** before shifts */
  landedColumn: { index: number; label: string };
  shifts: { total: number; sources: Modifier[] };
  /** after shifts */
  column: { index: number; label: string };
  /** columns past an end (signed: + right, − left) that became a die modifier; 0 otherwise */
  dieModifier: number;
  /** columns past an end that were lost (clamp); signed as dieModifier: + right, − left; 0 otherwise */
  lostShift: number;
}

/** The `rule` of a refusal: the table and the policy or check, e.g. "table wb-combat: belowFirst refuse". */
export const tableRule = (table: TableDefinition, what: string) => `table ${table.id}: ${what}`;

/** A value as a message shows it: numbers as numbers, anything else as JSON. */
const showValue = (value: unknown) => (typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value)));
const named = (table: TableDefinition) => JSON.stringify(table.title);
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
const plural = (n: number, one: string, many: string) => `${n} ${Math.abs(n) === 1 ? one : many}`;

/**
 * Where an input lands on a table, and where its shifts take it: no dice. Throws a
 * RuleViolation, in a player's words, for an input the table refuses.
 */
export function landOnTable(table: TableDefinition, input: TableInput): TableLanding {
  const kind = table.columns.kind;
  const labels = table.columns.labels;
  const read = kind === 'threshold' ? readValue(table, input) : readStrengths(table, input);
  const shiftSources = checkedModifiers(table, input.shifts, 'shift');
  const total = sum(table, shiftSources, 'shift');

  const columns = columnValues(kind, labels);
  const last = columns.length - 1;
  const landing = table.columns.landing;
  const target = read.target;
  // Off an end: the input (rounded, for nearest-*) is less than the first label or greater
  // than the last, whatever the landing; between them, the landing picks the column.
  let index: number;
  if (compare(target, columns[0]) < 0) index = -1;
  else if (compare(target, columns[last]) > 0) index = last + 1;
  else if (landing === 'attacker') index = columns.findIndex((c) => compare(c, target) >= 0);
  else index = columns.findLastIndex((c) => compare(c, target) <= 0);
  if (index < 0) {
    if (table.columns.belowFirst === 'refuse') {
      throw new RuleViolation(
        `${read.phrase} ${read.plural ? 'are' : 'is'} left of the first column (${labels[0]}) of ${named(table)}, and this table refuses attacks off its left end.`,
        tableRule(table, 'belowFirst refuse'),
      );
    }
    index = 0;
  } else if (index > last) {
    if (table.columns.aboveLast === 'refuse') {
      throw new RuleViolation(
        `${read.phrase} ${read.plural ? 'are' : 'is'} right of the last column (${labels[last]}) of ${named(table)}, and this table refuses attacks off its right end.`,
        tableRule(table, 'aboveLast refuse'),
      );
    }
    index = last;
  }

  const shifted = index + total;
  let column = shifted;
  let dieModifier = 0;
  let lostShift = 0;
  if (shifted > last || shifted < 0) {
    const right = shifted > last;
    const past = right ? shifted - last : shifted;
    const policy = right ? table.columns.shiftPastRight : table.columns.shiftPastLeft;
    if (policy === 'refuse') {
      const end = right ? `the last column (${labels[last]})` : `the first column (${labels[0]})`;
      throw new RuleViolation(
        `A shift of ${signed(total)} ${Math.abs(total) === 1 ? 'column' : 'columns'} from ${labels[index]} goes ${plural(Math.abs(past), 'column', 'columns')} past ${end} of ${named(table)}, and this table refuses shifts past its ${right ? 'right' : 'left'} end.`,
        tableRule(table, `${right ? 'shiftPastRight' : 'shiftPastLeft'} refuse`),
      );
    }
    column = right ? last : 0;
    if (policy === 'die-modifier') dieModifier = past;
    else lostShift = past;
  }

  return {
    kind,
    ...(read.attack !== undefined ? { attack: read.attack, defence: read.defence } : {}),
    ...(read.value !== undefined ? { value: read.value } : {}),
    reads: read.reads,
    ...(read.rounded !== undefined ? { rounded: read.rounded } : {}),
    landedColumn: { index, label: labels[index] },
    shifts: { total, sources: shiftSources },
    column: { index: column, label: labels[column] },
    dieModifier,
    lostShift,
  };
}

interface ReadInput {
  attack?: number;
  defence?: number;
  value?: number;
  /** what the columns are compared with (after nearest-* rounding) */
  target: Rational;
  reads: string;
  rounded?: string;
  /** "Odds of 1:5", "A differential of -4", "A value of 2": the subject of a refusal */
  phrase: string;
  plural: boolean;
}

function readStrengths(table: TableDefinition, input: TableInput): ReadInput {
  const kind = table.columns.kind;
  const ratio = kind === 'ratio';
  const reads = ratio ? 'odds of attack to defence' : 'the difference of attack and defence';
  if (input.value !== undefined) {
    throw new RuleViolation(`${named(table)} reads ${reads}, not a single value: leave "value" out and give "attack" and "defence".`, tableRule(table, `${kind} input`));
  }
  const strength = (name: 'attack' | 'defence'): number => {
    const given = input[name];
    if (given === undefined) throw new RuleViolation(`${named(table)} reads ${reads}: the ${name} strength is missing.`, tableRule(table, `${kind} input`));
    if (typeof given !== 'number' || !Number.isFinite(given)) {
      throw new RuleViolation(`The ${name} strength must be a number; it is ${showValue(given)}.`, tableRule(table, `${kind} input`));
    }
    if (ratio ? given <= 0 : given < 0) {
      throw new RuleViolation(
        ratio ? `The ${name} strength must be greater than 0 to read odds on ${named(table)}; it is ${given}.` : `The ${name} strength can't be negative; it is ${given}.`,
        tableRule(table, `${kind} input`),
      );
    }
    return given;
  };
  const attack = strength('attack');
  const defence = strength('defence');
  const a = fromNumber(attack);
  const d = fromNumber(defence);
  const landing = table.columns.landing;
  const nearest = landing === 'nearest-attacker' || landing === 'nearest-defender';
  if (ratio) {
    const odds = divide(a, d);
    const atLeastEven = compare(a, d) >= 0;
    const n = atLeastEven ? odds : divide(d, a);
    const shown = showRational(n);
    const reduced = atLeastEven ? `${shown.text}:1` : `1:${shown.text}`;
    const readsText = `${attack}:${defence} ${shown.approximate ? '≈' : '='} ${reduced}`;
    const base = { attack, defence, reads: readsText, phrase: `Odds of ${attack}:${defence}`, plural: true };
    if (!nearest) return { ...base, target: odds };
    // n:1 rounds up for the attacker; 1:n rounds down for the attacker.
    const halfUp = atLeastEven === (landing === 'nearest-attacker');
    const whole = roundHalf(n, halfUp);
    const rounded = atLeastEven ? `${whole}:1` : `1:${whole}`;
    return { ...base, target: atLeastEven ? rational(whole) : rational(1n, whole), rounded, phrase: `Odds of ${attack}:${defence} (rounded to ${rounded})` };
  }
  const difference = subtract(a, d);
  const shown = showRational(difference, 4).text;
  const readsText = difference.n > 0n ? `+${shown}` : shown;
  const base = { attack, defence, reads: readsText, phrase: `A differential of ${readsText}`, plural: false };
  if (!nearest) return { ...base, target: difference };
  const whole = roundHalf(difference, landing === 'nearest-attacker');
  const rounded = whole > 0n ? `+${whole}` : String(whole);
  return { ...base, target: rational(whole), rounded, phrase: `A differential of ${readsText} (rounded to ${rounded})` };
}

function readValue(table: TableDefinition, input: TableInput): ReadInput {
  if (input.attack !== undefined || input.defence !== undefined) {
    throw new RuleViolation(`${named(table)} reads one value, not attack and defence: give "value" only.`, tableRule(table, 'threshold input'));
  }
  const value = input.value;
  if (value === undefined) throw new RuleViolation(`${named(table)} reads one value, and none was given.`, tableRule(table, 'threshold input'));
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new RuleViolation(`The value must be a number; it is ${showValue(value)}.`, tableRule(table, 'threshold input'));
  }
  return { value, target: fromNumber(value), reads: String(value), phrase: `A value of ${value}`, plural: false };
}

/** Copies of the given shifts or modifiers, each a whole number. */
export function checkedModifiers(table: TableDefinition, given: readonly Modifier[] | undefined, what: 'shift' | 'modifier'): Modifier[] {
  return (given ?? []).map((m) => {
    if (typeof m.value !== 'number' || !Number.isSafeInteger(m.value)) {
      throw new RuleViolation(
        what === 'shift'
          ? `A column shift is a whole number of columns: ${JSON.stringify(m.source)} is ${showValue(m.value)}.`
          : `A die modifier is a whole number: ${JSON.stringify(m.source)} is ${showValue(m.value)}.`,
        tableRule(table, what === 'shift' ? 'shifts' : 'modifiers'),
      );
    }
    return { source: m.source, value: m.value };
  });
}

export function sum(table: TableDefinition, items: readonly Modifier[], what: 'shift' | 'modifier'): number {
  const total = items.reduce((s, m) => s + m.value, 0);
  if (!Number.isSafeInteger(total)) {
    throw new RuleViolation(`The ${what === 'shift' ? 'column shifts' : 'die modifiers'} add up to more than any table holds.`, tableRule(table, what === 'shift' ? 'shifts' : 'modifiers'));
  }
  return total;
}
