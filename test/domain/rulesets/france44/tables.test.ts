import { describe, expect, it } from 'vitest';
import { ALTERNATIVE_CRDT, combatTableResult, CONTROL_LIMITS, crdtResult, ODDS_COLUMNS, REVISED_COMBAT_TABLE } from '../../../../domain/rulesets/france44/tables';
import { sourceTable1, sourceTable3 } from './sourceTables';

describe('Table 1, Revised Combat Table', () => {
  const source = sourceTable1();

  it('has six die rows of nine columns in the source and in the data', () => {
    expect(source).toHaveLength(6);
    expect(REVISED_COMBAT_TABLE).toHaveLength(6);
    for (const row of REVISED_COMBAT_TABLE) expect(row).toHaveLength(ODDS_COLUMNS.length);
  });

  for (let die = 1; die <= 6; die++) {
    for (const [column, { label }] of ODDS_COLUMNS.entries()) {
      it(`die ${die}, ${label}: matches the source`, () => {
        const cell = source[die - 1][column];
        expect(combatTableResult(die, column, 'set-piece')).toBe(cell.setPiece);
        expect(combatTableResult(die, column, 'mobile')).toBe(cell.mobile);
      });
    }
  }

  it('keeps the revised table\'s departures from the substitution rule', () => {
    expect(combatTableResult(1, 0, 'mobile')).toBe('A'); // 1-4, die 1: A/A, not A/E
    expect(combatTableResult(6, 4, 'mobile')).toBe('B'); // 1-1, die 6: D/B
  });
});

describe('Table 2, Control Limit Table', () => {
  it('gives 1, 3, 4, 6, 8 for attacker morale 1 to 5, and 8 for 6 (ruling)', () => {
    expect([1, 2, 3, 4, 5, 6].map((m) => CONTROL_LIMITS[m])).toEqual([1, 3, 4, 6, 8, 8]);
  });
});

describe('Table 3, Alternative CRDT', () => {
  const source = sourceTable3();
  for (const row of source) {
    it(`ratio result ${row.ratioResult}: matches the source`, () => {
      expect(ALTERNATIVE_CRDT[row.ratioResult].setPiece).toEqual([row.low.setPiece, row.high.setPiece]);
      expect(ALTERNATIVE_CRDT[row.ratioResult].mobile).toEqual([row.low.mobile, row.high.mobile]);
      // The mobile rows print their defender-morale ranges: up to RR, then above it.
      const rr = row.ratioResult;
      expect(row.low.mobileRange).toBe(rr === 1 ? '1' : `1-${rr}`);
      expect(row.high.mobileRange).toBe(rr === 5 ? '6' : `${rr + 1}-6`);
    });
  }

  it('agrees with the rules page\'s statement of it on all 360 cells', () => {
    let cells = 0;
    for (let rr = 1; rr <= 5; rr++) {
      for (let dm = 1; dm <= 6; dm++) {
        for (let am = 1; am <= 6; am++) {
          const low = am <= rr;
          const setPiece = dm <= rr ? (low ? 'D' : 'C') : low ? 'A' : 'B';
          const mobile = dm <= rr ? (low ? 'B' : 'C') : low ? 'E' : 'F';
          expect(crdtResult(rr, dm, am, 'set-piece'), `RR ${rr} DM ${dm} AM ${am} set-piece`).toBe(setPiece);
          expect(crdtResult(rr, dm, am, 'mobile'), `RR ${rr} DM ${dm} AM ${am} mobile`).toBe(mobile);
          cells += 2;
        }
      }
    }
    expect(cells).toBe(360);
  });
});
