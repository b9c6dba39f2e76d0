import { europaRuleset } from '../../../../domain/rulesets/europa';
import type { TableDefinition } from '../../../../domain/tables';
import { harness } from '../../../support/rulesetHarness';

export const { given, apply, refused } = harness(europaRuleset);

const LABELS = ['-1', '0', '1', '2', '3', '4', '5', '7', '10', '14', '17', '20'];
const ROLLS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
/** Invented cells: '-' while roll + column < 7, else roll + column + 1, so that column 17 (index 10) with 8 gives 19, the rule's known point. */
const cell = (roll: number, column: number) => (roll + column < 7 ? '-' : String(roll + column + 1));
const codes = [...new Set(ROLLS.flatMap((roll) => LABELS.map((_, column) => cell(roll, column))))];

/**
 * A table INVENTED for these tests, NOT Europa's AA fire table: the shape rule 37L asks for
 * (threshold columns from -1 and 0, 2d6, shifts past the left end as die modifiers, past the
 * right end lost) with made-up cells, except column 17 with 8 giving 19.
 */
export const TEST_AA_TABLE: TableDefinition = {
  format: 'arbiter-table/1',
  id: 'test-aa',
  title: 'Invented AA table for tests',
  dice: '2d6',
  columns: { kind: 'threshold', labels: LABELS, landing: 'defender', belowFirst: 'refuse', aboveLast: 'last-column', shiftPastLeft: 'die-modifier', shiftPastRight: 'clamp' },
  rows: ROLLS.map((roll) => (roll === 2 ? { atMost: 2 } : roll === 12 ? { atLeast: 12 } : { roll })),
  rowsOffTable: 'clamp',
  results: codes.map((code) => ({ code, effects: [] })),
  cells: ROLLS.map((roll) => LABELS.map((_, column) => cell(roll, column))),
};
export const withTestTable = { aaTable: TEST_AA_TABLE };
export const testCell = cell;

/** The seed's example: four P-47D25s (8F9) on ground support in Jun II 44 against 11 German AA, the +1 claimed. */
export const p47Fire = (extra: Record<string, unknown> = {}) => ({
  fireId: 'GS on 2708',
  hex: '2708',
  mission: 'ground-support',
  date: 'Jun II 44',
  nationality: 'german',
  germanOrAlliedShift: true,
  aa: [{ unitId: 'Flak', aa: 11 }],
  airUnits: ['1', '2', '3', '4'].map((n) => ({ unitId: `P-47 ${n}`, type: 'F', df: 9 })),
  ...extra,
});
