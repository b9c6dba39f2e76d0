import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { RuleViolation } from '../../../../domain/errors';
import { europaRuleset } from '../../../../domain/rulesets/europa';
import { fortificationEffects } from '../../../../domain/rulesets/europa/fortificationChart';
import type { Step } from '../../../support/rulesetHarness';
import { apply, given, p47Fire, refused, withTestTable } from './harness';

/** Issue 31's fixes, each gated on rules version 3, each beside what a version 1 or 2 game still does. */

const v3 = { ...withTestTable, rulesVersion: 3 };
const v2 = { ...withTestTable, rulesVersion: 2 };
/** The seed's P-47 example as the seed gives it: nationality, date and strength, no claim of the +1. */
const { germanOrAlliedShift: _claim, ...unclaimedP47 } = p47Fire();
const evaluateAA = (input: unknown, dice: number[], options: Record<string, unknown> = {}) => {
  const spec = europaRuleset.procedures.aaFire;
  return spec.evaluate(spec.input.parse(input), europaRuleset.options.parse({ ...withTestTable, ...options }), new GivenDice(dice)) as { result: any; breakdown: any };
};

describe('the +1 for German or Allied AA is applied, not claimed (37L column shifts, rules version 3)', () => {
  it("the seed's P-47 example lands on column 17 without germanOrAlliedShift: 10, +1 for 1944, +1 for German AA of 7 or more, +0 for 4 air units; 8 gives 19", () => {
    const { events } = apply(given([], v3), ['axis', 'AAFire', unclaimedP47, [4, 4, 1, 1, 1]]);
    const d = events[0].data as any;
    expect(d.resolution.landing).toMatchObject({ landedColumn: { label: '10' }, column: { label: '17' } });
    expect(d.shifts).toEqual([
      { source: '1944–45', value: 1 },
      { source: 'German AA of 7 or more', value: 1 },
      { source: 'against 4 air units', value: 0 },
    ]);
    expect(d.allocation.selections.map((s: { outcome: string }) => s.outcome)).toEqual(['returned', 'aborted', 'returned']);
    expect(d.allocation.unaffected).toEqual(['P-47 4']);
  });

  it('the aaFire calculator plays version 3 unless told: column 17 without the claim, column 14 when asked for version 2', () => {
    expect(evaluateAA(unclaimedP47, [4, 4, 1, 1, 1]).result).toMatchObject({ column: '17', roll: 8, result: 19 });
    expect(evaluateAA(unclaimedP47, [4, 4, 1, 1, 1], { rulesVersion: 2 }).result).toMatchObject({ column: '14' });
  });

  it('Allied AA of 7 or more after Dec II 42 gets it too; German AA below 7, in Dec II 42 or Soviet AA does not', () => {
    const shifts = (extra: Record<string, unknown>) => (apply(given([], v3), ['axis', 'AAFire', { ...unclaimedP47, ...extra }, [1, 1, 1, 1, 1]]).events[0].data as any).shifts.map((s: { source: string }) => s.source);
    expect(shifts({ nationality: 'allied', date: 'Jan I 43' })).toEqual(['Allied AA of 7 or more', 'against 4 air units']);
    expect(shifts({ aa: [{ unitId: 'Flak', aa: 6 }] })).toEqual(['1944–45', 'against 4 air units']);
    expect(shifts({ date: 'Dec II 42' })).toEqual(['against 4 air units']);
    expect(shifts({ nationality: 'soviet' })).toEqual(['1944–45', 'against 4 air units']);
  });

  it('the flag stays as a cross-check: a claim or a denial that contradicts nationality, date and strength is refused (422), before any die', () => {
    const state = given([], v3);
    refused(state, ['axis', 'AAFire', p47Fire({ germanOrAlliedShift: false })], /^This fire gets the \+1 for German or Allied AA \(german AA of 11 in Jun II 44\), so germanOrAlliedShift false contradicts it/);
    refused(state, ['axis', 'AAFire', p47Fire({ aa: [{ unitId: 'Flak', aa: 6 }] })], /needs an AA strength of 7 or more; it is 6/);
    // A claim that agrees is accepted and changes nothing.
    expect((apply(state, ['axis', 'AAFire', p47Fire(), [4, 4, 1, 1, 1]]).events[0].data as any).resolution.landing.column.label).toBe('17');
  });

  it('a version 1 or 2 game still gets the +1 only when it is claimed', () => {
    for (const options of [withTestTable, v2]) {
      const { events } = apply(given([], options), ['axis', 'AAFire', unclaimedP47, [4, 4, 1, 1, 1]]);
      expect((events[0].data as any).resolution.landing.column.label).toBe('14');
      // A denial is taken as it was: no shift, no refusal.
      expect((apply(given([], options), ['axis', 'AAFire', p47Fire({ germanOrAlliedShift: false }), [4, 4, 1, 1, 1]]).events[0].data as any).shifts).toHaveLength(2);
    }
  });
});

