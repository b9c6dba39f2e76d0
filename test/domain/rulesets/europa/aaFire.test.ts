import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { europaRuleset } from '../../../../domain/rulesets/europa';
import { aircraftShift, resolveAAFire, type AAFireInput } from '../../../../domain/rulesets/europa/aaFire';
import { aaStrength } from '../../../../domain/rulesets/europa/aaStrength';
import { fighterDf, modifiedDf, type AirUnit } from '../../../../domain/rulesets/europa/allocation';
import type { RulesVersion } from '../../../../domain/rulesets/europa/rulesVersion';
import { apply, given, p47Fire, refused, TEST_AA_TABLE, testCell, withTestTable } from './harness';
import { refusal } from '../../../support/rulesetHarness';

const options = europaRuleset.options.parse(withTestTable);
/** One fire, on the rules of version 1 unless told. */
const fire = (input: Record<string, unknown>, dice: number[], otherEuropaGames = false, rulesVersion: RulesVersion = 1) => {
  const given = new GivenDice(dice);
  const outcome = resolveAAFire(europaRuleset.procedures.aaFire.input.parse(input) as AAFireInput, TEST_AA_TABLE, otherEuropaGames, given, rulesVersion);
  return { ...outcome, drawn: given.drawn.map((d) => d.value) };
};
const unit = (unitId: string, type: AirUnit['type'], df: number, mission: AirUnit['mission'], extra: Partial<AirUnit> = {}) => ({ unitId, type, df, mission, ...extra });
const bombers = (n: number, extra: Record<string, unknown> = {}) => Array.from({ length: n }, (_, i) => ({ unitId: `He111 ${i + 1}`, type: 'B', df: 4, ...extra }));

describe("AA strength (37L1): the seed's examples", () => {
  it('DAS: 4 + 0 + 2 AA in three adjacent hexes is 6 / 3 = 2', () => {
    const s = aaStrength({ mission: 'das', hex: 'T', aa: [{ unitId: 'a', aa: 4, hex: 'A' }, { unitId: 'b', aa: 0, hex: 'B' }, { unitId: 'c', aa: 2, hex: 'C' }] }, 1, false);
    expect(s).toMatchObject({ total: 6, hexCount: 3, strength: 2, text: '6 / 3 = 2' });
  });

  it('harassment: 4 in the target hex, 7, 3 and 6 in adjacent land hexes is 20 / 4 = 5', () => {
    const aa = [
      { unitId: 't', aa: 4 },
      { unitId: 'x', aa: 7, hex: 'X' },
      { unitId: 'y', aa: 3, hex: 'Y' },
      { unitId: 'z', aa: 6, hex: 'Z' },
    ];
    expect(aaStrength({ mission: 'harassment', hex: 'T', aa }, 1, false)).toMatchObject({ total: 20, hexCount: 4, strength: 5 });
  });

  it('DAS leaves out hexes across prohibited terrain; harassment leaves out sea hexes and adjacent hexes without AA, never the target', () => {
    const das = aaStrength({ mission: 'das', hex: 'T', aa: [{ unitId: 'a', aa: 4, hex: 'A' }, { unitId: 'b', aa: 5, hex: 'B' }], prohibitedHexes: ['B'] }, 1, false);
    expect(das).toMatchObject({ total: 4, hexCount: 1, strength: 4 });
    expect(das.hexes).toContainEqual({ hex: 'B', aa: 5, counted: false, reason: 'across prohibited terrain' });
    const harassment = aaStrength(
      { mission: 'harassment', hex: 'T', aa: [{ unitId: 'inf', aa: 0 }, { unitId: 'x', aa: 6, hex: 'X' }, { unitId: 'y', aa: 0, hex: 'Y' }, { unitId: 's', aa: 9, hex: 'S' }], seaHexes: ['S'] },
      1,
      false,
    );
    expect(harassment).toMatchObject({ total: 6, hexCount: 2, strength: 3 });
  });

  it('is never rounded: 20 over 3 hexes is 6.67, which lands on the 5 column, not 7', () => {
    const aa = [7, 7, 6].map((n, i) => ({ unitId: `u${i}`, aa: n, hex: `h${i}` }));
    const outcome = fire({ mission: 'das', date: 'Jun I 43', nationality: 'other', aa, airUnits: bombers(4) }, [1, 1, 1, 1, 1]);
    expect(outcome.strength).toMatchObject({ total: 20, hexCount: 3, text: '20 / 3 ≈ 6.67, not rounded' });
    expect(outcome.resolution.landing.landedColumn.label).toBe('5');
  });

  it('over a hex: the non-naval AA in it; at sea up to N naval units; in port those plus the non-naval AA', () => {
    const aa = [{ unitId: 'flak', aa: 3 }, { unitId: 'cruiser', aa: 4, naval: true }, { unitId: 'destroyer', aa: 2, naval: true }];
    expect(aaStrength({ mission: 'bombing', aa }, 1, false)).toMatchObject({ strength: 3 });
    expect(aaStrength({ mission: 'naval-in-port', aa }, 2, false)).toMatchObject({ strength: 9 });
    expect(aaStrength({ mission: 'naval-at-sea', aa: aa.slice(1) }, 2, false)).toMatchObject({ strength: 6 });
  });
});

