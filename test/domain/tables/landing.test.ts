import { describe, expect, it } from 'vitest';
import { RuleViolation } from '../../../domain/errors';
import { landOnTable, type LandingPolicy, type TableColumns, type TableDefinition, type TableInput } from '../../../domain/tables';

function table(columns: Partial<TableColumns> & Pick<TableColumns, 'labels'>, extra: Partial<TableDefinition> = {}): TableDefinition {
  const full: TableColumns = { kind: 'ratio', landing: 'defender', belowFirst: 'refuse', aboveLast: 'last-column', shiftPastLeft: 'refuse', shiftPastRight: 'refuse', ...columns };
  return {
    format: 'arbiter-table/1',
    id: 'test-table',
    title: 'Test table',
    dice: '1d6',
    columns: full,
    rows: [{ roll: 1 }, { roll: 2 }, { roll: 3 }, { roll: 4 }, { roll: 5 }, { roll: 6 }],
    rowsOffTable: 'clamp',
    results: [{ code: 'X', effects: [] }],
    cells: Array.from({ length: 6 }, () => full.labels.map(() => 'X')),
    ...extra,
  };
}

const FRANCE = ['1-4', '1-3', '1-2', '2-3', '1-1', '3-2', '2-1', '3-1', '4-1'];
const UNIT = ['1-4', '1-3', '1-2', '1-1', '2-1', '3-1', '4-1', '5-1', '6-1', '7-1'];

const landed = (t: TableDefinition, input: TableInput) => landOnTable(t, input).landedColumn.label;

function refusal(run: () => unknown): RuleViolation {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RuleViolation);
    return error as RuleViolation;
  }
  throw new Error('not refused');
}

describe('ratio columns', () => {
  const on = (landing: LandingPolicy, labels = FRANCE) => table({ labels, landing, aboveLast: 'last-column', belowFirst: 'first-column' });

  it('defender: the rightmost column whose ratio is at most attack/defence', () => {
    expect(landed(on('defender'), { attack: 5, defence: 4 })).toBe('1-1');
    expect(landed(on('defender'), { attack: 7, defence: 4 })).toBe('3-2');
    expect(landed(on('defender'), { attack: 1, defence: 2.5 })).toBe('1-3');
  });

  it('attacker: the leftmost column whose ratio is at least attack/defence', () => {
    expect(landed(on('attacker'), { attack: 5, defence: 4 })).toBe('3-2');
    expect(landed(on('attacker'), { attack: 7, defence: 4 })).toBe('2-1');
    expect(landed(on('attacker'), { attack: 1, defence: 2.5 })).toBe('1-2');
  });

  it('ties land on the column itself, whichever side rounding favours', () => {
    for (const landing of ['defender', 'attacker'] as const) {
      expect(landed(on(landing), { attack: 3, defence: 2 })).toBe('3-2');
      expect(landed(on(landing), { attack: 4, defence: 6 })).toBe('2-3');
      expect(landed(on(landing), { attack: 12, defence: 3 })).toBe('4-1');
      expect(landed(on(landing), { attack: 2.5, defence: 10 })).toBe('1-4');
    }
  });

  it('compares exactly: 16.9:50.7 is 1:3 although 16.9/50.7 < 1/3 in floating point, and 2-3 equals 4:6', () => {
    expect(16.9 / 50.7).toBeLessThan(1 / 3);
    expect(landed(on('defender'), { attack: 16.9, defence: 50.7 })).toBe('1-3');
    expect(landed(on('attacker'), { attack: 16.9, defence: 50.7 })).toBe('1-3');
    expect(landed(on('defender'), { attack: 33.8, defence: 50.7 })).toBe('2-3');
    expect(landed(on('defender', ['1-2', '4:6', '1-1']), { attack: 2, defence: 3 })).toBe('4:6');
  });

  it('reads the odds as n:1 or 1:n', () => {
    expect(landOnTable(on('defender'), { attack: 13, defence: 2 }).reads).toBe('13:2 = 6.5:1');
    expect(landOnTable(on('defender'), { attack: 2, defence: 3 }).reads).toBe('2:3 = 1:1.5');
    expect(landOnTable(on('defender'), { attack: 10, defence: 3 }).reads).toBe('10:3 ≈ 3.33:1');
    expect(landOnTable(on('defender'), { attack: 4, defence: 4 }).reads).toBe('4:4 = 1:1');
    const landing = landOnTable(on('defender'), { attack: 13, defence: 2 });
    expect(landing).toMatchObject({ kind: 'ratio', attack: 13, defence: 2 });
    expect(landing.rounded).toBeUndefined();
    expect(landing.value).toBeUndefined();
  });

  it('nearest-defender and nearest-attacker round to a whole n:1 or 1:n, exact halves to the named side', () => {
    const cases: [number, number, string, string][] = [
      // attack, defence, nearest-defender, nearest-attacker
      [13, 2, '6:1', '7:1'], // 6.5:1
      [32, 5, '6:1', '6:1'], // 6.4:1
      [33, 5, '7:1', '7:1'], // 6.6:1
      [3, 2, '1:1', '2:1'], // 1.5:1
      [2, 3, '1:2', '1:1'], // 1:1.5
      [2, 5, '1:3', '1:2'], // 1:2.5
      [5, 12, '1:2', '1:2'], // 1:2.4
      [1, 1, '1:1', '1:1'],
      [5, 4, '1:1', '1:1'], // 1.25:1
    ];
    for (const [attack, defence, defender, attacker] of cases) {
      expect(landOnTable(on('nearest-defender', UNIT), { attack, defence }).rounded, `${attack}:${defence}`).toBe(defender);
      expect(landOnTable(on('nearest-attacker', UNIT), { attack, defence }).rounded, `${attack}:${defence}`).toBe(attacker);
    }
    expect(landed(on('nearest-defender', UNIT), { attack: 13, defence: 2 })).toBe('6-1');
    expect(landed(on('nearest-attacker', UNIT), { attack: 13, defence: 2 })).toBe('7-1');
  });

  it('nearest-*: a rounded ratio between two columns lands as the defender would', () => {
    const gappy = ['1-3', '1-1', '3-1', '6-1'];
    expect(landed(on('nearest-attacker', gappy), { attack: 9, defence: 2 })).toBe('3-1'); // 4.5 → 5:1 → 3-1
    expect(landed(on('nearest-attacker', gappy), { attack: 2, defence: 5 })).toBe('1-3'); // 1:2.5 → 1:2 → 1-3
  });
});

