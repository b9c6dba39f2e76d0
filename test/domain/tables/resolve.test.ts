import { describe, expect, it } from 'vitest';
import { CountingDice, GivenDice, type DiceSource } from '../../../domain/dice';
import { InsufficientDice, RuleViolation } from '../../../domain/errors';
import { resolveOnTable, rowLabel, SHIFT_PAST_END, tableHash, validateTable, type TableDefinition } from '../../../domain/tables';

/** A table from JSON, checked: what a game would hold. */
function valid(json: unknown): TableDefinition {
  const validation = validateTable(json);
  if (!validation.ok) throw new Error(JSON.stringify(validation.issues));
  return validation.table;
}

const twoD6 = valid({
  format: 'arbiter-table/1',
  id: 'wb-combat',
  title: 'Combat table',
  dice: '2d6',
  columns: { kind: 'ratio', labels: ['1-2', '1-1', '2-1', '3-1'], landing: 'defender', belowFirst: 'refuse', aboveLast: 'last-column', shiftPastLeft: 'die-modifier', shiftPastRight: 'die-modifier' },
  rows: [{ atMost: 3 }, { from: 4, to: 6 }, { roll: 7 }, { from: 8, to: 11 }, { roll: 12 }],
  rowsOffTable: 'clamp',
  results: [
    { code: 'AE', description: 'attacker eliminated', effects: [{ effect: 'eliminated', side: 'attacker' }] },
    { code: 'NE', effects: [] },
    { code: 'DR', effects: [{ effect: 'retreat', side: 'defender', value: 1, note: 'one hex' }] },
    { code: 'DE', effects: [{ effect: 'eliminated', side: 'defender' }] },
  ],
  cells: [
    ['AE', 'AE', 'NE', 'NE'],
    ['AE', 'NE', 'NE', 'DR'],
    ['NE', 'NE', 'DR', 'DR'],
    ['NE', 'DR', 'DR', 'DE'],
    ['DR', 'DR', 'DE', 'DE'],
  ],
});

const refusing = valid({ ...twoD6, id: 'wb-strict', rows: [{ roll: 2 }, { from: 3, to: 11 }, { roll: 12 }], rowsOffTable: 'refuse', cells: twoD6.cells.slice(0, 3) });

