import type { TableDefinition } from './table';
import { isProblem, readLabel, unitRatio, type ColumnValue } from './labels';
import { compare, showRational } from './rational';
import { isD66Roll, naturalRolls, readDice, rowBounds, rowHolding, rowLabel } from './rows';

export interface TableIssue {
  path: (string | number)[];
  message: string;
}

/** At most this many codes are listed in a message about an unknown code. */
const LISTED_CODES = 12;

/**
 * Every rule of arbiter-table/1 beyond the structure: each issue names the place
 * (['cells', 3, 5]) and says what is wrong in a player's words. Messages count rows
 * and columns from 1, as players do; paths count from 0, as JSON does.
 */
export function checkTable(table: TableDefinition): TableIssue[] {
  const issues: TableIssue[] = [];
  const add = (path: (string | number)[], message: string) => issues.push({ path, message });
  checkColumns(table, add);
  const rowCount = checkRows(table, add);
  checkResultsAndCells(table, rowCount, add);
  return issues;
}

type Add = (path: (string | number)[], message: string) => void;

function checkColumns(table: TableDefinition, add: Add): void {
  const { kind, labels, landing } = table.columns;
  if (kind === 'threshold' && landing !== 'defender') {
    add(['columns', 'landing'], `a threshold table lands on the largest column not exceeding the value: its landing is "defender", not ${JSON.stringify(landing)}`);
  }
  const nearest = landing === 'nearest-defender' || landing === 'nearest-attacker';
  let previous: { label: string; read: ColumnValue; index: number } | undefined;
  labels.forEach((label, index) => {
    const read = readLabel(kind, label);
    if (isProblem(read)) {
      add(['columns', 'labels', index], read.problem);
      return;
    }
    if (kind === 'ratio' && nearest && !unitRatio(read)) {
      add(['columns', 'labels', index], `${JSON.stringify(label)} is not n-1 or 1-n with a whole n, which a ${landing} landing rounds to`);
    }
    if (previous && compare(read.value, previous.read.value) <= 0) {
      const same = compare(read.value, previous.read.value) === 0;
      add(
        ['columns', 'labels', index],
        same
          ? `${JSON.stringify(label)} (column ${index + 1}) is the same as ${JSON.stringify(previous.label)} (column ${previous.index + 1}): labels must increase from left to right`
          : `${JSON.stringify(label)} (column ${index + 1}, ${showRational(read.value).text}) is less than ${JSON.stringify(previous.label)} (column ${previous.index + 1}, ${showRational(previous.read.value).text}): labels must increase from left to right`,
      );
    }
    previous = { label, read, index };
  });
  if (table.dice === 'none') {
    for (const side of ['shiftPastLeft', 'shiftPastRight'] as const) {
      if (table.columns[side] === 'die-modifier') {
        add(['columns', side], `a table without dice has no roll to modify: ${side} is "clamp" or "refuse", not "die-modifier"`);
      }
    }
  }
}

