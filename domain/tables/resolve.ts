import type { DiceSource } from '../dice';
import { RuleViolation } from '../errors';
import type { TableDefinition, TableEffect } from './definition';
import { tableHash } from './hash';
import { checkedModifiers, landOnTable, sum, tableRule, type Modifier, type TableInput, type TableLanding } from './landing';
import { naturalRolls, nearestRow, readDice, rowHolding, rowLabel, type TableDice } from './rows';

export { landOnTable, tableRule, type Modifier, type TableInput, type TableLanding } from './landing';
export { rowLabel } from './rows';

/** The source of the die modifier that shifts past an end of the table become. */
export const SHIFT_PAST_END = 'shift past the end of the table';

export interface TableRoll {
  dice: string;
  /** each die as rolled; d66: tens then units */
  faces: number[];
  natural: number;
  /** the input's modifiers, then the shift past an end when there is one */
  modifiers: Modifier[];
  modified: number;
  row: { index: number; label: string };
}

export interface TableResolution {
  table: { id: string; title: string; hash: string; example: boolean };
  landing: TableLanding;
  /** null when dice is "none" */
  roll: TableRoll | null;
  code: string;
  description?: string;
  effects: TableEffect[];
}

/**
 * Resolves an attack on a table: lands, checks the modifiers and the rows, and only then
 * rolls (dice.roll(sides) per die, nothing for "none"), so that a refused attack draws no die.
 */
export function resolveOnTable(table: TableDefinition, input: TableInput, dice: DiceSource): TableResolution {
  const landing = landOnTable(table, input);
  const tableDice = readDice(table.dice);
  if (!tableDice) throw new Error(`invalid table: dice ${JSON.stringify(table.dice)}`);
  const given = checkedModifiers(table, input.modifiers, 'modifier');
  const header = { id: table.id, title: table.title, hash: tableHash(table), example: table.example ?? false };

  if (tableDice.kind === 'none') {
    // A modifier of 0 modifies nothing: only one that would change a roll is refused.
    const modifying = given.filter((m) => m.value !== 0);
    if (modifying.length) {
      throw new RuleViolation(
        `${JSON.stringify(table.title)} has no roll, so it takes no die modifiers (${modifying.map((m) => `${JSON.stringify(m.source)} ${m.value > 0 ? '+' : ''}${m.value}`).join(', ')}).`,
        tableRule(table, 'modifiers'),
      );
    }
    if (landing.dieModifier !== 0) throw new Error('invalid table: a die modifier on a table without dice');
    return { table: header, landing, roll: null, ...result(table, 0, landing.column.index) };
  }

  const rows = table.rows;
  if (!rows) throw new Error('invalid table: dice without rows');
  const modifiers = landing.dieModifier !== 0 ? [...given, { source: SHIFT_PAST_END, value: landing.dieModifier }] : given;
  const total = sum(table, modifiers, 'modifier');
  if (table.rowsOffTable === 'refuse') refuseOffRows(table, tableDice, total);

  const faces = roll(tableDice, dice);
  const natural = tableDice.kind === 'd66' ? 10 * faces[0] + faces[1] : faces.reduce((s, f) => s + f, 0);
  const modified = natural + total;
  const held = rowHolding(rows, modified);
  const rowIndex = held >= 0 ? held : nearestRow(rows, modified);
  return {
    table: header,
    landing,
    roll: { dice: table.dice, faces, natural, modifiers, modified, row: { index: rowIndex, label: rowLabel(rows[rowIndex]) } },
    ...result(table, rowIndex, landing.column.index),
  };
}

function roll(tableDice: Exclude<TableDice, { kind: 'none' }>, dice: DiceSource): number[] {
  if (tableDice.kind === 'd66') return [dice.roll(6), dice.roll(6)];
  return Array.from({ length: tableDice.count }, () => dice.roll(tableDice.sides));
}

/** rowsOffTable "refuse", before any die: a roll the dice can show that the modifiers would take off the rows. */
function refuseOffRows(table: TableDefinition, tableDice: TableDice, total: number): void {
  const rows = table.rows!;
  const off = naturalRolls(tableDice).find((natural) => rowHolding(rows, natural + total) < 0);
  if (off === undefined) return;
  const span = rows.length === 1 ? rowLabel(rows[0]) : `${rowLabel(rows[0])} to ${rowLabel(rows[rows.length - 1])}`;
  throw new RuleViolation(
    `With die modifiers of ${total > 0 ? '+' : ''}${total} in all, a roll of ${off} would be ${off + total}, which is in no row of ${JSON.stringify(table.title)} (rows ${span}), and this table refuses rolls off its rows: nothing was rolled.`,
    tableRule(table, 'rowsOffTable refuse'),
  );
}

function result(table: TableDefinition, row: number, column: number): Pick<TableResolution, 'code' | 'description' | 'effects'> {
  const code = table.cells[row][column];
  const found = table.results.find((r) => r.code === code);
  if (!found) throw new Error(`invalid table: cell ${row},${column} holds no code of its results`);
  return {
    code,
    ...(found.description !== undefined ? { description: found.description } : {}),
    effects: found.effects.map((e) => ({ ...e })),
  };
}