describe('a 2d6 ratio table', () => {
  it('lands, rolls each die, adds the modifiers and reads the cell', () => {
    const dice = new GivenDice([3, 4]);
    const resolution = resolveOnTable(twoD6, { attack: 9, defence: 4, modifiers: [{ source: 'leader', value: 1 }, { source: 'terrain', value: -2 }] }, dice);
    expect(resolution).toEqual({
      table: { id: 'wb-combat', title: 'Combat table', hash: tableHash(twoD6), example: false },
      landing: {
        kind: 'ratio',
        attack: 9,
        defence: 4,
        reads: '9:4 = 2.25:1',
        landedColumn: { index: 2, label: '2-1' },
        shifts: { total: 0, sources: [] },
        column: { index: 2, label: '2-1' },
        dieModifier: 0,
        lostShift: 0,
      },
      roll: { dice: '2d6', faces: [3, 4], natural: 7, modifiers: [{ source: 'leader', value: 1 }, { source: 'terrain', value: -2 }], modified: 6, row: { index: 1, label: '4–6' } },
      code: 'NE',
      effects: [],
    });
    expect(dice.drawn).toEqual([{ sides: 6, value: 3 }, { sides: 6, value: 4 }]);
  });

  it('gives the result\'s description and effects, as copies', () => {
    const resolution = resolveOnTable(twoD6, { attack: 3, defence: 1 }, new GivenDice([6, 6]));
    expect(resolution).toMatchObject({ code: 'DE', roll: { natural: 12, row: { index: 4, label: '12' } }, effects: [{ effect: 'eliminated', side: 'defender' }] });
    expect(resolution.description).toBeUndefined();
    resolution.effects[0].side = 'attacker';
    expect(twoD6.results[3].effects[0].side).toBe('defender');
    expect(resolveOnTable(twoD6, { attack: 1, defence: 2 }, new GivenDice([1, 1])).description).toBe('attacker eliminated');
    expect(resolveOnTable(twoD6, { attack: 3, defence: 1 }, new GivenDice([3, 4])).effects).toEqual([{ effect: 'retreat', side: 'defender', value: 1, note: 'one hex' }]);
  });

  it('turns shifts past an end into a die modifier that the roll lists', () => {
    const resolution = resolveOnTable(twoD6, { attack: 3, defence: 1, shifts: [{ source: 'armour', value: 2 }], modifiers: [{ source: 'leader', value: 1 }] }, new GivenDice([2, 3]));
    expect(resolution.landing).toMatchObject({ column: { label: '3-1' }, dieModifier: 2 });
    expect(resolution.roll).toMatchObject({ natural: 5, modifiers: [{ source: 'leader', value: 1 }, { source: SHIFT_PAST_END, value: 2 }], modified: 8, row: { label: '8–11' } });
    expect(SHIFT_PAST_END).toBe('shift past the end of the table');
    const left = resolveOnTable(twoD6, { attack: 1, defence: 1, shifts: [{ source: 'river', value: -3 }] }, new GivenDice([4, 4]));
    expect(left.roll).toMatchObject({ natural: 8, modifiers: [{ source: SHIFT_PAST_END, value: -2 }], modified: 6 });
  });

  it('rowsOffTable clamp: a roll past the rows is read on the nearest row', () => {
    const high = resolveOnTable(twoD6, { attack: 3, defence: 1, modifiers: [{ source: 'x', value: 5 }] }, new GivenDice([6, 6]));
    expect(high.roll).toMatchObject({ modified: 17, row: { index: 4, label: '12' } });
    const low = resolveOnTable(refusing, { attack: 3, defence: 1 }, new GivenDice([1, 1]));
    expect(low.roll).toMatchObject({ modified: 2, row: { index: 0, label: '2' } });
  });

  it('rowsOffTable refuse: refused before any die when a roll the dice can show would leave the rows', () => {
    const dice = new GivenDice([6, 6]);
    let error: unknown;
    try {
      resolveOnTable(refusing, { attack: 3, defence: 1, modifiers: [{ source: 'leader', value: 1 }] }, dice);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RuleViolation);
    expect((error as RuleViolation).message).toBe('With die modifiers of +1 in all, a roll of 12 would be 13, which is in no row of "Combat table" (rows 2 to 12), and this table refuses rolls off its rows: nothing was rolled.');
    expect((error as RuleViolation).rule).toBe('table wb-strict: rowsOffTable refuse');
    expect(dice.drawn).toEqual([]);
    // A modifier that a shift past an end brings counts too.
    expect(() => resolveOnTable(refusing, { attack: 1, defence: 2, shifts: [{ source: 'river', value: -1 }] }, dice)).toThrow(/modifiers of -1 in all, a roll of 2 would be 1/);
    expect(dice.drawn).toEqual([]);
    // Modifiers that cancel out are no modifier.
    expect(resolveOnTable(refusing, { attack: 3, defence: 1, modifiers: [{ source: 'a', value: 2 }, { source: 'b', value: -2 }] }, dice).roll?.modified).toBe(12);
  });

  it('never rolls before every check has passed', () => {
    const inputs = [
      { attack: 1, defence: 5 },
      { attack: 0, defence: 5 },
      { attack: 3, defence: 1, modifiers: [{ source: 'x', value: 0.5 }] },
      { attack: 3, defence: 1, shifts: [{ source: 'x', value: 0.5 }] },
      { value: 3 },
    ];
    for (const input of inputs) {
      const dice = new CountingDice();
      expect(() => resolveOnTable(twoD6, input, dice)).toThrow(RuleViolation);
      expect(dice.drawn).toEqual([]);
    }
  });

  it('draws nothing more than its dice, and says so when it is given too few', () => {
    const dice = new GivenDice([3, 4, 5]);
    resolveOnTable(twoD6, { attack: 1, defence: 1 }, dice);
    expect(dice.unused).toBe(1);
    expect(() => resolveOnTable(twoD6, { attack: 1, defence: 1 }, new GivenDice([3]))).toThrow(InsufficientDice);
  });

  it('a die modifier must be a whole number', () => {
    expect(() => resolveOnTable(twoD6, { attack: 1, defence: 1, modifiers: [{ source: 'fog', value: 1.5 }] }, new GivenDice([1, 1]))).toThrow('A die modifier is a whole number: "fog" is 1.5.');
  });
});