describe('differential columns', () => {
  const labels = ['-4', '-2', '0', '+2', '+4'];
  const on = (landing: LandingPolicy) => table({ kind: 'differential', labels, landing, belowFirst: 'first-column', aboveLast: 'last-column' });

  it('defender: the greatest label at most attack − defence; attacker: the least at least', () => {
    expect(landed(on('defender'), { attack: 10, defence: 9 })).toBe('0');
    expect(landed(on('attacker'), { attack: 10, defence: 9 })).toBe('+2');
    expect(landed(on('defender'), { attack: 7, defence: 10 })).toBe('-4');
    expect(landed(on('attacker'), { attack: 7, defence: 10 })).toBe('-2');
    for (const landing of ['defender', 'attacker'] as const) expect(landed(on(landing), { attack: 12, defence: 10 })).toBe('+2');
  });

  it('nearest-*: rounds the difference, exact halves to the named side, then lands as the defender', () => {
    const exact = table({ kind: 'differential', labels: ['-3', '-2', '-1', '0', '+1', '+2', '+3'], landing: 'nearest-defender', belowFirst: 'first-column', aboveLast: 'last-column' });
    const attackerSide = { ...exact, columns: { ...exact.columns, landing: 'nearest-attacker' as const } };
    expect(landOnTable(exact, { attack: 5, defence: 2.5 })).toMatchObject({ reads: '+2.5', rounded: '+2', landedColumn: { label: '+2' } });
    expect(landOnTable(attackerSide, { attack: 5, defence: 2.5 })).toMatchObject({ reads: '+2.5', rounded: '+3', landedColumn: { label: '+3' } });
    expect(landOnTable(exact, { attack: 2.5, defence: 5 })).toMatchObject({ reads: '-2.5', rounded: '-3', landedColumn: { label: '-3' } });
    expect(landOnTable(attackerSide, { attack: 2.5, defence: 5 })).toMatchObject({ reads: '-2.5', rounded: '-2', landedColumn: { label: '-2' } });
    expect(landOnTable(exact, { attack: 5.4, defence: 5 })).toMatchObject({ reads: '+0.4', rounded: '0', landedColumn: { label: '0' } });
    expect(landOnTable(on('nearest-attacker'), { attack: 11.4, defence: 10 })).toMatchObject({ rounded: '+1', landedColumn: { label: '0' } });
  });

  it('reads attack − defence with its sign, and accepts a defence of 0', () => {
    expect(landOnTable(on('defender'), { attack: 13, defence: 10 }).reads).toBe('+3');
    expect(landOnTable(on('defender'), { attack: 10, defence: 10 }).reads).toBe('0');
    expect(landOnTable(on('defender'), { attack: 3, defence: 0 }).reads).toBe('+3');
    expect(landOnTable(on('defender'), { attack: 0.1, defence: 0.3 }).reads).toBe('-0.2');
  });
});