describe("the seed's P-47 example (Jun II 44, 4 × P-47D25 8F9 on GS, 11 German AA)", () => {
  it('lands on 10, shifts +1 (1944), +1 (German, 7 or more), +0 (4 air units) to 17; 8 gives 19 < 24: returned, aborted, returned, the 4th unaffected', () => {
    const state = given([], withTestTable);
    const { events } = apply(state, ['axis', 'AAFire', p47Fire(), [3, 5, 1, 1, 1]]);
    const d = events[0].data as any;
    expect(d.resolution.landing).toMatchObject({ landedColumn: { label: '10' }, shifts: { total: 2 }, column: { label: '17' } });
    expect(d.shifts).toEqual([
      { source: '1944–45', value: 1 },
      { source: 'German AA of 7 or more', value: 1 },
      { source: 'against 4 air units', value: 0 },
    ]);
    expect(d.force.map((u: { df: number }) => u.df)).toEqual([6, 6, 6, 6]);
    expect(d).toMatchObject({ result: 19, allocation: { forceDf: 24, atLeastForce: false, affectedDf: 18, unaffected: ['P-47 4'] } });
    expect(d.allocation.selections).toEqual([
      { order: 1, unitId: 'P-47 1', die: { sides: 4, value: 1 }, df: 6, before: 19, after: 13, outcome: 'returned', effect: 'returns' },
      { order: 2, unitId: 'P-47 2', die: { sides: 3, value: 1 }, df: 6, before: 13, after: 7, outcome: 'aborted', effect: 'aborts' },
      { order: 3, unitId: 'P-47 3', die: { sides: 2, value: 1 }, df: 6, before: 7, after: 1, outcome: 'returned', effect: 'returns' },
    ]);
  });

  it('selects at random by the dice: d4 = 4, d3 = 2, d2 = 2 pick the 4th, the 2nd and the 3rd; the 1st is unaffected', () => {
    const { allocation } = fire(p47Fire(), [4, 4, 4, 2, 2]);
    expect(allocation.selections.map((s) => [s.unitId, s.outcome])).toEqual([
      ['P-47 4', 'returned'],
      ['P-47 2', 'aborted'],
      ['P-47 3', 'returned'],
    ]);
    expect(allocation.unaffected).toEqual(['P-47 1']);
  });

  it('flown as dedicated missions: the 1st and 3rd abort and the 2nd is eliminated, after the mission', () => {
    const airUnits = ['1', '2', '3', '4'].map((n) => ({ unitId: `P-47 ${n}`, type: 'F', df: 9, dedicated: true }));
    const { allocation } = fire(p47Fire({ airUnits }), [4, 4, 1, 1, 1]);
    expect(allocation.selections.map((s) => s.effect)).toEqual(['aborts after the mission', 'eliminated after the mission', 'aborts after the mission']);
  });

  it('on the bundled example table, the same fire reaches column 17 and is refused before any die: 8 is the only roll the example knows', () => {
    const state = given([]);
    expect(() => apply(state, ['axis', 'AAFire', p47Fire(), [4, 4, 1, 1, 1]])).toThrow(/column 17 for rolls of 2, 3, 4, 5, 6, 7, 9, 10, 11, 12: it is an example/);
    refused(state, ['axis', 'AAFire', p47Fire(), []], /Nothing was rolled: create the game with the published AA fire table/);
  });
});