describe('harassment fires on each harassing unit (37L1 harassment, rules version 3)', () => {
  // The seed's example: 4 AA in the target hex, 7, 3 and 6 in adjacent land hexes: 20 / 4 = 5 on each harassing unit.
  const harassment = {
    fireId: 'harassment of 2708',
    hex: '2708',
    mission: 'harassment',
    date: 'Jun I 43',
    nationality: 'other',
    aa: [{ unitId: 't', aa: 4 }, { unitId: 'x', aa: 7, hex: 'X' }, { unitId: 'y', aa: 3, hex: 'Y' }, { unitId: 'z', aa: 6, hex: 'Z' }],
    airUnits: [
      { unitId: 'Wellington 1', type: 'B', df: 4 },
      { unitId: 'Wellington 2', type: 'B', df: 4 },
      { unitId: 'Wellington 3', type: 'B', df: 4 },
      { unitId: 'Spitfire', type: 'F', df: 5, mission: 'escort' },
    ],
  };

  it('"5 points of AA to be fired on each of the harassing air units": one fire per unit, each against one air unit with its own 2d6 and allocation', () => {
    // Column 5, -3 against one air unit: column 2. 6 gives 10 (aborts the DF 3), 2 gives '-', 4 gives 8 (aborts).
    const { events, state } = apply(given([], v3), ['allied', 'AAFire', harassment, [3, 3, 1, 1, 2, 2]]);
    expect(events.map((e) => e.type)).toEqual(['AAFired', 'AAFired', 'AAFired']);
    const fires = events.map((e) => e.data as any);
    expect(fires.map((f) => f.target)).toEqual(['Wellington 1', 'Wellington 2', 'Wellington 3']);
    for (const f of fires) {
      expect(f).toMatchObject({ fireId: 'harassment of 2708', strength: { total: 20, hexCount: 4, strength: 5 }, escorts: ['Spitfire'] });
      expect(f.shifts).toEqual([{ source: 'against 1 air unit', value: -3 }]);
      expect(f.resolution.landing.column.label).toBe('2');
      expect(f.force).toHaveLength(1);
    }
    expect(fires.map((f) => [f.resolution.roll.natural, f.result])).toEqual([[6, 10], [2, null], [4, 8]]);
    expect(fires.map((f) => f.allocation.selections.map((s: { unitId: string; outcome: string }) => [s.unitId, s.outcome]))).toEqual([[['Wellington 1', 'aborted']], [], [['Wellington 3', 'aborted']]]);
    expect(europaRuleset.present(state)).toMatchObject({ fires: 3, lastFire: { fireId: 'harassment of 2708', result: 8, affected: 1 } });
    const line = europaRuleset.summarize({ type: 'AAFire', payload: harassment }, events);
    expect(line).toMatch(/^"harassment of 2708" on "Wellington 1" over "2708": AA 20 \/ 4 = 5 -> 5, shifts -3 -> column 2, 2d6 3\+3 -> 10 vs DF 3: "Wellington 1" aborts \[sha256:[0-9a-f]{12}\]; "harassment of 2708" on "Wellington 2"/);
    expect(line).not.toMatch(/[\n\r]/);
  });

  it('every fire is checked before the first die: a refusal of any draws nothing', () => {
    const dice = new GivenDice([3, 3, 1, 1, 2, 2]);
    const spec = europaRuleset.procedures.aaFire;
    // On the bundled example table, which knows no column 5.
    expect(() => spec.evaluate(spec.input.parse(harassment), europaRuleset.options.parse({}), dice)).toThrow(RuleViolation);
    expect(dice.drawn).toEqual([]);
  });

  it('the calculator answers one result per harassing unit', () => {
    expect(evaluateAA(harassment, [3, 3, 1, 1, 2, 2]).result).toEqual({
      fires: [
        { unitId: 'Wellington 1', column: '2', roll: 6, result: 10, units: [{ unitId: 'Wellington 1', effect: 'aborts' }] },
        { unitId: 'Wellington 2', column: '2', roll: 2, result: null, units: [{ unitId: 'Wellington 2', effect: 'unaffected' }] },
        { unitId: 'Wellington 3', column: '2', roll: 4, result: 8, units: [{ unitId: 'Wellington 3', effect: 'aborts' }] },
      ],
    });
  });

  it('a single harassing unit is one fire, as before; a version 1 or 2 game fires once at the whole force', () => {
    const one = apply(given([], v3), ['allied', 'AAFire', { ...harassment, airUnits: harassment.airUnits.slice(0, 1) }, [3, 3]]).events;
    expect(one).toHaveLength(1);
    expect(one[0].data).not.toHaveProperty('target');
    for (const options of [withTestTable, v2]) {
      const { events } = apply(given([], options), ['allied', 'AAFire', harassment, [3, 3, 1, 1]]);
      expect(events).toHaveLength(1);
      expect((events[0].data as any).shifts).toEqual([{ source: 'against 3 air units', value: -1 }]);
    }
  });
});