describe('threshold columns', () => {
  const t = table({ kind: 'threshold', labels: ['0', '5', '10', '20'], belowFirst: 'refuse', aboveLast: 'last-column' });

  it('lands on the largest column not exceeding the value', () => {
    expect(landed(t, { value: 15 })).toBe('10');
    expect(landed(t, { value: 5 })).toBe('5');
    expect(landed(t, { value: 4.99 })).toBe('0');
    expect(landed(t, { value: 20 })).toBe('20');
    expect(landed(t, { value: 100 })).toBe('20');
    expect(landOnTable(t, { value: 15 })).toMatchObject({ kind: 'threshold', value: 15, reads: '15' });
  });

  it('refuses below the first column, in its words', () => {
    const error = refusal(() => landOnTable(t, { value: -1 }));
    expect(error.message).toBe('A value of -1 is left of the first column (0) of "Test table", and this table refuses attacks off its left end.');
    expect(error.rule).toBe('table test-table: belowFirst refuse');
  });
});

describe('off the ends, before shifts', () => {
  it('belowFirst refuse: the player is told the odds, the first column and the policy', () => {
    const t = table({ labels: FRANCE }, { id: 'france44-crt-set-piece', title: 'Combat table' });
    const error = refusal(() => landOnTable(t, { attack: 1, defence: 5 }));
    expect(error.message).toBe('Odds of 1:5 are left of the first column (1-4) of "Combat table", and this table refuses attacks off its left end.');
    expect(error.rule).toBe('table france44-crt-set-piece: belowFirst refuse');
  });

  it('belowFirst first-column: the first column', () => {
    expect(landed(table({ labels: FRANCE, belowFirst: 'first-column' }), { attack: 1, defence: 50 })).toBe('1-4');
  });

  it('an attacker landing below the first column is off the table too', () => {
    expect(() => landOnTable(table({ labels: FRANCE, landing: 'attacker' }), { attack: 1, defence: 5 })).toThrow(RuleViolation);
    expect(landed(table({ labels: FRANCE, landing: 'attacker', belowFirst: 'first-column' }), { attack: 1, defence: 5 })).toBe('1-4');
  });

  it('aboveLast refuse: any input greater than the last column, whatever the landing', () => {
    for (const landing of ['defender', 'attacker'] as const) {
      const t = table({ labels: FRANCE, landing, aboveLast: 'refuse' });
      const error = refusal(() => landOnTable(t, { attack: 9, defence: 2 }));
      expect(error.message).toBe('Odds of 9:2 are right of the last column (4-1) of "Test table", and this table refuses attacks off its right end.');
      expect(error.rule).toBe('table test-table: aboveLast refuse');
      expect(landed(t, { attack: 8, defence: 2 })).toBe('4-1');
    }
  });

  it('aboveLast last-column: the last column', () => {
    expect(landed(table({ labels: FRANCE, landing: 'attacker' }), { attack: 50, defence: 1 })).toBe('4-1');
    expect(landed(table({ labels: FRANCE, landing: 'defender' }), { attack: 50, defence: 1 })).toBe('4-1');
  });

  it('nearest-*: the rounded odds decide whether the input is off the table', () => {
    const one = table({ labels: ['6:1'], landing: 'nearest-defender', aboveLast: 'refuse' });
    expect(landed(one, { attack: 13, defence: 2 })).toBe('6:1'); // 6.5 → 6
    expect(landed(one, { attack: 58, defence: 10 })).toBe('6:1'); // 5.8 → 6
    const above = refusal(() => landOnTable(one, { attack: 33, defence: 5 })); // 6.6 → 7
    expect(above.message).toBe('Odds of 33:5 (rounded to 7:1) are right of the last column (6:1) of "Test table", and this table refuses attacks off its right end.');
    expect(() => landOnTable(one, { attack: 11, defence: 2 })).toThrow(/rounded to 5:1\) are left of the first column/);
  });

  it('differential and threshold tables say so in their own words', () => {
    const d = table({ kind: 'differential', labels: ['-2', '0', '+2'], aboveLast: 'refuse' });
    expect(refusal(() => landOnTable(d, { attack: 10, defence: 7 })).message).toBe('A differential of +3 is right of the last column (+2) of "Test table", and this table refuses attacks off its right end.');
    expect(refusal(() => landOnTable(d, { attack: 1, defence: 4 })).message).toMatch(/^A differential of -3 is left of the first column \(-2\)/);
    const th = table({ kind: 'threshold', labels: ['15', '16'], aboveLast: 'refuse' });
    expect(refusal(() => landOnTable(th, { value: 17 })).message).toMatch(/^A value of 17 is right of the last column \(16\)/);
  });
});

