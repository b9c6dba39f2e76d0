import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../domain/dice';
import { RuleViolation } from '../../../domain/errors';
import { resolveOnTable, tableHash, validateTable, type TableDefinition, type TableInput, type TableRow } from '../../../domain/tables';
import { seededRandom } from '../../support/seededRandom';
import { anyInput, inputFor, labelValue, validTable } from '../../support/tableArbitraries';

const tableWithInput = validTable().chain((table) => inputFor(table).map((given) => ({ table, ...given })));

/** The row's least and greatest rolls, read here. */
function bounds(row: TableRow): [number, number] {
  if ('roll' in row) return [row.roll, row.roll];
  if ('from' in row) return [row.from, row.to];
  if ('atMost' in row) return [-Infinity, row.atMost];
  return [row.atLeast, Infinity];
}

/**
 * Where an input lands, worked out again in floating point (the generated numbers are
 * whole numbers and halves, so every comparison here is exact): a column index, or the
 * end it falls off.
 */
function oracleColumn(table: TableDefinition, input: TableInput): number | 'below' | 'above' {
  const { kind, labels, landing } = table.columns;
  const values = labels.map((label) => labelValue(kind, label).value);
  let target: number;
  if (kind === 'threshold') target = input.value!;
  else if (kind === 'differential') target = input.attack! - input.defence!;
  else target = input.attack! / input.defence!;
  if (landing === 'nearest-defender' || landing === 'nearest-attacker') {
    const towardsAttacker = landing === 'nearest-attacker';
    const round = (n: number, up: boolean) => (up ? Math.floor(n + 0.5) : Math.ceil(n - 0.5));
    if (kind === 'differential') target = round(target, towardsAttacker);
    else if (input.attack! >= input.defence!) target = round(input.attack! / input.defence!, towardsAttacker);
    else target = 1 / round(input.defence! / input.attack!, !towardsAttacker);
  }
  if (target < values[0]) return 'below';
  if (target > values[values.length - 1]) return 'above';
  if (landing === 'attacker') return values.findIndex((v) => v >= target);
  return values.findLastIndex((v) => v <= target);
}

describe('every generated table', () => {
  it('passes validateTable, unchanged, with its hash', () => {
    fc.assert(
      fc.property(validTable(), (table) => {
        const validation = validateTable(JSON.parse(JSON.stringify(table)));
        if (!validation.ok) throw new Error(JSON.stringify(validation.issues));
        expect(validation.table).toEqual(table);
        expect(validation.hash).toBe(tableHash(table));
      }),
      { numRuns: 300 },
    );
  });
});

describe('any valid table and any in-range input', () => {
  it('resolve to exactly one cell: the one its column and row pick', () => {
    fc.assert(
      fc.property(tableWithInput, ({ table, input, dice }) => {
        const given = new GivenDice(dice);
        const resolution = resolveOnTable(table, input, given);
        const last = table.columns.labels.length - 1;

        // The column: the one the input lands on, moved by its shifts.
        const landed = oracleColumn(table, input);
        const landedIndex = landed === 'below' ? 0 : landed === 'above' ? last : landed;
        expect(resolution.landing.landedColumn).toEqual({ index: landedIndex, label: table.columns.labels[landedIndex] });
        const total = (input.shifts ?? []).reduce((s, m) => s + m.value, 0);
        const shifted = landedIndex + total;
        const column = Math.min(last, Math.max(0, shifted));
        expect(resolution.landing.column.index).toBe(column);
        const past = shifted - column;
        const policy = past > 0 ? table.columns.shiftPastRight : table.columns.shiftPastLeft;
        expect(resolution.landing.dieModifier).toBe(past !== 0 && policy === 'die-modifier' ? past : 0);
        expect(resolution.landing.lostShift).toBe(past !== 0 && policy === 'clamp' ? past : 0);

        // The row: the only one holding the modified roll, or the nearest when none does.
        let row = 0;
        if (table.rows) {
          const natural = table.dice === 'd66' ? 10 * dice[0] + dice[1] : dice.reduce((s, d) => s + d, 0);
          const modified = natural + (input.modifiers ?? []).reduce((s, m) => s + m.value, 0) + resolution.landing.dieModifier;
          expect(resolution.roll).toMatchObject({ dice: table.dice, faces: dice, natural, modified });
          const holding = table.rows.flatMap((r, i) => (bounds(r)[0] <= modified && modified <= bounds(r)[1] ? [i] : []));
          expect(holding.length).toBeLessThanOrEqual(1);
          if (holding.length === 1) row = holding[0];
          else {
            expect(table.rowsOffTable).toBe('clamp');
            const distance = (r: TableRow) => Math.max(bounds(r)[0] - modified, modified - bounds(r)[1]);
            const nearest = Math.min(...table.rows.map(distance));
            row = table.rows.findIndex((r) => distance(r) === nearest);
          }
          expect(resolution.roll!.row.index).toBe(row);
        } else {
          expect(resolution.roll).toBeNull();
        }
        expect(resolution.code).toBe(table.cells[row][column]);
        expect(resolution.effects).toEqual(table.results.find((r) => r.code === resolution.code)!.effects);
        expect(given.unused).toBe(0);
      }),
      { numRuns: 500 },
    );
  });
});