describe('results and losses (37L4)', () => {
  it("a result at least the force's combined DF: odd selections abort, even ones return, every unit affected", () => {
    // Two He111 (DF 4 each) bombing: 3 AA, +1 for 1944, -2 for 2 air units, is column 2 (index 3); 12 there gives 16 ≥ 8.
    const { result, allocation } = fire({ mission: 'bombing', date: 'Jun I 44', nationality: 'german', aa: [{ unitId: 'f', aa: 3 }], airUnits: bombers(2) }, [6, 6, 2]);
    expect(result).toBe(Number(testCell(12, 3)));
    expect(allocation).toMatchObject({ atLeastForce: true, unaffected: [], affectedDf: 8 });
    expect(allocation.selections.map((s) => [s.unitId, s.outcome, s.die])).toEqual([
      ['He111 2', 'aborted', { sides: 2, value: 2 }],
      ['He111 1', 'returned', null],
    ]);
  });

  it("a result exactly equal to the force's combined DF counts as at least it", () => {
    const airUnits = [{ unitId: 'Me109', type: 'F', df: 9, mission: 'bombing' }, { unitId: 'Do17', type: 'B', df: 3 }];
    const { result, allocation } = fire({ mission: 'bombing', date: 'Jun I 43', nationality: 'other', aa: [{ unitId: 'f', aa: 3 }], airUnits }, [3, 3, 1]);
    expect([result, allocation.forceDf, allocation.atLeastForce]).toEqual([9, 9, true]);
    expect(allocation.selections.map((s) => [s.unitId, s.outcome])).toEqual([['Me109', 'aborted'], ['Do17', 'returned']]);
  });

  it("'-' has no effect and rolls no selection die", () => {
    const outcome = fire({ mission: 'bombing', date: 'Jun I 43', nationality: 'other', aa: [{ unitId: 'f', aa: 1 }], airUnits: bombers(4) }, [1, 1, 6, 6]);
    expect(outcome).toMatchObject({ result: null, allocation: { selections: [], unaffected: ['He111 1', 'He111 2', 'He111 3', 'He111 4'], affectedDf: 0 } });
    expect(outcome.drawn).toEqual([1, 1]);
  });

  it('the first selected unit whose DF exceeds what remains is unaffected and ends the allocation (ruling)', () => {
    // A fighter (DF 9 → 6) and a bomber (DF 4 on bombing), 10 in all, against 3 AA: column 3, -2 for 2 air units, column 1 (index 2).
    const airUnits = [{ unitId: 'Me109', type: 'F', df: 9, mission: 'bombing' }, { unitId: 'He111', type: 'B', df: 4 }];
    const outcome = fire({ mission: 'bombing', date: 'Jun I 43', nationality: 'other', aa: [{ unitId: 'f', aa: 3 }], airUnits }, [3, 3, 1]);
    // 6 gives 9 < 10: the Me109 is selected first and returns (9 → 3); the He111 (4 > 3) can't be affected: no die.
    expect(outcome.resolution.landing.column.label).toBe('1');
    expect(outcome.result).toBe(Number(testCell(6, 2)));
    expect(outcome.allocation.selections[0]).toMatchObject({ unitId: 'Me109', outcome: 'returned', before: 9, after: 3 });
    expect(outcome.allocation.selections).toHaveLength(1);
    expect(outcome.allocation.unaffected).toEqual(['He111']);
    const other = fire({ mission: 'bombing', date: 'Jun I 43', nationality: 'other', aa: [{ unitId: 'f', aa: 3 }], airUnits }, [3, 2, 2]);
    // 5 gives 8: the He111 first (returned, 8 → 4); the Me109 (6 > 4) can't be affected: no die, unaffected.
    expect(other.result).toBe(8);
    expect(other.allocation.selections.map((s) => [s.unitId, s.outcome])).toEqual([['He111', 'returned']]);
    expect(other.drawn).toEqual([3, 2, 2]);
  });
});

