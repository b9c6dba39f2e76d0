import * as fc from 'fast-check';
import type { LandingPolicy, ShiftPastPolicy, TableDefinition, TableEffect, TableResult, TableRow } from '../../domain/tables';
import type { Modifier, TableInput } from '../../domain/tables';

/**
 * Random valid tables of every kind, dice and policy, and inputs that each of them accepts.
 * Written without the code under test: labels, rows and ranges are worked out here on
 * small numbers (whole numbers and halves, exact in floating point).
 */

const DICE = ['1d4', '1d6', '2d6', '3d6', '1d8', '1d10', '2d10', '1d12', '1d20', '1d100', '5d8', '2d12', 'd66', 'none'] as const;

/** Codes players may pick, hostile-looking ones included: they are data, never object keys. */
const CODE_POOL = ['A', 'B', 'C', 'DR', 'AR', 'EX', 'NE', 'A1D13R', '1/2', 'D*', '-', '+', '.', 'x.y', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype'];
const EFFECT_POOL = ['loss', 'retreat', 'disrupted', 'step-loss', 'constructor', 'to-string', 'proto'];

const CODE_CHARACTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+*.-'];
const ID_CHARACTERS = [...'abcdefghijklmnopqrstuvwxyz0123456789-'];
// fc.string over an alphabet: fc.stringMatching is many times slower.
const code = fc.oneof(fc.constantFrom(...CODE_POOL), fc.string({ unit: fc.constantFrom(...CODE_CHARACTERS), minLength: 1, maxLength: 32 }));
const tableId = fc
  .tuple(fc.constantFrom(...ID_CHARACTERS.filter((c) => c !== '-')), fc.string({ unit: fc.constantFrom(...ID_CHARACTERS), maxLength: 20 }))
  .map(([first, rest]) => first + rest);

const effect: fc.Arbitrary<TableEffect> = fc.record(
  {
    effect: fc.constantFrom(...EFFECT_POOL),
    side: fc.constantFrom('attacker' as const, 'defender' as const),
    // Tables come from JSON, which has no -0.
    value: fc.oneof(fc.integer({ min: -20, max: 20 }), fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).map((v) => (v === 0 ? 0 : v))),
    note: fc.constantFrom('steps', 'one hex', 'see 7.3.3', '__proto__'),
  },
  { requiredKeys: ['effect'] },
);

function results(): fc.Arbitrary<TableResult[]> {
  return fc.uniqueArray(code, { minLength: 1, maxLength: 6 }).chain((codes) =>
    fc.tuple(
      ...codes.map((c) =>
        fc.record(
          { code: fc.constant(c), description: fc.constantFrom('attacker loses 1', 'no effect', 'defender retreats'), effects: fc.array(effect, { maxLength: 3 }) },
          { requiredKeys: ['code', 'effects'] },
        ),
      ),
    ),
  );
}

/** A label and its value, for a kind of column. */
interface Column {
  label: string;
  value: number;
  /** ratio only */
  attack?: number;
  defence?: number;
}

const sorted = (columns: Column[]) => [...columns].sort((a, b) => a.value - b.value);
const halves = (max: number) => fc.integer({ min: 1, max: 2 * max }).map((n) => n / 2);
const sideText = (n: number) => String(n);

function ratioColumns(nearest: boolean): fc.Arbitrary<Column[]> {
  if (nearest) {
    // n-1 or 1-n with whole n: the signed key k > 0 is k-1, k < 0 is 1-(1-k) (1-2, 1-3, …).
    return fc.uniqueArray(fc.integer({ min: -7, max: 8 }).filter((k) => k !== 0), { minLength: 1, maxLength: 8 }).chain((keys) =>
      fc.tuple(...keys.map(() => fc.constantFrom('-', ':'))).map((seps) =>
        sorted(
          keys.map((k, i) => {
            const [attack, defence] = k > 0 ? [k, 1] : [1, 1 - k];
            return { label: `${attack}${seps[i]}${defence}`, value: attack / defence, attack, defence };
          }),
        ),
      ),
    );
  }
  return fc
    .array(fc.tuple(halves(9), halves(9), fc.constantFrom('-', ':')), { minLength: 1, maxLength: 10 })
    .map((pairs) => {
      const byValue: Column[] = [];
      for (const [attack, defence, sep] of pairs) {
        // a/b = c/d exactly when a·d = c·b: products of halves are exact.
        if (byValue.some((c) => c.attack! * defence === attack * c.defence!)) continue;
        byValue.push({ label: `${sideText(attack)}${sep}${sideText(defence)}`, value: attack / defence, attack, defence });
      }
      return sorted(byValue).slice(0, 8);
    });
}