describe('other dice', () => {
  const base = {
    format: 'arbiter-table/1',
    title: 'Other dice',
    columns: { kind: 'threshold', labels: ['0', '10'], landing: 'defender', belowFirst: 'refuse', aboveLast: 'last-column', shiftPastLeft: 'clamp', shiftPastRight: 'clamp' },
    rowsOffTable: 'clamp',
    results: [
      { code: 'lo', effects: [] },
      { code: 'hi', effects: [] },
    ],
  };

  it('d66: two d6, tens then units, on rows written by tens', () => {
    const d66 = valid({ ...base, id: 'd66', dice: 'd66', rows: [1, 2, 3, 4, 5, 6].map((t) => ({ from: 10 * t + 1, to: 10 * t + 6 })), cells: [1, 2, 3, 4, 5, 6].map((t) => [t < 4 ? 'lo' : 'hi', 'hi']) });
    const dice = new GivenDice([3, 5]);
    const resolution = resolveOnTable(d66, { value: 4 }, dice);
    expect(resolution.roll).toEqual({ dice: 'd66', faces: [3, 5], natural: 35, modifiers: [], modified: 35, row: { index: 2, label: '31–36' } });
    expect(resolution.code).toBe('lo');
    expect(dice.drawn).toEqual([{ sides: 6, value: 3 }, { sides: 6, value: 5 }]);
    expect(resolveOnTable(d66, { value: 4 }, new GivenDice([6, 1])).roll).toMatchObject({ natural: 61, row: { label: '61–66' } });
  });

  it('d66: a modified roll in a gap (17–20) is read on the nearer row; with refuse it is refused before rolling', () => {
    const d66 = valid({ ...base, id: 'd66', dice: 'd66', rows: [1, 2, 3, 4, 5, 6].map((t) => ({ from: 10 * t + 1, to: 10 * t + 6 })), cells: [1, 2, 3, 4, 5, 6].map(() => ['lo', 'hi']) });
    const plus = (value: number) => ({ value: 4, modifiers: [{ source: 'm', value }] });
    expect(resolveOnTable(d66, plus(2), new GivenDice([1, 6])).roll).toMatchObject({ modified: 18, row: { label: '11–16' } });
    expect(resolveOnTable(d66, plus(3), new GivenDice([1, 6])).roll).toMatchObject({ modified: 19, row: { label: '21–26' } });
    // A tie goes to the lower row: 18 between 11–16 and 20–26.
    const tie = valid({ ...base, id: 'd66-tie', dice: 'd66', rows: [{ from: 11, to: 16 }, { from: 20, to: 66 }], cells: [['lo', 'lo'], ['hi', 'hi']] });
    expect(resolveOnTable(tie, plus(2), new GivenDice([1, 6])).roll).toMatchObject({ modified: 18, row: { label: '11–16' } });
    const strict = { ...d66, rowsOffTable: 'refuse' as const };
    const dice = new GivenDice([1, 1]);
    expect(() => resolveOnTable(strict, plus(1), dice)).toThrow(/a roll of 16 would be 17, which is in no row/);
    expect(dice.drawn).toEqual([]);
  });

  it('1d10: one die of ten sides, 1 to 10', () => {
    const d10 = valid({ ...base, id: 'd10', dice: '1d10', rows: [{ from: 1, to: 5 }, { from: 6, to: 10 }], cells: [['lo', 'lo'], ['hi', 'hi']] });
    const dice = new GivenDice([10]);
    expect(resolveOnTable(d10, { value: 12 }, dice)).toMatchObject({ landing: { column: { label: '10' } }, roll: { faces: [10], natural: 10, row: { label: '6–10' } }, code: 'hi' });
    expect(dice.drawn).toEqual([{ sides: 10, value: 10 }]);
    expect(() => resolveOnTable(d10, { value: 12 }, new GivenDice([11]))).toThrow(/d10/);
  });

  it('3d6 and 1d100 sum their dice', () => {
    const d3 = valid({ ...base, id: 'd3', dice: '3d6', rows: [{ from: 3, to: 10 }, { from: 11, to: 18 }], cells: [['lo', 'lo'], ['hi', 'hi']] });
    expect(resolveOnTable(d3, { value: 1 }, new GivenDice([6, 5, 1])).roll).toMatchObject({ faces: [6, 5, 1], natural: 12, row: { index: 1 } });
    const d100 = valid({ ...base, id: 'd100', dice: '1d100', rows: [{ atMost: 50 }, { atLeast: 51 }], cells: [['lo', 'lo'], ['hi', 'hi']] });
    const dice = new GivenDice([73]);
    expect(resolveOnTable(d100, { value: 1 }, dice).roll).toMatchObject({ natural: 73, row: { label: '≥ 51' } });
    expect(dice.drawn).toEqual([{ sides: 100, value: 73 }]);
  });

  it('"none": a lookup without a roll, and no die modifiers', () => {
    const lookup = valid({ ...base, id: 'support', dice: 'none', rowsOffTable: undefined, columns: { ...base.columns, labels: ['0', '5', '15'] }, results: [{ code: 'L0', effects: [] }, { code: 'L3', effects: [{ effect: 'modifier', value: 3 }] }], cells: [['L0', 'L0', 'L3']] });
    const dice = new CountingDice();
    const resolution = resolveOnTable(lookup, { value: 15, shifts: [{ source: 'x', value: 3 }] }, dice);
    expect(resolution).toMatchObject({ roll: null, code: 'L3', effects: [{ effect: 'modifier', value: 3 }], landing: { column: { label: '15' }, lostShift: 3 } });
    expect(dice.drawn).toEqual([]);
    const error = (() => {
      try {
        resolveOnTable(lookup, { value: 15, modifiers: [{ source: 'terrain', value: 1 }] }, dice);
      } catch (e) {
        return e as RuleViolation;
      }
    })();
    expect(error).toBeInstanceOf(RuleViolation);
    expect(error?.message).toBe('"Other dice" has no roll, so it takes no die modifiers ("terrain" +1).');
    expect(dice.drawn).toEqual([]);
  });
});