describe('DF modifiers (37L3)', () => {
  it('fighters: printed 1–4 as is, 5–6 as 4, 7–8 as 5, 9 or more as 6', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12].map(fighterDf)).toEqual([1, 2, 3, 4, 4, 4, 5, 5, 6, 6, 6]);
    expect(modifiedDf(unit('P-47', 'F', 9, 'ground-support')).df).toBe(6);
    expect(modifiedDf(unit('Bf110', 'HF', 7, 'bombing')).df).toBe(5);
  });

  it("the seed's Ju88A (4B5) on ground support has DF 4; the He111H (4B4) bombing the rail line keeps 4", () => {
    expect(modifiedDf(unit('Ju88A', 'B', 5, 'ground-support'))).toMatchObject({ df: 4, steps: ['-1 for B, SB, HT and T on DAS, GS, harassment or airdrop'] });
    expect(modifiedDf(unit('He111H', 'B', 4, 'bombing'))).toMatchObject({ df: 4, steps: [] });
  });

  it('-2 HB and SHB on harassment; -1 B, SB, HT, T on DAS, GS, harassment, airdrop; -1 code T and B, SB, LB, HT, T bombing naval units; 0 otherwise', () => {
    const df = (type: AirUnit['type'], mission: AirUnit['mission'], codeT = false) => modifiedDf(unit('x', type, 5, mission, { codeT })).df;
    expect([df('HB', 'harassment'), df('SHB', 'harassment'), df('HB', 'bombing'), df('SHB', 'ground-support'), df('HB', 'naval')]).toEqual([3, 3, 5, 5, 5]);
    for (const type of ['B', 'SB', 'HT', 'T'] as const) expect(['das', 'ground-support', 'harassment', 'airdrop', 'bombing', 'air-transport'].map((m) => df(type, m as AirUnit['mission']))).toEqual([4, 4, 4, 4, 5, 5]);
    for (const type of ['B', 'SB', 'LB', 'HT', 'T'] as const) expect(df(type, 'naval')).toBe(4);
    expect([df('LB', 'ground-support'), df('A', 'naval', true), df('D', 'naval'), df('A', 'ground-support')]).toEqual([5, 4, 5, 5]);
    expect(df('B', 'naval', true)).toBe(4);
  });

  it('a DF never goes below 0 (ruling)', () => {
    expect(modifiedDf(unit('Ju52', 'T', 0, 'airdrop'))).toMatchObject({ df: 0, steps: ['-1 for B, SB, HT and T on DAS, GS, harassment or airdrop', '-1 counts as 0'] });
  });

  it('HB on a mission the table does not otherwise modify: only heavy AA fires, the light AA is listed as not firing', () => {
    const aa = [{ unitId: 'heavy', aa: 4 }, { unitId: 'light', aa: 3, light: true }];
    const hb = fire({ mission: 'bombing', date: 'Jun I 44', nationality: 'german', aa, airUnits: [{ unitId: 'B-17', type: 'HB', df: 6 }] }, [1, 1]);
    expect(hb.strength).toMatchObject({ total: 4, units: [{ unitId: 'heavy', fires: true }, { unitId: 'light', fires: false, reason: 'only heavy AA fires at HB flying this mission' }] });
    const harassing = fire({ mission: 'harassment', date: 'Jun I 44', nationality: 'german', aa, airUnits: [{ unitId: 'B-17', type: 'HB', df: 6 }] }, [1, 1]);
    expect(harassing.strength.total).toBe(7);
  });
});

