import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CountingDice } from '../../../domain/dice';
import { RuleViolation } from '../../../domain/errors';
import { resolveOnTable, validateTable, type TableDefinition, type TableInput } from '../../../domain/tables';

const docs = readFileSync(new URL('../../../docs/tables.md', import.meta.url), 'utf8');
type Json = TableDefinition & Record<string, unknown>;
const setPiece = (): Json => JSON.parse(readFileSync(new URL('../../../docs/examples/tables/france44-crt-set-piece.json', import.meta.url), 'utf8'));

/** The example messages of a section's tables: the last cell of each row, without its backticks. */
function examplesOf(section: string): string[] {
  const start = docs.indexOf(`## ${section}`);
  const end = docs.indexOf('\n## ', start + 1);
  return docs
    .slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| problem') && !line.startsWith('| rule'))
    .map((line) => line.split(' | ').at(-1)!.replace(/ \|$/, ''))
    .filter((cell) => cell.startsWith('`'))
    .map((cell) => cell.slice(1, -1));
}

/** What validateTable says of the France 1944 table changed in one way: every message. */
function issuesWhen(change: (t: Json) => void): { path: string; message: string }[] {
  const table = setPiece();
  change(table);
  const validation = validateTable(table);
  return validation.ok ? [] : validation.issues;
}

const CHANGES: ((t: Json) => void)[] = [
  (t) => (t.colour = 'red'),
  (t) => delete (t as Partial<Json>).title,
  (t) => (t.format = 'arbiter-table/2' as never),
  (t) => (t.id = 'France 44'),
  (t) => (t.title = 'Combat\ttable'),
  (t) => (t.dice = '2d7'),
  (t) => (t.columns.landing = 'middle' as never),
  (t) => (t.columns.labels = Array.from({ length: 101 }, (_, i) => `${i + 1}-1`)),
  (t) => (t.rows![1] = { from: 2 } as never),
  (t) => (t.rows![1] = { roll: 2.5 }),
  (t) => (t.results[0].code = 'A B'),
  (t) => (t.results[2].effects[0].effect = 'Step loss'),
  (t) => (t.results[2].effects[0].side = 'both' as never),
  (t) => (t.results[2].effects[0].value = '2' as never),
  (t) => (t.results[0].effects = Array.from({ length: 17 }, () => ({ effect: 'loss' }))),
  (t) => (t.columns.labels[2] = '1/2'),
  (t) => (t.columns.labels[0] = '0-4'),
  (t) => (t.columns.labels[3] = '1-3'),
  (t) => (t.columns.labels[3] = '2:4'),
  (t) => (t.columns.landing = 'nearest-defender'),
  (t) => Object.assign(t.columns, { kind: 'threshold', labels: ['0', '1', '2', '3', '4', '5', '6', '7', '8'], landing: 'attacker' }),
  (t) => (t.dice = 'none'),
  (t) => delete t.rows,
  (t) => delete t.rowsOffTable,
  (t) => (t.rows![1] = { from: 3, to: 2 }),
  (t) => (t.rows![1] = { atMost: 2 }),
  (t) => (t.rows![1] = { atLeast: 2 }),
  (t) => (t.rows![2] = { roll: 1 }),
  (t) => (t.rows![2] = { from: 2, to: 3 }),
  (t) => (t.rows![2] = { roll: 4 }),
  (t) => (t.rows!.pop(), t.cells.pop()),
  (t) => (t.results[3].code = 'A'),
  (t) => t.cells.pop(),
  (t) => t.cells[2].push('A'),
  (t) => (t.cells[3][5] = 'XX'),
];

function refusalOf(table: TableDefinition, input: TableInput): string {
  try {
    resolveOnTable(table, input, new CountingDice());
  } catch (error) {
    expect(error).toBeInstanceOf(RuleViolation);
    return (error as RuleViolation).message;
  }
  throw new Error('not refused');
}

function refusals(): string[] {
  const combat = { ...setPiece(), title: 'Combat table' };
  const strict = validateTable({ ...combat, columns: { ...combat.columns, shiftPastRight: 'refuse' } });
  const nearest = validateTable({ ...combat, columns: { ...combat.columns, labels: ['6:1'], landing: 'nearest-defender', aboveLast: 'refuse' }, cells: combat.cells.map((row) => [row[0]]) });
  const twoD6 = validateTable({ ...combat, dice: '2d6', rows: [{ roll: 2 }, { from: 3, to: 11 }, { roll: 12 }], rowsOffTable: 'refuse', cells: combat.cells.slice(0, 3) });
  const differential = validateTable({ ...combat, columns: { ...combat.columns, kind: 'differential', labels: ['-1', '0', '+1'] }, cells: combat.cells.map((row) => row.slice(0, 3)) });
  const bombardment = validateTable({ ...combat, title: 'Bombardment', columns: { ...combat.columns, kind: 'threshold', labels: ['0', '10'] }, cells: combat.cells.map((row) => row.slice(0, 2)) });
  const support = validateTable({ ...combat, title: 'Support', dice: 'none', rows: undefined, rowsOffTable: undefined, columns: { ...combat.columns, kind: 'threshold', labels: ['0'], shiftPastLeft: 'clamp', shiftPastRight: 'clamp' }, cells: [['A']] });
  for (const v of [strict, nearest, twoD6, differential, bombardment, support]) if (!v.ok) throw new Error(JSON.stringify(v.issues));
  const t = (v: typeof strict) => (v as { table: TableDefinition }).table;
  return [
    refusalOf(combat, { attack: 1, defence: 5 }),
    refusalOf(t(nearest), { attack: 33, defence: 5 }),
    refusalOf(t(strict), { attack: 3, defence: 1, shifts: [{ source: 'combat modifier', value: 3 }] }),
    refusalOf(t(twoD6), { attack: 3, defence: 1, modifiers: [{ source: 'leader', value: 1 }] }),
    refusalOf(combat, { attack: 0, defence: 1 }),
    refusalOf(t(differential), { attack: -1, defence: 1 }),
    refusalOf(t(bombardment), {}),
    refusalOf(combat, { attack: 1, defence: 1, shifts: [{ source: 'marsh', value: 0.5 }] }),
    refusalOf(t(support), { value: 3, modifiers: [{ source: 'terrain', value: 1 }] }),
  ];
}

describe('docs/tables.md', () => {
  it('shows, as an example of each error, a message validateTable gives', () => {
    const given = new Set(CHANGES.flatMap((change) => issuesWhen(change).map((issue) => issue.message)));
    const examples = examplesOf('Errors a table can get');
    expect(examples.length).toBeGreaterThan(30);
    for (const example of examples) expect(given, example).toContain(example);
  });

  it('shows, as an example of each refusal, a message resolveOnTable gives', () => {
    const given = new Set(refusals());
    const examples = examplesOf('Refusals while resolving');
    expect(examples).toHaveLength(9);
    for (const example of examples) expect(given, example).toContain(example);
  });

  it('shows the France 1944 example with the content of the file', () => {
    const start = docs.indexOf('```json\n{\n  "format"');
    const shown = JSON.parse(docs.slice(start + '```json\n'.length, docs.indexOf('```', start + 8)));
    expect(shown).toEqual(setPiece());
  });
});