describe('combined fortifications (30A4 chart note, rules version 3)', () => {
  const attack = { into: 'fortress-improved' as const, across: 'improved' as const, attackers: [{ unitId: 'a', strength: 9 }, { unitId: 'b', strength: 9, acrossFortifiedHexside: false }, { unitId: 'e', strength: 6, kind: 'engineer' as const }] };

  it('"the combined effects of both": through an improved fortified hexside into an improved fortress, the attacker is halved by both', () => {
    const out = fortificationEffects(attack, 3);
    expect(out.attackers.map((a) => [a.unitId, a.halvedBy, a.counted])).toEqual([
      ['a', ['fortress-improved', 'fortified-hexside-improved'], 2.25],
      ['b', ['fortress-improved'], 4.5],
      ['e', [], 6],
    ]);
    expect(out).toMatchObject({ drm: -1, noAec: true, attack: 12.75 });
  });

  it('the calculator plays version 3 unless told; told version 1, it halves once', () => {
    const spec = europaRuleset.procedures.fortificationEffects;
    const evaluate = (options: Record<string, unknown>) => spec.evaluate(spec.input.parse(attack), europaRuleset.options.parse(options), new GivenDice([])).result as { attack: number };
    expect(evaluate({}).attack).toBe(12.75);
    expect(evaluate({ rulesVersion: 1 }).attack).toBe(15);
  });
});