describe('any input at all', () => {
  it('resolves, or is refused with a RuleViolation before any die is drawn', () => {
    fc.assert(
      fc.property(validTable(), anyInput(), fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 5, maxLength: 5 }), (table, input, dice) => {
        const given = new GivenDice(dice);
        try {
          const resolution = resolveOnTable(table, input, given);
          expect(table.cells[resolution.roll?.row.index ?? 0][resolution.landing.column.index]).toBe(resolution.code);
        } catch (error) {
          expect(error).toBeInstanceOf(RuleViolation);
          expect(given.drawn).toEqual([]);
          expect((error as RuleViolation).rule.startsWith(`table ${table.id}: `)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

/** The same JSON with every object's keys in another order. */
function shuffleKeys(value: unknown, next: () => number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, next));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value);
  for (let i = entries.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [entries[i], entries[j]] = [entries[j], entries[i]];
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, shuffleKeys(v, next)]));
}

describe('the hash', () => {
  it('does not change with key order', () => {
    fc.assert(
      fc.property(validTable(), fc.integer({ min: 1, max: 2 ** 31 - 1 }), (table, seed) => {
        const shuffled = shuffleKeys(table, seededRandom(seed).next) as TableDefinition;
        expect(tableHash(shuffled)).toBe(tableHash(table));
        const validation = validateTable(shuffled);
        expect(validation.ok && validation.hash).toBe(tableHash(table));
      }),
      { numRuns: 200 },
    );
  });

  it('changes when any cell changes', () => {
    fc.assert(
      fc.property(validTable(), fc.nat(), fc.nat(), (table, rowPick, columnPick) => {
        const row = rowPick % table.cells.length;
        const column = columnPick % table.columns.labels.length;
        const changed = structuredClone(table);
        const other = table.results.find((r) => r.code !== table.cells[row][column]);
        if (other) changed.cells[row][column] = other.code;
        else {
          changed.results.push({ code: `${table.results[0].code}2`.slice(-32), effects: [] });
          changed.cells[row][column] = changed.results[1].code;
        }
        expect(validateTable(changed).ok).toBe(true);
        expect(tableHash(changed)).not.toBe(tableHash(table));
      }),
      { numRuns: 300 },
    );
  });
});

describe('validateTable on hostile input', () => {
  it('never throws, whatever the JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        const validation = validateTable(json);
        expect(validation.ok).toBe(false);
        if (!validation.ok) for (const issue of validation.issues) expect(typeof issue.path === 'string' && typeof issue.message === 'string').toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on a valid table with one value replaced by any JSON, and names a place when it refuses', () => {
    fc.assert(
      fc.property(validTable(), fc.nat(), fc.jsonValue({ maxDepth: 2 }), (table, pick, replacement) => {
        const copy = structuredClone(table) as unknown;
        // Every place in the table: objects' keys and arrays' indexes.
        const places: { parent: Record<string | number, unknown>; key: string | number }[] = [];
        const walk = (value: unknown) => {
          if (typeof value !== 'object' || value === null) return;
          for (const key of Object.keys(value)) {
            places.push({ parent: value as Record<string, unknown>, key: Array.isArray(value) ? Number(key) : key });
            walk((value as Record<string, unknown>)[key]);
          }
        };
        walk(copy);
        const { parent, key } = places[pick % places.length];
        parent[key] = replacement;
        const validation = validateTable(copy);
        if (!validation.ok) {
          expect(validation.issues.length).toBeGreaterThan(0);
          for (const issue of validation.issues) expect(issue.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });
});
