import { rulesetEntry } from '../../../../functions/http/catalogue';
import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { europaRuleset } from '../../../../domain/rulesets/europa';
import { EXAMPLE_AA_TABLE, NOT_IN_SOURCE, resolveOnAATable } from '../../../../domain/rulesets/europa/aaTable';
import { shortTableHash, tableDefinitionSchema, tableHash, type TableDefinition } from '../../../../domain/tables';
import { apply, given, p47Fire, TEST_AA_TABLE, withTestTable } from './harness';
import { refusal } from '../../../support/rulesetHarness';

const issues = (aaTable: unknown) =>
  europaRuleset.options.safeParse({ aaTable }).error?.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) ?? [];
const changed = (change: (t: TableDefinition) => void) => {
  const table = structuredClone(TEST_AA_TABLE);
  change(table);
  return table;
};

describe('the bundled example AA table', () => {
  it('is a valid arbiter-table/1 table and AA table, marked as an example, saying what it is', () => {
    expect(tableDefinitionSchema.safeParse(EXAMPLE_AA_TABLE).error).toBeUndefined();
    expect(issues(EXAMPLE_AA_TABLE)).toEqual([]);
    expect(EXAMPLE_AA_TABLE).toMatchObject({ example: true, source: expect.stringMatching(/^Not the published table: only what the worked examples .* prove/) });
  });

  it('holds only the known points: columns -1, 0, 10, 14, 17 (10, 14 and 17 side by side), column 17 with 8 giving 19, every other cell unknown', () => {
    expect(EXAMPLE_AA_TABLE.columns.labels).toEqual(['-1', '0', '10', '14', '17']);
    const known = EXAMPLE_AA_TABLE.cells.flatMap((row, r) => row.map((code, c) => ({ code, r, c }))).filter(({ code }) => code !== 'unknown');
    expect(known).toEqual([{ code: '19', r: 1, c: 4 }]);
    expect(EXAMPLE_AA_TABLE.rows![1]).toEqual({ roll: 8 });
    expect(EXAMPLE_AA_TABLE.results.find((r) => r.code === 'unknown')!.effects).toEqual([{ effect: NOT_IN_SOURCE }]);
    const dice = new GivenDice([]);
    expect(refusal(() => resolveOnAATable(EXAMPLE_AA_TABLE, 11, [{ source: '1944–45', value: 1 }, { source: 'German', value: 1 }], dice)).message).toMatch(
      /column 17 for rolls of 2, 3, 4, 5, 6, 7, 9, 10, 11, 12/,
    );
    expect(dice.drawn).toEqual([]);
  });

  it('goes into the creation request (newGameOptions) and is what options default to; the view shows its id, title and hash', () => {
    expect(europaRuleset.newGameOptions).toEqual({ aaTable: EXAMPLE_AA_TABLE, otherEuropaGames: false, rulesVersion: 3 });
    expect(europaRuleset.options.parse({}).aaTable).toEqual(EXAMPLE_AA_TABLE);
    expect(europaRuleset.present(given([]))).toMatchObject({ aaTable: { id: 'europa-aa-example', title: EXAMPLE_AA_TABLE.title, hash: tableHash(EXAMPLE_AA_TABLE), example: true } });
    expect(europaRuleset.present(given([], withTestTable))).toMatchObject({ aaTable: { id: 'test-aa', hash: tableHash(TEST_AA_TABLE), example: false } });
  });

  it("refuses, with the table's own 422, strengths right of 17, shifts past 17, and die modifiers off its rolls: no die drawn", () => {
    const dice = new GivenDice([6, 6]);
    const state = given([]);
    const fire = (extra: Record<string, unknown>) => () => europaRuleset.decide(state, { type: 'AAFire', payload: europaRuleset.commands.AAFire.schema.parse(p47Fire(extra)) }, { actor: 'axis', dice, now: '' });
    expect(refusal(fire({ aa: [{ unitId: 'f', aa: 18 }] }))).toEqual({ message: expect.stringMatching(/^A value of 18 is right of the last column \(17\)/), rule: 'table europa-aa-example: aboveLast refuse' });
    expect(refusal(fire({ aa: [{ unitId: 'f', aa: 17 }] })).rule).toBe('table europa-aa-example: shiftPastRight refuse');
    // 10 at night against one air unit: -6 from column 10, four columns past -1, -4 on a roll of 2 to 12.
    const night = fire({ aa: [{ unitId: 'f', aa: 10 }], night: true, germanOrAlliedShift: false, date: 'Jun I 43', airUnits: [{ unitId: 'Ju88', type: 'B', df: 5 }] });
    expect(refusal(night)).toEqual({ message: expect.stringMatching(/^With die modifiers of -4 in all, a roll of 2 would be -2/), rule: 'table europa-aa-example: rowsOffTable refuse' });
    expect(refusal(fire({ aa: [{ unitId: 'f', aa: 9 }], germanOrAlliedShift: false })).message).toMatch(
      /lands on the '0' column .* is an example that knows no column between 0 and 10: bring the published table\.$/,
    );
    expect(dice.drawn).toEqual([]);
  });
});