describe('the supply and weather rules of the page, where the attack evaluation touches them (rules version 3)', () => {
  it('"units in their first turn out of supply do not have their attack factors halved unless they are isolated as well"', () => {
    const out = fortificationEffects(
      {
        attackers: [
          { unitId: 'in supply', strength: 8 },
          { unitId: 'first turn', strength: 8, outOfSupplyTurns: 1 },
          { unitId: 'first turn, isolated', strength: 8, outOfSupplyTurns: 1, isolated: true },
          { unitId: 'second turn', strength: 8, outOfSupplyTurns: 2 },
        ],
      },
      3,
    );
    expect(out.attackers.map((a) => [a.unitId, a.counted, a.halvedBy])).toEqual([
      ['in supply', 8, []],
      ['first turn', 8, []],
      ['first turn, isolated', 4, ['out of supply']],
      ['second turn', 4, ['out of supply']],
    ]);
    // Into an improved fortress as well: halved twice.
    expect(fortificationEffects({ into: 'fortress-improved', attackers: [{ strength: 8, outOfSupplyTurns: 3 }] }, 3).attack).toBe(2);
  });

  it('"armor effects (but not antitank effects) will be reduced in winter and snow weather": shown where AEC is not denied anyway', () => {
    expect([fortificationEffects({ weather: 'winter' }, 3).armorEffectsReduced, fortificationEffects({ weather: 'snow' }, 3).armorEffectsReduced]).toEqual([true, true]);
    expect([fortificationEffects({ weather: 'mud' }, 3).armorEffectsReduced, fortificationEffects({ weather: 'winter', into: 'fort' }, 3).armorEffectsReduced]).toEqual([false, false]);
  });

  it('version 1 and 2 evaluations refuse the supply fields rather than ignore them, and say nothing of armor', () => {
    expect(() => fortificationEffects({ attackers: [{ strength: 8, outOfSupplyTurns: 2 }] }, 2)).toThrow(/from rules version 3/);
    expect(fortificationEffects({ weather: 'winter' }, 1)).not.toHaveProperty('armorEffectsReduced');
  });
});

const fort = (actor: string, payload: Record<string, unknown>): Step => [actor, 'FortificationEvent', payload];
const turn = (n: number) => fort('organizer', { action: 'turn', turn: n });
const brigade = { unitId: '1 Constr Bde', construction: true, defense: 2 };
const siteView = (state: ReturnType<typeof given>, id: string) => (europaRuleset.present(state) as { sites: Record<string, unknown>[] }).sites.find((s) => s.site === id);