function differentialColumns(): fc.Arbitrary<Column[]> {
  return fc
    .uniqueArray(fc.integer({ min: -12, max: 12 }), { minLength: 1, maxLength: 8 })
    .chain((values) => fc.tuple(...values.map(() => fc.boolean())).map((plus) => sorted(values.map((v, i) => ({ label: v > 0 && plus[i] ? `+${v}` : String(v), value: v })))));
}

function thresholdColumns(): fc.Arbitrary<Column[]> {
  return fc
    .uniqueArray(fc.integer({ min: -10, max: 60 }), { minLength: 1, maxLength: 8 })
    .map((twice) => sorted(twice.map((t) => ({ label: String(t / 2), value: t / 2 }))));
}

/** The unmodified rolls of the dice: [least, greatest]. */
function naturalRange(dice: string): [number, number] {
  if (dice === 'd66') return [11, 66];
  const [count, sides] = dice.split('d').map(Number);
  return [count, count * sides];
}

function rowOf(low: number, high: number, style: boolean): TableRow {
  return low === high && style ? { roll: low } : { from: low, to: high };
}

/** Rows tiling the dice's rolls: cut into 1..12 runs, the ends possibly open (≤, ≥) or wider. */
function rowsFor(dice: string): fc.Arbitrary<TableRow[]> {
  const [low, high] = naturalRange(dice);
  const span = high - low + 1;
  const tiled = fc
    .record({
      cuts: fc.uniqueArray(fc.integer({ min: low + 1, max: high }), { maxLength: Math.min(11, span - 1) }),
      openLow: fc.constantFrom('closed', 'open', 'wider'),
      openHigh: fc.constantFrom('closed', 'open', 'wider'),
      single: fc.boolean(),
      widen: fc.integer({ min: 1, max: 5 }),
    })
    .map(({ cuts, openLow, openHigh, single, widen }) => {
      const starts = [low, ...cuts.sort((a, b) => a - b)];
      const rows: TableRow[] = starts.map((start, i) => rowOf(start, i + 1 < starts.length ? starts[i + 1] - 1 : high, single));
      const first = rows[0];
      const firstHigh = 'roll' in first ? first.roll : (first as { to: number }).to;
      if (openLow === 'open' && rows.length > 1) rows[0] = { atMost: firstHigh };
      if (openLow === 'wider') rows[0] = { from: low - widen, to: firstHigh };
      const lastIndex = rows.length - 1;
      const lastRow = rows[lastIndex];
      const lastLow = 'roll' in lastRow ? lastRow.roll : 'from' in lastRow ? lastRow.from : undefined;
      if (lastLow !== undefined && openHigh === 'open') rows[lastIndex] = { atLeast: lastLow };
      if (lastLow !== undefined && openHigh === 'wider') rows[lastIndex] = { from: lastLow, to: high + widen };
      return rows;
    });
  if (dice !== 'd66') return tiled;
  // d66 tables are often written by tens (11–16, 21–26, …) or one row per roll: gaps of 17–20 are allowed.
  const byTens: TableRow[] = [1, 2, 3, 4, 5, 6].map((t) => ({ from: 10 * t + 1, to: 10 * t + 6 }));
  const perRoll: TableRow[] = [1, 2, 3, 4, 5, 6].flatMap((t) => [1, 2, 3, 4, 5, 6].map((u) => ({ roll: 10 * t + u })));
  return fc.oneof(tiled, fc.constant(byTens), fc.constant(perRoll));
}

const shiftPast = (noDice: boolean): fc.Arbitrary<ShiftPastPolicy> => (noDice ? fc.constantFrom('clamp', 'refuse') : fc.constantFrom('clamp', 'die-modifier', 'refuse'));

