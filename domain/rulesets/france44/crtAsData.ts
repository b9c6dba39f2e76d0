import { TABLE_FORMAT, type TableDefinition } from '../../tables';
import { ODDS_COLUMNS, REVISED_COMBAT_TABLE, type CombatKind, type ResultLetter } from './tables';

const LETTERS: readonly ResultLetter[] = ['A', 'B', 'C', 'D', 'E', 'F'];

/**
 * Table 1 as an arbiter-table/1 definition, for the `table` ruleset: the set-piece or the
 * mobile letter of each cell of REVISED_COMBAT_TABLE, the one place the table is written.
 * docs/examples/tables/france44-crt-*.json are this, written out (bin/writeFrance44Crt.ts).
 */
export function revisedCombatTableAsData(kind: CombatKind): TableDefinition {
  const part = kind === 'set-piece' ? 0 : 1;
  return {
    format: TABLE_FORMAT,
    id: `france44-crt-${kind}`,
    title: `France 1944 Revised Combat Table (${kind})`,
    source: `France 1944 (Victory Games, 1986) with Daniel Savarese's revisions v2.0.6: Table 1, Revised Combat Table, the ${kind} letter of each cell. Attack and defence are in half strength points, as an out-of-supply defender counts half; the combat modifier (morale and control) is the one column shift.`,
    dice: '1d6',
    columns: {
      kind: 'ratio',
      labels: ODDS_COLUMNS.map((column) => column.label),
      landing: 'defender',
      belowFirst: 'refuse',
      aboveLast: 'last-column',
      shiftPastLeft: 'die-modifier',
      shiftPastRight: 'die-modifier',
    },
    rows: REVISED_COMBAT_TABLE.map((_, index) => ({ roll: index + 1 })),
    rowsOffTable: 'clamp',
    results: LETTERS.map((code) =>
      code === 'C'
        ? { code, description: 'The defender loses 2 steps (with the house rule cAttackerLoss, the attacker loses 1 step too).', effects: [{ effect: 'step-loss', side: 'defender', value: 2 }] }
        : { code, description: `Result ${code} as the table gives it; the source does not say what ${code} does.`, effects: [] },
    ),
    cells: REVISED_COMBAT_TABLE.map((row) => row.map((cell) => cell.split('/')[part])),
  };
}
