import { describe, expect, it } from 'vitest';
import { checkTable, tableDefinitionSchema, TABLE_FORMAT, validateTable, type TableDefinition } from '../../../domain/tables';

/** A small valid table: 2d6, five ratio columns, three results. */
function base(): TableDefinition {
  return {
    format: 'arbiter-table/1',
    id: 'wb-combat',
    title: 'Combat table',
    dice: '2d6',
    columns: { kind: 'ratio', labels: ['1-3', '1-2', '1-1', '2-1', '3-1'], landing: 'defender', belowFirst: 'refuse', aboveLast: 'last-column', shiftPastLeft: 'clamp', shiftPastRight: 'die-modifier' },
    rows: [{ atMost: 4 }, { from: 5, to: 6 }, { roll: 7 }, { from: 8, to: 11 }, { atLeast: 12 }],
    rowsOffTable: 'clamp',
    results: [
      { code: 'AE', description: 'attacker eliminated', effects: [{ effect: 'eliminated', side: 'attacker' }] },
      { code: 'NE', effects: [] },
      { code: 'A1D13R', description: 'attacker 1 LP, defender 13 LP, defender retreats', effects: [{ effect: 'loss', side: 'defender', value: 13 }, { effect: 'retreat', side: 'defender', value: 1 }] },
    ],
    cells: [
      ['AE', 'AE', 'AE', 'NE', 'NE'],
      ['AE', 'AE', 'NE', 'NE', 'A1D13R'],
      ['AE', 'NE', 'NE', 'A1D13R', 'A1D13R'],
      ['NE', 'NE', 'A1D13R', 'A1D13R', 'A1D13R'],
      ['NE', 'A1D13R', 'A1D13R', 'A1D13R', 'A1D13R'],
    ],
  };
}

/** The issues of a table changed by `change`, as validateTable reports them. */
function issuesOf(change: (table: TableDefinition & Record<string, unknown>) => void) {
  const table = base() as TableDefinition & Record<string, unknown>;
  change(table);
  const validation = validateTable(JSON.parse(JSON.stringify(table)));
  if (validation.ok) throw new Error('the table was accepted');
  return validation.issues;
}

function expectIssue(change: (table: TableDefinition & Record<string, unknown>) => void, path: string, message: RegExp | string) {
  const issues = issuesOf(change);
  const at = issues.filter((i) => i.path === path);
  expect(at, `issues: ${JSON.stringify(issues)}`).not.toHaveLength(0);
  expect(at.map((i) => i.message).join('\n')).toMatch(message);
}