describe('column shifts (cumulative)', () => {
  it('against 1 to 12 air units: -3, -2, -1, 0, 0, +1 (6 to 9), +2 (10 or more)', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(aircraftShift)).toEqual([-3, -2, -1, 0, 0, 1, 1, 1, 1, 2, 2, 2]);
  });

  it('night -3, 1944–45 +1, German or Allied +1 (claimed, 7 or more, after Dec II 42), all added', () => {
    const outcome = fire(p47Fire({ night: true, date: 'Jan I 45', nationality: 'allied', airUnits: bombers(10) }), [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(outcome.shifts).toEqual([
      { source: 'night', value: -3 },
      { source: '1944–45', value: 1 },
      { source: 'Allied AA of 7 or more', value: 1 },
      { source: 'against 10 air units', value: 2 },
    ]);
    expect(outcome.resolution.landing).toMatchObject({ landedColumn: { label: '10' }, shifts: { total: 1 }, column: { label: '14' } });
    // Jan I 43 is the first turn after Dec II 42.
    expect(fire(p47Fire({ date: 'Jan I 43' }), [1, 1, 1, 1, 1]).shifts.map((s) => s.value)).toEqual([1, 0]);
  });

  it('the other Europa games, as an option: -1 in 1939–40 and -1 for Soviet or minor-power AA', () => {
    const soviet = { ...p47Fire({ date: 'Jun I 40', nationality: 'soviet', germanOrAlliedShift: false }) };
    expect(fire(soviet, [1, 1, 1, 1, 1]).shifts.map((s) => s.value)).toEqual([0]);
    expect(fire(soviet, [1, 1, 1, 1, 1], true).shifts).toEqual([
      { source: 'against 4 air units', value: 0 },
      { source: '1939–40 (other Europa games)', value: -1 },
      { source: 'Soviet AA (other Europa games)', value: -1 },
    ]);
    expect(fire({ ...soviet, nationality: 'minor', date: 'Jun I 41' }, [1, 1, 1, 1, 1], true).shifts.map((s) => s.source)).toEqual(['against 4 air units', 'minor power AA (other Europa games)']);
  });

  it('shifts past the left end become minus die modifiers on the -1 column; past the right end they are lost (ruling)', () => {
    // 1 AA (column 1, index 2) at night against one air unit: -6, four columns past -1: -4 on the roll.
    const left = fire({ mission: 'bombing', date: 'Jun I 43', night: true, nationality: 'other', aa: [{ unitId: 'f', aa: 1 }], airUnits: bombers(1) }, [6, 6]);
    expect(left.resolution.landing).toMatchObject({ column: { label: '-1' }, dieModifier: -4, lostShift: 0 });
    expect(left.resolution.roll).toMatchObject({ natural: 12, modified: 8, modifiers: [{ source: 'shift past the end of the table', value: -4 }] });
    const right = fire(p47Fire({ aa: [{ unitId: 'f', aa: 20 }], airUnits: bombers(10) }), [6, 6, ...Array(10).fill(1)]);
    expect(right.resolution.landing).toMatchObject({ landedColumn: { label: '20' }, column: { label: '20' }, dieModifier: 0, lostShift: 4 });
    expect(right.resolution.roll!.modified).toBe(12);
  });

  it("the seed's 16 German AA in 1943 resolves on the 14 column against 3 air units (the only count that gives 14)", () => {
    expect(fire(p47Fire({ date: 'Jul I 43', aa: [{ unitId: 'f', aa: 16 }], airUnits: bombers(3) }), [1, 1, 1, 1]).resolution.landing.column.label).toBe('14');
  });
});