describe('shifts', () => {
  const on = (shiftPastLeft: TableColumns['shiftPastLeft'], shiftPastRight: TableColumns['shiftPastRight']) => table({ labels: FRANCE, shiftPastLeft, shiftPastRight });
  const shifts = (...values: number[]) => values.map((value, i) => ({ source: `s${i}`, value }));

  it('move the column by their sum, + to the right', () => {
    const landing = landOnTable(on('refuse', 'refuse'), { attack: 1, defence: 1, shifts: shifts(2, -1, 1) });
    expect(landing).toMatchObject({ landedColumn: { index: 4, label: '1-1' }, shifts: { total: 2, sources: shifts(2, -1, 1) }, column: { index: 6, label: '2-1' }, dieModifier: 0, lostShift: 0 });
    expect(landOnTable(on('refuse', 'refuse'), { attack: 1, defence: 1, shifts: shifts(-4) }).column.label).toBe('1-4');
    expect(landOnTable(on('refuse', 'refuse'), { attack: 1, defence: 1 }).shifts).toEqual({ total: 0, sources: [] });
  });

  it('clamp: stay on the end column, the shifts past it lost', () => {
    expect(landOnTable(on('clamp', 'clamp'), { attack: 3, defence: 1, shifts: shifts(3) })).toMatchObject({ column: { label: '4-1' }, dieModifier: 0, lostShift: 2 });
    expect(landOnTable(on('clamp', 'clamp'), { attack: 1, defence: 3, shifts: shifts(-4) })).toMatchObject({ column: { label: '1-4' }, dieModifier: 0, lostShift: -3 });
  });

  it('die-modifier: stay on the end column, ±1 on the roll for each column past it', () => {
    expect(landOnTable(on('die-modifier', 'die-modifier'), { attack: 3, defence: 1, shifts: shifts(3) })).toMatchObject({ column: { label: '4-1' }, dieModifier: 2, lostShift: 0 });
    expect(landOnTable(on('die-modifier', 'die-modifier'), { attack: 1, defence: 3, shifts: shifts(-4) })).toMatchObject({ column: { label: '1-4' }, dieModifier: -3, lostShift: 0 });
    expect(landOnTable(on('die-modifier', 'die-modifier'), { attack: 4, defence: 1, shifts: shifts(0) })).toMatchObject({ column: { label: '4-1' }, dieModifier: 0 });
  });

  it('refuse: a RuleViolation naming the shift, the end and the policy', () => {
    const right = refusal(() => landOnTable(on('clamp', 'refuse'), { attack: 3, defence: 1, shifts: shifts(3) }));
    expect(right.message).toBe('A shift of +3 columns from 3-1 goes 2 columns past the last column (4-1) of "Test table", and this table refuses shifts past its right end.');
    expect(right.rule).toBe('table test-table: shiftPastRight refuse');
    const left = refusal(() => landOnTable(on('refuse', 'clamp'), { attack: 1, defence: 3, shifts: shifts(-2) }));
    expect(left.message).toBe('A shift of -2 columns from 1-3 goes 1 column past the first column (1-4) of "Test table", and this table refuses shifts past its left end.');
    expect(left.rule).toBe('table test-table: shiftPastLeft refuse');
  });

  it('each end keeps its own policy', () => {
    const t = on('refuse', 'die-modifier');
    expect(landOnTable(t, { attack: 4, defence: 1, shifts: shifts(1) }).dieModifier).toBe(1);
    expect(() => landOnTable(t, { attack: 1, defence: 4, shifts: shifts(-1) })).toThrow(RuleViolation);
  });

  it('from the end column an input off the table was moved to', () => {
    const t = table({ labels: FRANCE, belowFirst: 'first-column', shiftPastLeft: 'die-modifier' });
    expect(landOnTable(t, { attack: 1, defence: 9, shifts: shifts(2) })).toMatchObject({ landedColumn: { label: '1-4' }, column: { label: '1-2' } });
    expect(landOnTable(t, { attack: 1, defence: 9, shifts: shifts(-1) })).toMatchObject({ column: { label: '1-4' }, dieModifier: -1 });
  });

  it('are whole numbers', () => {
    const error = refusal(() => landOnTable(on('clamp', 'clamp'), { attack: 1, defence: 1, shifts: [{ source: 'terrain', value: 0.5 }] }));
    expect(error.message).toBe('A column shift is a whole number of columns: "terrain" is 0.5.');
    expect(error.rule).toBe('table test-table: shifts');
    expect(() => landOnTable(on('clamp', 'clamp'), { attack: 1, defence: 1, shifts: [{ source: 'x', value: Number.NaN }] })).toThrow(RuleViolation);
    expect(() => landOnTable(on('clamp', 'clamp'), { attack: 1, defence: 1, shifts: [{ source: 'x', value: 2 ** 53 }] })).toThrow(RuleViolation);
    expect(() => landOnTable(on('clamp', 'clamp'), { attack: 1, defence: 1, shifts: [{ source: 'x', value: 2 ** 52 }, { source: 'y', value: 2 ** 52 }] })).toThrow(RuleViolation);
  });
});

