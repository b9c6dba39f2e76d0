import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tableRuleset } from '../../../../domain/rulesets/table';
import type { TableDefinition } from '../../../../domain/tables';
import { harness } from '../../../support/rulesetHarness';
import { resultTextShown } from '../shownOnTheTimeline';

const { given, apply } = harness(tableRuleset);
const setPiece: TableDefinition = JSON.parse(readFileSync(new URL('../../../../docs/examples/tables/france44-crt-set-piece.json', import.meta.url), 'utf8'));
const text = (events: ReturnType<typeof apply>['events']) => resultTextShown(tableRuleset, { type: 'Resolve', payload: {} }, events);

/** A table of one column and two rows whose cells carry effects, as a game may bring. */
const withEffects: TableDefinition = {
  format: 'arbiter-table/1',
  id: 'effects',
  title: 'Effects',
  dice: '1d6',
  columns: { kind: 'threshold', labels: ['0'], landing: 'defender', belowFirst: 'refuse', aboveLast: 'last-column', shiftPastLeft: 'clamp', shiftPastRight: 'clamp' },
  rows: [{ atMost: 3 }, { atLeast: 4 }],
  rowsOffTable: 'clamp',
  results: [
    { code: '-', effects: [] },
    { code: '1/13R', effects: [{ effect: 'loss', side: 'attacker', value: 1 }, { effect: 'loss', side: 'defender', value: 13 }, { effect: 'retreat', side: 'defender', value: 1 }] },
  ],
  cells: [['-'], ['1/13R']],
};

describe('the result text of a table resolution', () => {
  it("is the cell's code, cell by cell of the France 1944 set-piece table", () => {
    const state = given([], { tables: [setPiece] });
    for (const [index, label] of setPiece.columns.labels.entries()) {
      const [attack, defence] = label.split('-').map(Number);
      for (let die = 1; die <= 6; die++) {
        const { events } = apply(state, ['player1', 'Resolve', { table: setPiece.id, attack, defence }, [die]]);
        const cell = setPiece.cells[die - 1][index];
        expect(text(events)).toBe(cell === 'C' ? 'C: defender step-loss 2' : cell);
      }
    }
  });

  it('spells the effects of a cell: losses and retreats', () => {
    const state = given([], { tables: [withEffects] });
    expect(text(apply(state, ['player1', 'Resolve', { table: 'effects', value: 1 }, [5]]).events)).toBe('1/13R: attacker loses 1, defender loses 13, defender retreats 1');
    expect(text(apply(state, ['player1', 'Resolve', { table: 'effects', value: 1 }, [2]]).events)).toBe('-');
  });
});