describe('an AA fire table brought as data', () => {
  it('is validated as arbiter-table/1 and as rule 37L asks, each issue at its path', () => {
    expect(issues(TEST_AA_TABLE)).toEqual([]);
    expect(issues(changed((t) => (t.columns.shiftPastLeft = 'clamp')))).toEqual([{ path: 'aaTable.columns.shiftPastLeft', message: expect.stringMatching(/minus die modifiers on the "-1" column/) }]);
    expect(issues(changed((t) => (t.columns.shiftPastRight = 'die-modifier')))).toEqual([{ path: 'aaTable.columns.shiftPastRight', message: expect.stringMatching(/lost \(ruling\)/) }]);
    expect(issues(changed((t) => (t.dice = '1d6')))).toContainEqual({ path: 'aaTable.dice', message: 'rule 37L rolls two dice: dice is "2d6"' });
    expect(issues(changed((t) => (t.columns.labels = ['0', '0.5', ...t.columns.labels.slice(2)])))).toEqual([
      { path: 'aaTable.columns.labels.0', message: expect.stringMatching(/first column .* is "-1"/) },
      { path: 'aaTable.columns.labels.1', message: expect.stringMatching(/second column .* is "0"/) },
    ]);
    expect(issues(changed((t) => (t.results[0].code = 'X')))).toContainEqual({ path: 'aaTable.results.0.code', message: 'an AA fire result is "-" (no effect) or a whole number of defence factors affected, not "X"' });
    // The codes rule 37L reads are published in the JSON Schema too: a code it does not read is refused as such, and as no code of results.
    expect(issues(changed((t) => (t.cells[0][0] = 'nope')))).toEqual([
      { path: 'aaTable.cells.0.0', message: expect.stringMatching(/^an AA fire result is "-" \(no effect\), a whole number/) },
      { path: 'aaTable.cells.0.0', message: expect.stringMatching(/"nope" is not a code of results/) },
    ]);
    const published = JSON.stringify(rulesetEntry(europaRuleset).options);
    expect(published).toContain('"pattern":"^(?:-|\\\\d{1,4}|unknown)$"');
    expect(issues(changed((t) => (t.columns.kind = 'differential'))).map((i) => i.path)).toContain('aaTable.columns.kind');
  });

  it('is recorded by its hash: the text line of a fire ends with its short hash', () => {
    const { events } = apply(given([], withTestTable), ['axis', 'AAFire', p47Fire(), [4, 4, 1, 1, 1]]);
    const line = europaRuleset.summarize({ type: 'AAFire', payload: p47Fire() }, events);
    expect(line).toBe(
      `"GS on 2708" over "2708": AA 11 -> 10, shifts +2 -> column 17, 2d6 4+4 -> 19 vs DF 24: "P-47 1" returns, "P-47 2" aborts, "P-47 3" returns, "P-47 4" unaffected [${shortTableHash(tableHash(TEST_AA_TABLE))}]`,
    );
  });
});