describe('input errors are refusals in a player\'s words', () => {
  const ratio = table({ labels: FRANCE });
  const differential = table({ kind: 'differential', labels: ['-1', '0', '+1'] });
  const threshold = table({ kind: 'threshold', labels: ['0', '10'] });

  it('a ratio table needs attack and defence above 0', () => {
    expect(refusal(() => landOnTable(ratio, { attack: 0, defence: 3 })).message).toBe('The attack strength must be greater than 0 to read odds on "Test table"; it is 0.');
    expect(refusal(() => landOnTable(ratio, { attack: 3, defence: -1 })).message).toBe('The defence strength must be greater than 0 to read odds on "Test table"; it is -1.');
    expect(refusal(() => landOnTable(ratio, { attack: 3 })).message).toBe('"Test table" reads odds of attack to defence: the defence strength is missing.');
    expect(refusal(() => landOnTable(ratio, { attack: Number.POSITIVE_INFINITY, defence: 1 })).message).toBe('The attack strength must be a number; it is Infinity.');
    expect(refusal(() => landOnTable(ratio, { attack: '3' as never, defence: 1 })).message).toBe('The attack strength must be a number; it is "3".');
    expect(refusal(() => landOnTable(ratio, { attack: 3, defence: 1, value: 4 })).message).toMatch(/reads odds of attack to defence, not a single value/);
    expect(refusal(() => landOnTable(ratio, { attack: 0, defence: 3 })).rule).toBe('table test-table: ratio input');
  });

  it('a differential table needs attack and defence, neither negative', () => {
    expect(refusal(() => landOnTable(differential, { attack: -1, defence: 3 })).message).toBe("The attack strength can't be negative; it is -1.");
    expect(refusal(() => landOnTable(differential, { defence: 3 })).message).toBe('"Test table" reads the difference of attack and defence: the attack strength is missing.');
  });

  it('a threshold table needs a value, and only a value', () => {
    expect(refusal(() => landOnTable(threshold, {})).message).toBe('"Test table" reads one value, and none was given.');
    expect(refusal(() => landOnTable(threshold, { value: Number.NaN })).message).toBe('The value must be a number; it is NaN.');
    expect(refusal(() => landOnTable(threshold, { attack: 3, defence: 1 })).message).toBe('"Test table" reads one value, not attack and defence: give "value" only.');
    expect(refusal(() => landOnTable(threshold, {})).rule).toBe('table test-table: threshold input');
  });

  it('very large and very small strengths are compared exactly', () => {
    expect(landed(table({ labels: FRANCE, aboveLast: 'last-column' }), { attack: 1e300, defence: 1e-300 })).toBe('4-1');
    expect(landed(table({ labels: FRANCE }), { attack: 1e-300, defence: 4e-300 })).toBe('1-4');
    expect(() => landOnTable(table({ labels: FRANCE }), { attack: 1e-300, defence: 4.000000001e-300 })).toThrow(RuleViolation);
  });
});