describe('construction: forts take two turns to build, one with quick construction (Construction, rules version 3)', () => {
  it('a fort placed during play is under construction, not in effect, until the turn two turns on begins', () => {
    let state = given([turn(1)], v3);
    const begun = apply(state, fort('allied', { action: 'place', site: '0912', kind: 'fort', owner: 'allied' }));
    expect(begun.events).toEqual([{ type: 'FortConstructionBegun', data: { site: '0912', owner: 'allied', turn: 1, turns: 2, completesOnTurn: 3, quickConstruction: false } }]);
    expect(siteView(begun.state, '0912')).toMatchObject({ condition: 'under-construction', chartRow: null, construction: { begunOnTurn: 1, completesOnTurn: 3 } });
    state = apply(begun.state, turn(2)).state;
    expect(siteView(state, '0912')).toMatchObject({ condition: 'under-construction', chartRow: null });
    const done = apply(state, turn(3));
    expect(done.events).toEqual([{ type: 'TurnBegan', data: { turn: 3 } }, { type: 'FortsCompleted', data: { turn: 3, forts: 1 } }]);
    expect(siteView(done.state, '0912')).toEqual({ site: '0912', kind: 'fort', owner: 'allied', condition: 'intact', chartRow: 'fort', improvement: null });
    expect(europaRuleset.summarize({ type: 'FortificationEvent', payload: {} }, done.events)).toBe('turn 3; forts built (1)');
  });

  it('quick construction by a construction brigade with a defense strength of 2 or more builds it in one turn', () => {
    const state = given([turn(1)], v3);
    const quick = apply(state, fort('allied', { action: 'place', site: '0912', kind: 'fort', owner: 'allied', quickConstruction: true, builder: brigade }));
    expect(quick.events[0].data).toMatchObject({ turns: 1, completesOnTurn: 2, quickConstruction: true, builder: brigade });
    expect(europaRuleset.summarize({ type: 'FortificationEvent', payload: {} }, quick.events)).toBe('fort "0912" begun on turn 1 with quick construction by "1 Constr Bde" (allied), built on turn 2');
    expect(siteView(apply(quick.state, turn(2)).state, '0912')).toMatchObject({ condition: 'intact', chartRow: 'fort' });
  });

  it('quick construction by a lone builder other than a construction brigade of defense 2 or more is refused (422); declared without a builder, it stands', () => {
    const state = given([turn(1)], v3);
    const qc = (builder?: Record<string, unknown>) => fort('allied', { action: 'place', site: '0912', kind: 'fort', owner: 'allied', quickConstruction: true, ...(builder ? { builder } : {}) });
    expect(apply(state, qc()).events[0].data).toMatchObject({ turns: 1, quickConstruction: true });
    refused(state, qc({ unitId: '12 Eng', construction: false, defense: 3 }), /^"12 Eng" has no construction symbol/);
    refused(state, qc({ unitId: '5 Constr', construction: true, defense: 1 }), /^"5 Constr" has a defense strength of 1/);
    // The same for quick construction of the Westwall.
    const westwall = given([fort('organizer', { action: 'place', site: 'Trier', kind: 'westwall', owner: 'axis', level: 1 }), turn(1)], v3);
    expect(apply(westwall, fort('axis', { action: 'begin-improvement', site: 'Trier', quickConstruction: true })).events[0].data).toMatchObject({ turns: 2 });
    refused(westwall, fort('axis', { action: 'begin-improvement', site: 'Trier', quickConstruction: true, builder: { unitId: '5 Constr', construction: true, defense: 1 } }), /^"5 Constr" has a defense strength of 1/);
    expect(apply(westwall, fort('axis', { action: 'begin-improvement', site: 'Trier', quickConstruction: true, builder: brigade })).events[0].data).toMatchObject({ turns: 2 });
  });

  it('a fort under construction that the enemy gains is removed; forts placed before turn 1 are in effect from the start', () => {
    const state = given([fort('organizer', { action: 'place', site: 'A', kind: 'fort', owner: 'axis' }), turn(1), fort('axis', { action: 'place', site: 'B', kind: 'fort', owner: 'axis' })], v3);
    expect(siteView(state, 'A')).toMatchObject({ condition: 'intact', chartRow: 'fort' });
    expect(apply(state, fort('allied', { action: 'gain', site: 'B', side: 'allied' })).events.map((e) => e.type)).toEqual(['OwnershipChanged', 'FortificationRemoved']);
    refused(given([], v3), fort('organizer', { action: 'place', site: 'A', kind: 'fort', owner: 'axis', quickConstruction: true, builder: brigade }), /on the map from the start of play/);
  });

  it('a version 1 or 2 game: a fort placed during play is in effect at once, and quick construction is taken as declared', () => {
    for (const options of [withTestTable, v2]) {
      const state = given([turn(1)], options);
      const placed = apply(state, fort('allied', { action: 'place', site: '0912', kind: 'fort', owner: 'allied' }));
      expect(placed.events.map((e) => e.type)).toEqual(['FortificationPlaced']);
      expect(siteView(placed.state, '0912')).toMatchObject({ condition: 'intact', chartRow: 'fort' });
      refused(state, fort('allied', { action: 'place', site: '0912', kind: 'fort', owner: 'allied', quickConstruction: true, builder: brigade }), /from rules version 3/);
      const westwall = given([fort('organizer', { action: 'place', site: 'Trier', kind: 'westwall', owner: 'axis', level: 1 }), turn(1)], options);
      expect(apply(westwall, fort('axis', { action: 'begin-improvement', site: 'Trier', quickConstruction: true })).events[0].data).toMatchObject({ turns: 2 });
    }
  });
});
