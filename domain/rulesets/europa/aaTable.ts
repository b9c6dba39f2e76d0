import { CountingDice, type DiceSource } from '../../dice';
import { RuleViolation } from '../../errors';
import { naturalRolls, nearestRow, readDice, resolveOnTable, rowHolding, tableDefinitionSchemaFor, tableRule, type Modifier, type TableDefinition, type TableResolution } from '../../tables';

/** The effect that marks a cell its source does not give: a fire that could land on one is refused before any die. */
export const NOT_IN_SOURCE = 'not-in-source';

const unknown = {
  code: 'unknown',
  description: 'Not among the known points of rule 37L: bring the published AA fire table.',
  effects: [{ effect: NOT_IN_SOURCE }],
};
const U = 'unknown';

/**
 * The AA fire table a game gets unless it brings its own. It holds only what the worked
 * examples of rule 37L prove: the '-1' and '0' columns; 10, 14 and 17 as neighbours (11 AA
 * shifted twice from 10 lands on 17, and 14 is one column right of 10); on column 17 a
 * roll of 8 gives 19. Every other cell is unknown, strengths above 17 and shifts past 17
 * are refused, and so is any modified roll off 2..12: what the published table does there
 * is not known.
 */
export const EXAMPLE_AA_TABLE: TableDefinition = {
  format: 'arbiter-table/1',
  id: 'europa-aa-example',
  title: 'Europa minimum-dice-roll AA fire table (known points only)',
  source:
    "Not the published table: only what the worked examples of Second Front's optional rule 37L (Europa 32) prove: columns -1 and 0, columns 10, 14 and 17 side by side, and column 17 with a roll of 8 giving 19. Every other cell is unknown.",
  example: true,
  dice: '2d6',
  columns: { kind: 'threshold', labels: ['-1', '0', '10', '14', '17'], landing: 'defender', belowFirst: 'refuse', aboveLast: 'refuse', shiftPastLeft: 'die-modifier', shiftPastRight: 'refuse' },
  rows: [{ from: 2, to: 7 }, { roll: 8 }, { from: 9, to: 12 }],
  rowsOffTable: 'refuse',
  results: [{ code: '19', description: '19 modified defence factors of the mission force are affected.', effects: [{ effect: 'df-affected', value: 19 }] }, unknown],
  cells: [
    [U, U, U, U, U],
    [U, U, U, U, '19'],
    [U, U, U, U, U],
  ],
};

const RESULT_CODE = /^(?:-|\d{1,4})$/;

/** What rule 37L asks of an AA fire table beyond arbiter-table/1, each at the place it names. */
export function aaTableIssues(table: TableDefinition): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const add = (path: (string | number)[], message: string) => issues.push({ path, message });
  const { kind, labels, shiftPastLeft, shiftPastRight } = table.columns;
  if (kind !== 'threshold') add(['columns', 'kind'], 'an AA fire table reads the AA strength: its columns are "threshold"');
  if (table.dice !== '2d6') add(['dice'], 'rule 37L rolls two dice: dice is "2d6"');
  if (Number(labels[0]) !== -1) add(['columns', 'labels', 0], 'the first column of an AA fire table is "-1" (rule 37L: the -1 and 0 columns, reached only by shifts)');
  if (Number(labels[1]) !== 0) add(['columns', 'labels', 1], 'the second column of an AA fire table is "0" (rule 37L: the -1 and 0 columns, reached only by shifts)');
  if (shiftPastLeft !== 'die-modifier') add(['columns', 'shiftPastLeft'], 'rule 37L turns shifts past the leftmost column into minus die modifiers on the "-1" column: shiftPastLeft is "die-modifier"');
  if (shiftPastRight === 'die-modifier') {
    add(['columns', 'shiftPastRight'], 'shifts past the rightmost column are lost (ruling): shiftPastRight is "clamp" ("refuse" for a table that does not know its last column)');
  }
  table.results.forEach((result, index) => {
    if (!RESULT_CODE.test(result.code) && !result.effects.some((e) => e.effect === NOT_IN_SOURCE)) {
      add(['results', index, 'code'], `an AA fire result is "-" (no effect) or a whole number of defence factors affected, not ${JSON.stringify(result.code)}`);
    }
  });
  return issues;
}

/** An arbiter-table/1 table that is also an AA fire table of rule 37L. */
export const europaAATable = tableDefinitionSchemaFor({
  codes: { pattern: /^(?:-|\d{1,4}|unknown)$/, message: 'an AA fire result is "-" (no effect), a whole number of defence factors affected, or "unknown" (a cell the source does not give)' },
}).superRefine((table, ctx) => {
  for (const issue of aaTableIssues(table)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
});

/** A cell's code as a result: null for '-', else the number of defence factors affected. */
export const aaResult = (code: string): number | null => (code === '-' ? null : Number(code));

/**
 * Resolves AA fire on the table, every refusal before any die of the game: the table's own
 * (a dry run on dice that answer 1), then a landing on '-1' or '0' (reached only by shifts),
 * then any roll the dice could show landing on a cell the table's source does not give.
 */
export function resolveOnAATable(table: TableDefinition, strength: number, shifts: readonly Modifier[], dice: DiceSource): TableResolution {
  checkAATable(table, strength, shifts);
  return resolveOnTable(table, { value: strength, shifts }, dice);
}

/** resolveOnAATable's refusals alone, no die drawn: several fires are all checked before the first is rolled. */
export function checkAATable(table: TableDefinition, strength: number, shifts: readonly Modifier[]): void {
  const input = { value: strength, shifts };
  const dry = resolveOnTable(table, input, new CountingDice());
  const name = JSON.stringify(table.title);
  const { landedColumn, column } = dry.landing;
  if (Number(landedColumn.label) <= 0) {
    const firstAbove = table.columns.labels.find((label) => Number(label) > 0);
    throw new RuleViolation(
      `An AA strength of ${strength} lands on the '${landedColumn.label}' column of ${name}, and the '-1' and '0' columns are reached only by column shifts: this AA cannot fire.` +
        (table.example && firstAbove ? ` ${name} is an example that knows no column between 0 and ${firstAbove}: bring the published table.` : ''),
      'europa 37L2: only column shifts reach the -1 and 0 columns',
    );
  }
  const rows = table.rows!;
  const total = dry.roll!.modifiers.reduce((sum, m) => sum + m.value, 0);
  const unknownRolls = naturalRolls(readDice(table.dice)!).filter((natural) => {
    const held = rowHolding(rows, natural + total);
    const code = table.cells[held >= 0 ? held : nearestRow(rows, natural + total)][column.index];
    return table.results.find((r) => r.code === code)!.effects.some((e) => e.effect === NOT_IN_SOURCE);
  });
  if (unknownRolls.length) {
    throw new RuleViolation(
      `${name} does not give the result of column ${column.label} for ${unknownRolls.length === 1 ? 'a roll' : 'rolls'} of ${unknownRolls.join(', ')}${total ? ` (${total > 0 ? '+' : ''}${total} on the roll)` : ''}` +
        `${table.example ? ': it is an example holding only the known points of rule 37L' : ''}. Nothing was rolled: create the game with the published AA fire table (options.aaTable, docs/tables.md).`,
      tableRule(table, 'cell not in source'),
    );
  }
}