/** Any valid table: any kind, landing, dice and policy; 1 to 8 columns, up to 36 rows. */
export function validTable(): fc.Arbitrary<TableDefinition> {
  return fc
    .record({
      kind: fc.constantFrom('ratio' as const, 'differential' as const, 'threshold' as const),
      landing: fc.constantFrom<LandingPolicy>('defender', 'attacker', 'nearest-defender', 'nearest-attacker'),
      dice: fc.constantFrom(...DICE),
    })
    .chain(({ kind, landing: anyLanding, dice }) => {
      const landing: LandingPolicy = kind === 'threshold' ? 'defender' : anyLanding;
      const nearest = landing === 'nearest-defender' || landing === 'nearest-attacker';
      const columns = kind === 'ratio' ? ratioColumns(nearest) : kind === 'differential' ? differentialColumns() : thresholdColumns();
      const noDice = dice === 'none';
      return fc
        .record({
          columns,
          rows: noDice ? fc.constant(undefined) : rowsFor(dice),
          results: results(),
          belowFirst: fc.constantFrom('refuse' as const, 'first-column' as const),
          aboveLast: fc.constantFrom('refuse' as const, 'last-column' as const),
          shiftPastLeft: shiftPast(noDice),
          shiftPastRight: shiftPast(noDice),
          rowsOffTable: fc.constantFrom('clamp' as const, 'refuse' as const),
          source: fc.option(fc.constantFrom('Wars and Battles, 7.3.3', 'a club table', 'constructor'), { nil: undefined }),
          example: fc.option(fc.boolean(), { nil: undefined }),
          id: tableId,
          title: fc.constantFrom('Combat table', 'Bombardment', 'CRT "set piece"', '__proto__', 'Tableau de combat'),
        })
        .chain((parts) => {
          const rowCount = parts.rows?.length ?? 1;
          const codes = parts.results.map((r) => r.code);
          return fc
            .array(fc.array(fc.constantFrom(...codes), { minLength: parts.columns.length, maxLength: parts.columns.length }), { minLength: rowCount, maxLength: rowCount })
            .map((cells) => {
              const table: TableDefinition = {
                format: 'arbiter-table/1',
                id: parts.id,
                title: parts.title,
                ...(parts.source !== undefined ? { source: parts.source } : {}),
                ...(parts.example !== undefined ? { example: parts.example } : {}),
                dice,
                columns: {
                  kind,
                  labels: parts.columns.map((c) => c.label),
                  landing,
                  belowFirst: parts.belowFirst,
                  aboveLast: parts.aboveLast,
                  shiftPastLeft: parts.shiftPastLeft,
                  shiftPastRight: parts.shiftPastRight,
                },
                ...(parts.rows ? { rows: parts.rows, rowsOffTable: parts.rowsOffTable } : {}),
                results: parts.results,
                cells,
              };
              return table;
            });
        });
    });
}

/** A label's value, read here without the code under test. */
export function labelValue(kind: TableDefinition['columns']['kind'], label: string): { value: number; attack?: number; defence?: number } {
  if (kind !== 'ratio') return { value: Number(label) };
  const [attack, defence] = label.split(/[-:]/).map(Number);
  return { value: attack / defence, attack, defence };
}

/** The rows' least and greatest rolls (±Infinity for open rows). */
export function rowsSpan(rows: readonly TableRow[]): [number, number] {
  const first = rows[0];
  const last = rows[rows.length - 1];
  const low = 'roll' in first ? first.roll : 'from' in first ? first.from : 'atMost' in first ? -Infinity : first.atLeast;
  const high = 'roll' in last ? last.roll : 'from' in last ? last.to : 'atLeast' in last ? Infinity : last.atMost;
  return [low, high];
}

function split(total: number, label: string): fc.Arbitrary<Modifier[]> {
  return fc.integer({ min: total === 0 ? 0 : 1, max: 3 }).chain((count) => {
    if (count === 0) return fc.constant([]);
    return fc.array(fc.integer({ min: -3, max: 3 }), { minLength: count - 1, maxLength: count - 1 }).map((parts) => {
      const rest = total - parts.reduce((s, p) => s + p, 0);
      return [...parts, rest].map((value, i) => ({ source: `${label} ${i + 1}`, value }));
    });
  });
}

/**
 * An input the table accepts, and dice for it: attack and defence (or a value) on a
 * column, between two columns (ties and halves included) or past an end the table allows;
 * shifts that stay on the table where it refuses to leave it; modifiers that stay on the rows
 * where it refuses to leave them.
 */