describe('the table in a resolution', () => {
  it('names the table, its hash and whether it is an example', () => {
    const example = valid({ ...twoD6, id: 'wb-example', example: true });
    const resolution = resolveOnTable(example, { attack: 1, defence: 1 }, new GivenDice([1, 1]));
    expect(resolution.table).toEqual({ id: 'wb-example', title: 'Combat table', hash: tableHash(example), example: true });
    expect(resolution.table.hash).not.toBe(tableHash(twoD6));
  });

  it('is plain JSON, with nothing undefined: what a commit records', () => {
    const resolution = resolveOnTable(twoD6, { attack: 3, defence: 2, shifts: [{ source: 'a', value: 1 }] }, new GivenDice([2, 2]));
    expect(JSON.parse(JSON.stringify(resolution))).toEqual(resolution);
    const undefinedAnywhere = (value: unknown): boolean =>
      value === undefined || (typeof value === 'object' && value !== null && Object.values(value).some(undefinedAnywhere));
    expect(undefinedAnywhere(resolution)).toBe(false);
  });
});

describe('rowLabel', () => {
  it('writes a row as a player reads it', () => {
    expect(rowLabel({ roll: 7 })).toBe('7');
    expect(rowLabel({ from: 2, to: 4 })).toBe('2–4');
    expect(rowLabel({ from: 3, to: 3 })).toBe('3');
    expect(rowLabel({ atMost: 2 })).toBe('≤ 2');
    expect(rowLabel({ atLeast: 12 })).toBe('≥ 12');
    expect(rowLabel({ from: -2, to: 0 })).toBe('-2–0');
  });
});

// A DiceSource is all resolveOnTable needs.
void ((dice: DiceSource) => resolveOnTable(twoD6, { attack: 1, defence: 1 }, dice));