/** The number of rows of cells the table must have (1 without dice), after checking the rows. */
function checkRows(table: TableDefinition, add: Add): number {
  const dice = readDice(table.dice);
  // Dice the format does not know are an issue of the structure (the pattern of "dice"): nothing to add.
  if (!dice) return table.rows?.length ?? 1;
  if (dice.kind === 'none') {
    if (table.rows !== undefined) add(['rows'], 'a table whose dice is "none" has no rows: leave "rows" out (it has exactly one row of cells)');
    if (table.rowsOffTable !== undefined) add(['rowsOffTable'], 'a table whose dice is "none" has no rows to be off: leave "rowsOffTable" out');
    return 1;
  }
  if (table.rowsOffTable === undefined) add(['rowsOffTable'], `a table with dice says what a modified roll in no row does: "rowsOffTable" is "clamp" or "refuse"`);
  const rows = table.rows;
  if (rows === undefined) {
    add(['rows'], `a table with dice (${table.dice}) needs "rows", one per row of cells`);
    return table.cells.length;
  }
  let sound = true;
  rows.forEach((row, index) => {
    const name = `row ${index + 1} (${rowLabel(row)})`;
    if ('from' in row && row.from > row.to) {
      add(['rows', index], `${name} runs from ${row.from} down to ${row.to}: "from" must not be greater than "to"`);
      sound = false;
    }
    if ('atMost' in row && index !== 0) {
      add(['rows', index], `${name}: only the first row can hold every roll up to a number ("atMost")`);
      sound = false;
    }
    if ('atLeast' in row && index !== rows.length - 1) {
      add(['rows', index], `${name}: only the last row can hold every roll from a number up ("atLeast")`);
      sound = false;
    }
  });
  if (!sound) return rows.length;
  let outOfOrder = false;
  for (let index = 1; index < rows.length; index++) {
    const before = rowBounds(rows[index - 1]);
    const here = rowBounds(rows[index]);
    const name = `row ${index + 1} (${rowLabel(rows[index])})`;
    const previousName = `row ${index} (${rowLabel(rows[index - 1])})`;
    // After a row out of order, the next one is compared with nothing: one issue, not two.
    const afterOutOfOrder = outOfOrder;
    outOfOrder = false;
    if (afterOutOfOrder) continue;
    if (here.low < before.low) {
      add(['rows', index], `${name} comes after ${previousName}: rows go from the lowest roll to the highest`);
      sound = false;
      outOfOrder = true;
    } else if (here.low <= before.high) {
      add(['rows', index], `${name} overlaps ${previousName}`);
      sound = false;
    } else if (here.low > before.high + 1) {
      const missing = firstMissing(before.high + 1, here.low - 1, dice.kind === 'd66');
      if (missing !== undefined) {
        const gap = here.low - 1 === before.high + 1 ? String(here.low - 1) : `${before.high + 1}–${here.low - 1}`;
        add(['rows', index], `there is a gap between ${previousName} and ${name}: no row holds ${gap}`);
        sound = false;
      }
    }
  }
  if (sound) {
    const uncovered = naturalRolls(dice).filter((roll) => rowHolding(rows, roll) < 0);
    if (uncovered.length) {
      const shown = uncovered.length > 3 ? `${uncovered.slice(0, 3).join(', ')}, …` : uncovered.join(', ');
      add(['rows'], `no row holds ${uncovered.length === 1 ? 'a roll of' : 'the rolls'} ${shown}, which ${table.dice} can show: the rows must hold every roll of the dice`);
    }
  }
  return rows.length;
}

/** The first number from..to a roll could be; on a d66 table, the numbers a d66 cannot show (17–20) may be left out. */
function firstMissing(from: number, to: number, d66: boolean): number | undefined {
  if (!d66) return from;
  // Within a gap of a d66 table, only the numbers a d66 can show must be in a row.
  for (let roll = Math.max(from, 11); roll <= to && roll <= 66; roll++) if (isD66Roll(roll)) return roll;
  return undefined;
}

function checkResultsAndCells(table: TableDefinition, rowCount: number, add: Add): void {
  const firstIndexOf = new Map<string, number>();
  table.results.forEach((result, index) => {
    const first = firstIndexOf.get(result.code);
    if (first !== undefined) add(['results', index, 'code'], `${JSON.stringify(result.code)} is already the code of results[${first}]: codes are unique`);
    else firstIndexOf.set(result.code, index);
  });
  const columns = table.columns.labels.length;
  if (table.cells.length !== rowCount) {
    add(['cells'], table.dice === 'none' ? `has ${table.cells.length} rows of cells; a table without dice has exactly 1` : `has ${table.cells.length} rows of cells; the table has ${rowCount} rows`);
  }
  const codes = [...firstIndexOf.keys()];
  const listed = codes.length > LISTED_CODES ? `${codes.slice(0, LISTED_CODES).join(', ')}, …` : codes.join(', ');
  table.cells.forEach((cells, rowIndex) => {
    if (cells.length !== columns) add(['cells', rowIndex], `has ${cells.length} cells; the table has ${columns} columns`);
    cells.forEach((code, columnIndex) => {
      if (!firstIndexOf.has(code)) add(['cells', rowIndex, columnIndex], `${JSON.stringify(code)} is not a code of results (codes: ${listed})`);
    });
  });
}