export function inputFor(table: TableDefinition): fc.Arbitrary<{ input: TableInput; dice: number[] }> {
  const { kind, labels, landing, belowFirst, aboveLast, shiftPastLeft, shiftPastRight } = table.columns;
  const values = labels.map((label) => labelValue(kind, label));
  const last = labels.length - 1;
  const modes: ('exact' | 'between' | 'left' | 'right')[] = ['exact'];
  if (last > 0) modes.push('between');
  if (belowFirst === 'first-column') modes.push('left');
  if (aboveLast === 'last-column') modes.push('right');

  const landed = fc
    .record({ mode: fc.constantFrom(...modes), column: fc.integer({ min: 0, max: last }), scale: fc.constantFrom(1, 2, 0.5, 3, 10), base: fc.integer({ min: 0, max: 20 }), beyond: fc.integer({ min: 1, max: 5 }) })
    .map(({ mode, column, scale, base, beyond }): { input: TableInput; range: [number, number] } => {
      const i = mode === 'between' ? Math.min(column, last - 1) : mode === 'left' ? 0 : mode === 'right' ? last : column;
      const here = values[i];
      if (kind === 'ratio') {
        const a = here.attack!;
        const d = here.defence!;
        if (mode === 'exact') return { input: { attack: a * scale, defence: d * scale }, range: [i, i] };
        if (mode === 'left') return { input: { attack: a, defence: d * (beyond + 1) }, range: [0, 0] };
        if (mode === 'right') return { input: { attack: a * (beyond + 1), defence: d }, range: [last, last] };
        const next = values[i + 1];
        // The midpoint of the two ratios: a·d' + a'·d over 2·d·d'.
        return { input: { attack: a * next.defence! + next.attack! * d, defence: 2 * d * next.defence! }, range: [i, i + 1] };
      }
      const target = mode === 'exact' ? here.value : mode === 'left' ? here.value - beyond : mode === 'right' ? here.value + beyond : (here.value + values[i + 1].value) / 2;
      const range: [number, number] = mode === 'between' ? [i, i + 1] : [i, i];
      if (kind === 'threshold') return { input: { value: target }, range };
      const defence = base + Math.max(0, -target);
      return { input: { attack: defence + target, defence }, range };
    });

  const rows = table.rows;
  const noDice = table.dice === 'none';
  const refuseRows = table.rowsOffTable === 'refuse';
  return landed.chain(({ input, range: [lo, hi] }) => {
    // Shifts: within the table where leaving it is refused, or where a die modifier could take the roll off refused rows.
    const keepLeft = shiftPastLeft === 'refuse' || (shiftPastLeft === 'die-modifier' && refuseRows);
    const keepRight = shiftPastRight === 'refuse' || (shiftPastRight === 'die-modifier' && refuseRows);
    const minShift = keepLeft ? -lo : -lo - 4;
    const maxShift = keepRight ? last - hi : last - hi + 4;
    let modifierRange: [number, number] = [0, 0];
    if (!noDice && !refuseRows) modifierRange = [-4, 4];
    if (!noDice && refuseRows && table.dice !== 'd66') {
      const [nLow, nHigh] = naturalRange(table.dice);
      const [rLow, rHigh] = rowsSpan(rows!);
      modifierRange = [Math.max(-4, rLow - nLow), Math.min(4, rHigh - nHigh)];
    }
    const dice: fc.Arbitrary<number[]> = noDice
      ? fc.constant([])
      : table.dice === 'd66'
        ? fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }))
        : (() => {
            const [count, sides] = table.dice.split('d').map(Number);
            return fc.array(fc.integer({ min: 1, max: sides }), { minLength: count, maxLength: count });
          })();
    return fc
      .record({
        shifts: fc.integer({ min: minShift, max: maxShift }).chain((total) => split(total, 'shift')),
        modifiers: noDice ? fc.constant([]) : fc.integer({ min: modifierRange[0], max: modifierRange[1] }).chain((total) => split(total, 'modifier')),
        dice,
      })
      .map(({ shifts, modifiers, dice: faces }) => ({
        input: { ...input, ...(shifts.length ? { shifts } : {}), ...(modifiers.length ? { modifiers } : {}) },
        dice: faces,
      }));
  });
}

/** Any input at all, accepted or not: for the property that a table refuses before rolling. */
export function anyInput(): fc.Arbitrary<TableInput> {
  const number = fc.oneof(fc.integer({ min: -5, max: 40 }), fc.double({ min: -100, max: 100, noNaN: true }), fc.constantFrom(0, 0.5, 1e-9, 1e9));
  const modifiers = fc.array(fc.record({ source: fc.constantFrom('terrain', '__proto__', 'leader'), value: fc.oneof(fc.integer({ min: -8, max: 8 }), fc.constantFrom(0.5, -1.5)) }), { maxLength: 3 });
  return fc.oneof(
    fc.record({ attack: number, defence: number, shifts: modifiers, modifiers }, { requiredKeys: ['attack', 'defence'] }),
    fc.record({ value: number, shifts: modifiers, modifiers }, { requiredKeys: ['value'] }),
    fc.record({ attack: number, defence: number, value: number, shifts: modifiers, modifiers }, { requiredKeys: [] }),
  );
}