describe('refusals: 422 with the rule, before any die', () => {
  const cases: [string, Record<string, unknown>, RegExp, string][] = [
    ['cargo firing', p47Fire({ aa: [{ unitId: 'Flak', aa: 11 }, { unitId: 'carried', aa: 2, cargo: true }] }), /"carried" is transported cargo, which never fires AA/, 'europa 37L1: transported cargo never fires AA'],
    ['the German shift in Dec II 42', p47Fire({ date: 'Dec II 42' }), /only after Dec II 42, and this fire is in Dec II 42/, 'europa 37L column shifts: +1 for German or Allied AA, only with an AA strength of 7 or more, only after Dec II 42'],
    ['the German shift in 1941', p47Fire({ date: 'Jun I 41' }), /only after Dec II 42/, 'europa 37L column shifts: +1 for German or Allied AA, only with an AA strength of 7 or more, only after Dec II 42'],
    ['the shift for AA below 7', p47Fire({ aa: [{ unitId: 'Flak', aa: 6 }] }), /needs an AA strength of 7 or more; it is 6/, 'europa 37L column shifts: +1 for German or Allied AA, only with an AA strength of 7 or more, only after Dec II 42'],
    ['the shift for Soviet AA', p47Fire({ nationality: 'soviet' }), /German or Allied AA only; this AA is soviet/, 'europa 37L column shifts: +1 for German or Allied AA, only with an AA strength of 7 or more, only after Dec II 42'],
    ['more naval units than air units at sea', { ...p47Fire({ mission: 'naval-at-sea', airUnits: bombers(1) }), aa: [{ unitId: 'n1', aa: 3, naval: true }, { unitId: 'n2', aa: 3, naval: true }] }, /At most 1 naval unit may fire at 1 attacking air unit; 2 are listed/, 'europa 37L1: naval units fire only at air units bombing naval units, at most one per attacking air unit'],
    ['a land unit at sea', p47Fire({ mission: 'naval-at-sea', airUnits: bombers(1) }), /"Flak" is not a naval unit: at sea, only naval units fire AA/, 'europa 37L1: naval units fire only at air units bombing naval units, at most one per attacking air unit'],
    ['AA in another hex over a hex', p47Fire({ aa: [{ unitId: 'Flak', aa: 11, hex: '2709' }] }), /"Flak" is in hex "2709": only AA in the target hex fires/, 'europa 37L1: which AA fires at which mission'],
    ['AA in the target hex against DAS', p47Fire({ mission: 'das', germanOrAlliedShift: false }), /"Flak" needs its hex/, 'europa 37L1: which AA fires at which mission'],
    ['escorts only', p47Fire({ airUnits: [{ unitId: 'P-51', type: 'F', df: 9, mission: 'escort' }] }), /never at its escorts/, 'europa 37L1: escorts are never fired at'],
    ['a DAS unit in a GS fire', p47Fire({ airUnits: [{ unitId: 'Ju87', type: 'D', df: 3, mission: 'das' }] }), /"Ju87" flies das, which this fire \(ground-support\) does not fire at/, 'europa 37L1: which AA fires at which mission'],
    ['no AA', p47Fire({ germanOrAlliedShift: false, aa: [{ unitId: 'inf', aa: 0 }] }), /No AA strength can fire here/, 'europa 37L2: only units with AA capability fire'],
    ['a strength landing on the 0 column', { ...p47Fire({ mission: 'das', germanOrAlliedShift: false }), aa: [{ unitId: 'a', aa: 1, hex: 'A' }, { unitId: 'b', aa: 0, hex: 'B' }] }, /An AA strength of 0.5 lands on the '0' column .* reached only by column shifts: this AA cannot fire\.$/, 'europa 37L2: only column shifts reach the -1 and 0 columns'],
    ['a unit listed twice', p47Fire({ airUnits: [{ unitId: 'x', type: 'F', df: 9 }, { unitId: 'x', type: 'F', df: 9 }] }), /"x" is listed twice among the air units/, 'europa 37L: each unit is listed once'],
    ['prohibited hexes on a GS fire', p47Fire({ prohibitedHexes: ['2709'] }), /matter only to DAS/, 'europa 37L1: which AA fires at which mission'],
  ];
  for (const [what, input, message, rule] of cases) {
    it(what, () => {
      const dice = new GivenDice([1, 1, 1, 1, 1]);
      expect(refusal(() => resolveAAFire(europaRuleset.procedures.aaFire.input.parse(input) as AAFireInput, TEST_AA_TABLE, false, dice, 1))).toEqual({ message: expect.stringMatching(message), rule });
      expect(dice.drawn).toEqual([]);
    });
  }

  it('in a game, as the harness sends them', () => {
    refused(given([], withTestTable), ['allied', 'AAFire', p47Fire({ aa: [{ unitId: 'ship', aa: 2, cargo: true }] })], /transported cargo, which never fires AA/);
    refused(given([], withTestTable), ['allied', 'AAFire', p47Fire({ date: 'Nov I 42' })], /only after Dec II 42/);
  });
});

describe('the aaFire procedure', () => {
  const evaluate = (input: unknown, dice: number[], opts = options) => {
    const spec = europaRuleset.procedures.aaFire;
    const given = new GivenDice(dice);
    return { ...(spec.evaluate(spec.input.parse(input), opts, given) as { result: any; breakdown: any }), drawn: given.drawn };
  };

  it("resolves on the table given with the input, else on the options' table; names every unit's effect", () => {
    const { fireId: _f, hex: _h, ...anonymous } = p47Fire();
    expect(evaluate({ ...anonymous, table: TEST_AA_TABLE }, [4, 4, 1, 1, 1], europaRuleset.options.parse({})).result).toEqual({
      column: '17',
      roll: 8,
      result: 19,
      units: [
        { unitId: 'P-47 1', effect: 'returns' },
        { unitId: 'P-47 2', effect: 'aborts' },
        { unitId: 'P-47 3', effect: 'returns' },
        { unitId: 'P-47 4', effect: 'unaffected' },
      ],
    });
    expect(evaluate(anonymous, [2, 6, 1, 1, 1]).result).toMatchObject({ column: '17', roll: 8, result: 19 });
  });

  it('on the example (the default options), refuses what it does not know, with no die drawn', () => {
    const spec = europaRuleset.procedures.aaFire;
    const dice = new GivenDice([4, 4]);
    expect(() => spec.evaluate(spec.input.parse(p47Fire()), europaRuleset.options.parse({}), dice)).toThrow(/does not give the result of column 17/);
    expect(dice.drawn).toEqual([]);
  });
});