describe('a valid table', () => {
  it('passes, with its parsed definition and hash', () => {
    const validation = validateTable(base());
    expect(validation).toMatchObject({ ok: true, table: base() });
    expect(validation.ok && validation.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(TABLE_FORMAT).toBe('arbiter-table/1');
  });

  it('is also what tableDefinitionSchema parses, and checkTable finds nothing in it', () => {
    expect(tableDefinitionSchema.parse(base())).toEqual(base());
    expect(checkTable(base())).toEqual([]);
  });

  it('may leave out rows and rowsOffTable when its dice is "none", with one row of cells', () => {
    const validation = validateTable({ ...base(), dice: 'none', rows: undefined, rowsOffTable: undefined, columns: { ...base().columns, shiftPastRight: 'clamp' }, cells: [base().cells[0]] });
    expect(validation.ok).toBe(true);
  });

  it('may write ratios with ":" and decimals, and differentials and thresholds as numbers', () => {
    expect(validateTable({ ...base(), columns: { ...base().columns, labels: ['1:4', '1-2.5', '2:3', '1.5-1', '6:1'] } }).ok).toBe(true);
    expect(validateTable({ ...base(), columns: { ...base().columns, kind: 'differential', labels: ['-3', '-1', '0', '+2', '5'] } }).ok).toBe(true);
    expect(validateTable({ ...base(), columns: { ...base().columns, kind: 'threshold', labels: ['-2', '0', '2.5', '12', '40'] } }).ok).toBe(true);
  });

  it('may write a d66 table by tens, leaving out 17–20, 27–30 … which two d6 cannot show', () => {
    const rows = [1, 2, 3, 4, 5, 6].map((t) => ({ from: 10 * t + 1, to: 10 * t + 6 }));
    expect(validateTable({ ...base(), dice: 'd66', rows, cells: [...base().cells, base().cells[0]] }).ok).toBe(true);
  });
});

describe('each kind of malformed table gets an issue at its place', () => {
  it('a cell that is no code of results', () => {
    expectIssue((t) => (t.cells[3][4] = 'XX'), 'cells[3][4]', '"XX" is not a code of results (codes: AE, NE, A1D13R)');
  });

  it('a row of cells with the wrong number of cells', () => {
    expectIssue((t) => t.cells[2].push('NE'), 'cells[2]', 'has 6 cells; the table has 5 columns');
    expectIssue((t) => t.cells[0].pop(), 'cells[0]', 'has 4 cells; the table has 5 columns');
  });

  it('a number of rows of cells other than the rows', () => {
    expectIssue((t) => t.cells.pop(), 'cells', 'has 4 rows of cells; the table has 5 rows');
  });

  it('overlapping rows', () => {
    expectIssue((t) => (t.rows![2] = { from: 6, to: 7 }), 'rows[2]', 'row 3 (6–7) overlaps row 2 (5–6)');
  });

  it('a gap between rows', () => {
    expectIssue((t) => (t.rows![3] = { from: 9, to: 11 }), 'rows[3]', 'there is a gap between row 3 (7) and row 4 (9–11): no row holds 8');
  });

  it('rows out of order', () => {
    expectIssue((t) => (t.rows![2] = { roll: 3 }), 'rows[2]', /row 3 \(3\) comes after row 2 \(5–6\)/);
  });

  it('a row from a higher roll to a lower one', () => {
    expectIssue((t) => (t.rows![1] = { from: 6, to: 5 }), 'rows[1]', /runs from 6 down to 5/);
  });

  it('atLeast on a row that is not the last, atMost on a row that is not the first', () => {
    expectIssue((t) => (t.rows![3] = { atLeast: 8 }), 'rows[3]', /only the last row can hold every roll from a number up/);
    expectIssue((t) => (t.rows![1] = { atMost: 6 }), 'rows[1]', /only the first row can hold every roll up to a number/);
  });

  it('rows that miss a roll the dice can show', () => {
    expectIssue((t) => (t.rows![0] = { from: 3, to: 4 }), 'rows', 'no row holds a roll of 2, which 2d6 can show: the rows must hold every roll of the dice');
  });

  it('a d66 table whose gap leaves out a roll two d6 can show', () => {
    const rows = [1, 2, 3, 4, 5, 6].map((t) => ({ from: 10 * t + 1, to: 10 * t + 6 }));
    rows[2] = { from: 32, to: 36 };
    expectIssue((t) => Object.assign(t, { dice: 'd66', rows, cells: [...t.cells, t.cells[0]] }), 'rows[2]', 'no row holds 27–31');
  });

  it('a row that is not one of the four shapes', () => {
    expectIssue((t) => (t.rows![1] = { from: 5 } as never), 'rows[1]', '"to" is missing: a row is {"roll": n}, {"from": a, "to": b}, {"atMost": n} or {"atLeast": n}');
    expectIssue((t) => (t.rows![1] = { at: 5 } as never), 'rows[1]', /^a row is \{"roll": n\}/);
    expectIssue((t) => (t.rows![1] = 5 as never), 'rows[1]', /^a row is \{"roll": n\}/);
    expectIssue((t) => (t.rows![2] = { roll: 7.5 }), 'rows[2]', 'roll: a roll in a row is a whole number');
    expectIssue((t) => (t.rows![2] = { roll: 7, atMost: 3 } as never), 'rows[2]', /unknown field "atMost"/);
  });

  it('labels that do not increase', () => {
    expectIssue((t) => (t.columns.labels[3] = '1:1'), 'columns.labels[3]', '"1:1" (column 4) is the same as "1-1" (column 3): labels must increase from left to right');
    expectIssue((t) => (t.columns.labels[4] = '3-2'), 'columns.labels[4]', /"3-2" \(column 5, 1.5\) is less than "2-1" \(column 4, 2\)/);
  });

  it('equal ratios written differently are the same column: 2-3 and 4:6', () => {
    expectIssue((t) => (t.columns.labels = ['1-3', '2-3', '4:6', '2-1', '3-1']), 'columns.labels[2]', /"4:6" \(column 3\) is the same as "2-3"/);
  });

  it('labels that are not of the kind', () => {
    expectIssue((t) => (t.columns.labels[0] = '1/3'), 'columns.labels[0]', '"1/3" is not a ratio');
    expectIssue((t) => (t.columns.labels[0] = '0-3'), 'columns.labels[0]', 'both sides must be greater than 0');
    expectIssue((t) => Object.assign(t.columns, { kind: 'differential', labels: ['-2', '-1', '0', '+1.5', '2'] }), 'columns.labels[3]', '"+1.5" is not a differential');
    expectIssue((t) => Object.assign(t.columns, { kind: 'threshold', labels: ['0', '1', 'ten', '20', '30'] }), 'columns.labels[2]', '"ten" is not a threshold');
  });

  it('a nearest-* landing on a ratio that is not n-1 or 1-n', () => {
    expectIssue((t) => Object.assign(t.columns, { landing: 'nearest-defender', labels: ['1-3', '1-2', '2-3', '2-1', '3-1'] }), 'columns.labels[2]', '"2-3" is not n-1 or 1-n with a whole n');
    expect(validateTable({ ...base(), columns: { ...base().columns, landing: 'nearest-attacker', labels: ['1-3', '1:2', '1-1', '2:1', '3-1'] } }).ok).toBe(true);
    expectIssue((t) => Object.assign(t.columns, { landing: 'nearest-attacker', labels: ['1-3', '1-2', '1-1', '2.5-1', '3-1'] }), 'columns.labels[3]', /not n-1 or 1-n/);
  });

  it('duplicate result codes', () => {
    expectIssue((t) => (t.results[2].code = 'AE'), 'results[2].code', '"AE" is already the code of results[0]: codes are unique');
  });

  it('dice "none" with rows, rowsOffTable or a die-modifier policy', () => {
    expectIssue((t) => (t.dice = 'none'), 'rows', 'a table whose dice is "none" has no rows');
    expectIssue((t) => (t.dice = 'none'), 'rowsOffTable', /leave "rowsOffTable" out/);
    expectIssue((t) => (t.dice = 'none'), 'columns.shiftPastRight', /not "die-modifier"/);
    expectIssue((t) => Object.assign(t, { dice: 'none', rows: undefined, rowsOffTable: undefined }), 'cells', 'has 5 rows of cells; a table without dice has exactly 1');
  });

  it('dice without rows or rowsOffTable', () => {
    expectIssue((t) => delete t.rows, 'rows', 'a table with dice (2d6) needs "rows"');
    expectIssue((t) => delete t.rowsOffTable, 'rowsOffTable', /"rowsOffTable" is "clamp" or "refuse"/);
  });

  it('dice this format does not know', () => {
    for (const dice of ['2d7', '6d6', '0d6', 'd6', '2D6', 'd666', '1d6+1', ' 2d6']) {
      expectIssue((t) => (t.dice = dice), 'dice', /dice is "<n>d<s>"/);
    }
  });

  it('a threshold table that does not land as the defender', () => {
    expectIssue((t) => Object.assign(t.columns, { kind: 'threshold', labels: ['0', '5', '10', '15', '20'], landing: 'attacker' }), 'columns.landing', /its landing is "defender", not "attacker"/);
  });

  it('unknown keys, at every level', () => {
    expectIssue((t) => (t.colour = 'red'), '(table)', 'unknown field "colour"');
    expectIssue((t) => ((t.columns as unknown as Record<string, unknown>).width = 3), 'columns', 'unknown field "width"');
    expectIssue((t) => ((t.results[0] as unknown as Record<string, unknown>).extra = 1), 'results[0]', 'unknown field "extra"');
    expectIssue((t) => ((t.results[2].effects[0] as unknown as Record<string, unknown>).side2 = 'x'), 'results[2].effects[0]', 'unknown field "side2"');
    expectIssue((t) => ((t.rows![2] as unknown as Record<string, unknown>).to = 8), 'rows[2]', 'unknown field "to"');
  });

  it('the wrong format, a missing field, the wrong type', () => {
    expectIssue((t) => (t.format = 'arbiter-table/2' as never), 'format', 'format is "arbiter-table/1"');
    expectIssue((t) => delete (t as Partial<TableDefinition>).title, 'title', 'missing: this field is required');
    expectIssue((t) => (t.cells = 'AE' as never), 'cells', 'must be an array, not a string');
    expect(validateTable(null)).toEqual({ ok: false, issues: [{ path: '(table)', message: 'must be an object, not null' }] });
    expect(validateTable([])).toMatchObject({ ok: false, issues: [{ path: '(table)', message: 'must be an object, not an array' }] });
  });

  it('ids, codes, effects and words out of their bounds', () => {
    expectIssue((t) => (t.id = 'WB combat'), 'id', /an id is 1 to 64 lowercase letters/);
    expectIssue((t) => (t.id = 'a'.repeat(65)), 'id', /an id is 1 to 64/);
    expectIssue((t) => (t.title = ''), 'title', 'must not be empty');
    expectIssue((t) => (t.title = 'x'.repeat(201)), 'title', 'must be at most 200 characters');
    expectIssue((t) => (t.title = 'Combat\ntable'), 'title', /control characters/);
    expectIssue((t) => (t.source = 's'.repeat(501)), 'source', 'must be at most 500 characters');
    expectIssue((t) => (t.results[0].code = 'A E'), 'results[0].code', /a code is 1 to 32 characters/);
    expectIssue((t) => (t.results[0].code = 'A'.repeat(33)), 'results[0].code', /a code is 1 to 32 characters/);
    expectIssue((t) => (t.results[0].effects[0].effect = 'Loss'), 'results[0].effects[0].effect', /an effect is 1 to 32 lowercase letters/);
    expectIssue((t) => (t.results[0].effects[0].side = 'both' as never), 'results[0].effects[0].side', 'side is one of "attacker", "defender"');
    expectIssue((t) => (t.results[0].effects[0].note = 'n'.repeat(201)), 'results[0].effects[0].note', 'must be at most 200 characters');
    expectIssue((t) => (t.results[0].effects = Array.from({ length: 17 }, () => ({ effect: 'loss' }))), 'results[0].effects', 'a result has at most 16 effects');
    expectIssue((t) => (t.columns.landing = 'middle' as never), 'columns.landing', 'landing is one of "defender", "attacker", "nearest-defender", "nearest-attacker"');
    expectIssue((t) => (t.columns.labels[0] = 'x'.repeat(25)), 'columns.labels[0]', 'a label is at most 24 characters');
  });

  it('numbers that are not finite', () => {
    const json = JSON.stringify(base()).replace('"value":13', '"value":1e999');
    const validation = validateTable(JSON.parse(json));
    expect(validation).toMatchObject({ ok: false, issues: [{ path: 'results[2].effects[0].value', message: 'value is a finite number' }] });
    expectIssue((t) => (t.rows![2] = { roll: 1e6 }), 'rows[2].roll', 'a roll in a row is at most 100000');
  });

  it('sizes over the bounds: 101 columns, 201 rows, 501 results', () => {
    expectIssue((t) => (t.columns.labels = Array.from({ length: 101 }, (_, i) => `${i + 1}-1`)), 'columns.labels', 'a table has at most 100 columns');
    expectIssue((t) => (t.cells = Array.from({ length: 201 }, () => ['AE'])), 'cells', 'a table has at most 200 rows of cells');
    expectIssue((t) => (t.rows = Array.from({ length: 201 }, (_, i) => ({ roll: i }))), 'rows', 'a table has at most 200 rows');
    expectIssue((t) => (t.results = Array.from({ length: 501 }, (_, i) => ({ code: `R${i}`, effects: [] }))), 'results', 'a table has at most 500 results');
    expectIssue((t) => (t.cells[0] = Array.from({ length: 101 }, () => 'AE')), 'cells[0]', 'a row of cells has at most 100 cells');
  });

  it('the largest table allowed passes: 100 columns, 200 rows, 500 results', () => {
    const results = Array.from({ length: 500 }, (_, i) => ({ code: `R${i}`, effects: [{ effect: 'loss', value: i }] }));
    const table = {
      ...base(),
      dice: '1d100',
      columns: { ...base().columns, labels: Array.from({ length: 100 }, (_, i) => `${i + 1}-1`) },
      rows: Array.from({ length: 200 }, (_, i) => ({ roll: i - 49 })),
      results,
      cells: Array.from({ length: 200 }, (_, r) => Array.from({ length: 100 }, (_, c) => `R${(r * 100 + c) % 500}`)),
    };
    const started = performance.now();
    expect(validateTable(table).ok).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('lists at most 100 issues, however broken the table', () => {
    const issues = issuesOf((t) => (t.cells = Array.from({ length: 5 }, () => Array.from({ length: 5 }, (_, i) => `bad${i}`))));
    expect(issues).toHaveLength(25);
    const many = issuesOf((t) => {
      t.columns.labels = Array.from({ length: 100 }, (_, i) => `${i + 1}-1`);
      t.cells = Array.from({ length: 5 }, () => Array.from({ length: 100 }, () => 'nope'));
    });
    expect(many).toHaveLength(100);
  });
});

describe('hostile strings are data', () => {
  it('"__proto__" as a key is an unknown field, and pollutes nothing', () => {
    const json = JSON.parse(JSON.stringify(base()).replace('{"format"', '{"__proto__":{"polluted":true},"format"'));
    expect(validateTable(json)).toMatchObject({ ok: false, issues: [{ path: '(table)', message: 'unknown field "__proto__": a table has only the fields arbiter-table/1 names' }] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('"__proto__" as an id, a label or a cell is refused as what it is', () => {
    expectIssue((t) => (t.id = '__proto__'), 'id', /an id is/);
    expectIssue((t) => (t.columns.labels[0] = '__proto__'), 'columns.labels[0]', '"__proto__" is not a ratio');
    expectIssue((t) => (t.cells[0][0] = '__proto__'), 'cells[0][0]', '"__proto__" is not a code of results');
    expectIssue((t) => (t.results[0].code = '__proto__'), 'results[0].code', /a code is/);
  });

  it('codes named like Object.prototype members are codes like any other', () => {
    const codes = ['constructor', 'toString', 'hasOwnProperty', 'valueOf'];
    const table = { ...base(), results: codes.map((code) => ({ code, effects: [{ effect: 'constructor' }] })), cells: base().cells.map((row) => row.map((_, i) => codes[i % 4])) };
    expect(validateTable(table).ok).toBe(true);
    // …and a cell naming one that the results do not have is still unknown.
    const missing = { ...table, results: table.results.slice(1) };
    const validation = validateTable(missing);
    expect(validation.ok).toBe(false);
    expect(!validation.ok && validation.issues[0]).toMatchObject({ path: 'cells[0][0]', message: expect.stringMatching(/^"constructor" is not a code of results/) });
  });

  it('regular-expression characters in labels and codes are plain text', () => {
    expectIssue((t) => (t.columns.labels[0] = '.*'), 'columns.labels[0]', '".*" is not a ratio');
    const table = { ...base(), results: [{ code: '.*', effects: [] }, { code: '+', effects: [] }], cells: base().cells.map((row) => row.map((_, i) => (i % 2 ? '.*' : '+'))) };
    expect(validateTable(table).ok).toBe(true);
    expectIssue((t) => Object.assign(t, { results: [{ code: '.*', effects: [] }], cells: t.cells.map((row) => row.map(() => 'AE')) }), 'cells[0][0]', '"AE" is not a code of results (codes: .*)');
  });
});
