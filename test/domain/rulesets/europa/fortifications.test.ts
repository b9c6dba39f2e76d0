import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { europaRuleset } from '../../../../domain/rulesets/europa';
import { FORTIFICATION_CHART, fortificationEffects } from '../../../../domain/rulesets/europa/fortificationChart';
import { chartRowOf } from '../../../../domain/rulesets/europa/state';
import type { Step } from '../../../support/rulesetHarness';
import { apply, given, refused } from './harness';

/** The seed's chart, line by line: DRM, no AEC, attacker halved, ground-support bombing halved, defender ignores retreat. */
const SEED_CHART: [row: string, drm: number, halved: string, gs: boolean, retreat: boolean][] = [
  ['fort', -1, 'none', false, false],
  ['fortified-area', -1, 'none', false, false],
  ['port-fortification', -1, 'except-engineers-artillery', true, false],
  ['fortified-hexside-unimproved', 0, 'none', false, false],
  ['fortified-hexside-improved', 0, 'except-engineers-artillery', false, false],
  ['fortress-unimproved', -1, 'none', false, false],
  ['fortress-improved', -1, 'except-engineers-artillery', true, false],
  ['westwall-unimproved', -1, 'none', false, false],
  ['westwall-1', -1, 'none', false, true],
  ['westwall-2', -2, 'none', false, true],
  ['westwall-3', -3, 'none', false, true],
  ['ouvrage', -1, 'all', true, true],
  ['ouvrage-destroyed', -1, 'none', false, false],
];

describe('the fortification effects chart (30A4), cell by cell', () => {
  it('has exactly the seed\'s lines, every one denying AEC', () => {
    expect(Object.keys(FORTIFICATION_CHART)).toEqual(SEED_CHART.map(([row]) => row));
    for (const [row, drm, attackerHalved, groundSupportHalved, defenderIgnoresRetreat] of SEED_CHART) {
      expect(FORTIFICATION_CHART[row as keyof typeof FORTIFICATION_CHART], row).toEqual({ drm, noAec: true, attackerHalved, groundSupportHalved, defenderIgnoresRetreat });
    }
  });

  it('as the fortificationEffects procedure reads each line: DRM, AEC, halving of infantry, engineers, artillery, ground support, retreat', () => {
    const attackers = [{ strength: 8 }, { strength: 6, kind: 'engineer' as const }, { strength: 4, kind: 'artillery' as const }];
    for (const [row, drm, halved, gs, retreat] of SEED_CHART) {
      const input = row.startsWith('fortified-hexside') ? { across: row.slice('fortified-hexside-'.length) as 'improved' } : { into: row as 'fort' };
      const out = fortificationEffects({ ...input, attackers, groundSupport: 10 }, 1);
      const expected = halved === 'all' ? [4, 3, 2] : halved === 'none' ? [8, 6, 4] : [4, 6, 4];
      expect([out.drm, out.noAec, out.attackers.map((a) => a.counted), out.groundSupport!.counted, out.defenderIgnoresRetreat], row).toEqual([drm, true, expected, gs ? 5 : 10, retreat]);
    }
  });

  it('rules versions 1 and 2: through a fortified hexside into another fortification, both apply (DRMs added, each halving once, the hexside\'s only for attackers across it)', () => {
    const out = fortificationEffects({
      into: 'fortress-improved',
      across: 'improved',
      attackers: [{ unitId: 'a', strength: 9 }, { unitId: 'b', strength: 9, acrossFortifiedHexside: false }, { unitId: 'e', strength: 6, kind: 'engineer' }],
      groundSupport: 7,
    }, 1);
    expect(out.applied.map((a) => a.row)).toEqual(['fortress-improved', 'fortified-hexside-improved']);
    expect(out.attackers).toEqual([
      { unitId: 'a', kind: 'other', strength: 9, halvedBy: ['fortress-improved', 'fortified-hexside-improved'], counted: 4.5 },
      { unitId: 'b', kind: 'other', strength: 9, halvedBy: ['fortress-improved'], counted: 4.5 },
      { unitId: 'e', kind: 'engineer', strength: 6, halvedBy: [], counted: 6 },
    ]);
    expect(out).toMatchObject({ drm: -1, noAec: true, attack: 15, groundSupport: { given: 7, halved: true, counted: 3.5 } });
    const westwall = fortificationEffects({ into: 'westwall-3', across: 'unimproved' }, 1);
    expect(westwall).toMatchObject({ drm: -3, noAec: true, defenderIgnoresRetreat: true });
  });

  it('adds the other DRMs: mud -2, winter or snow -1, US and UK ground units in one attack -1; nothing else without a fortification', () => {
    expect(fortificationEffects({ weather: 'mud', usAndUk: true, into: 'fort' }, 1).drms).toEqual([
      { source: 'fort', value: -1 },
      { source: 'mud weather', value: -2 },
      { source: 'US and UK ground units in one attack', value: -1 },
    ]);
    expect([fortificationEffects({ weather: 'winter' }, 1).drm, fortificationEffects({ weather: 'snow' }, 1).drm, fortificationEffects({ weather: 'frost' }, 1).drm]).toEqual([-1, -1, 0]);
    expect(fortificationEffects({ attackers: [{ strength: 5 }] }, 1)).toMatchObject({ drm: 0, noAec: false, attack: 5, groundSupport: null, defenderIgnoresRetreat: false });
  });

  it("gives the players' page example: into an improved fortress across an unimproved hexside, in mud, US and UK together", () => {
    const spec = europaRuleset.procedures.fortificationEffects;
    const input = { into: 'fortress-improved', across: 'unimproved', weather: 'mud', usAndUk: true, attackers: [{ strength: 9 }, { strength: 4, kind: 'engineer' }], groundSupport: 6 };
    expect(spec.evaluate(spec.input.parse(input), europaRuleset.options.parse({}), new GivenDice([])).result).toEqual({ drm: -4, noAec: true, armorEffectsReduced: false, attack: 8.5, groundSupport: 3, defenderIgnoresRetreat: false });
  });

  it('is the stateless procedure fortificationEffects, with no dice', () => {
    const spec = europaRuleset.procedures.fortificationEffects;
    const dice = new GivenDice([]);
    const out = spec.evaluate(spec.input.parse({ into: 'ouvrage', attackers: [{ strength: 10, kind: 'engineer' }], groundSupport: 4, weather: 'mud' }), europaRuleset.options.parse({}), dice);
    expect(out.result).toEqual({ drm: -3, noAec: true, armorEffectsReduced: false, attack: 5, groundSupport: 2, defenderIgnoresRetreat: true });
    expect(dice.drawn).toEqual([]);
  });
});

const place = (site: string, kind: string, owner = 'axis', extra: Record<string, unknown> = {}): Step => ['organizer', 'FortificationEvent', { action: 'place', site, kind, owner, ...extra }];
const act = (actor: string, payload: Record<string, unknown>): Step => [actor, 'FortificationEvent', payload];
const turn = (n: number): Step => act('organizer', { action: 'turn', turn: n });
const phase = (side: string): Step => act(side, { action: 'initial-phase', side });
const types = (step: Step, state = given([])) => apply(state, step).events.map((e) => [e.type, e.data.to ?? e.data.reason ?? null]);
const siteOf = (state: ReturnType<typeof given>, id: string) => (europaRuleset.present(state) as { sites: { site: string }[] }).sites.find((s) => s.site === id);

describe('the state of each fortification (30A4)', () => {
  it('a fort is destroyed when the enemy gains its hex', () => {
    const state = given([place('0912', 'fort')]);
    expect(types(act('allied', { action: 'gain', site: '0912', side: 'allied' }), state)).toEqual([['OwnershipChanged', 'allied'], ['FortificationRemoved', 'enemy-gain']]);
    expect(siteOf(given([place('0912', 'fort'), act('axis', { action: 'loss', site: '0912', side: 'axis' })]), '0912')).toBeUndefined();
  });

  it('an improved fortress becomes unimproved on an enemy gain and stays so; an unimproved one keeps its effects whoever owns it', () => {
    const lost = given([place('Metz', 'fortress', 'axis', { condition: 'improved' }), act('allied', { action: 'gain', site: 'Metz', side: 'allied' })]);
    expect(siteOf(lost, 'Metz')).toMatchObject({ owner: 'allied', condition: 'unimproved', chartRow: 'fortress-unimproved' });
    const back = apply(lost, act('axis', { action: 'gain', site: 'Metz', side: 'axis' }));
    expect(back.events.map((e) => e.type)).toEqual(['OwnershipChanged']);
    expect(siteOf(back.state, 'Metz')).toMatchObject({ owner: 'axis', condition: 'unimproved' });
    refused(given([turn(1)], {}), act('axis', { action: 'begin-improvement', site: 'Metz' }), /No fortification "Metz"/);
    refused(apply(back.state, turn(1)).state, act('axis', { action: 'begin-improvement', site: 'Metz' }), /^The fortress "Metz" is unimproved, and an unimproved fortress may never be improved in the game\.$/);
  });

  it('fortified hexsides and ouvrages start unimproved and never change; an ouvrage may be recorded destroyed (ruling)', () => {
    const state = given([place('0101/0102', 'fortified-hexside'), place('Hackenberg', 'ouvrage', 'allied'), turn(1)]);
    expect(siteOf(state, '0101/0102')).toMatchObject({ condition: 'unimproved', chartRow: 'fortified-hexside-unimproved' });
    expect(types(act('axis', { action: 'gain', site: 'Hackenberg', side: 'axis' }), state)).toEqual([['OwnershipChanged', 'axis']]);
    refused(state, act('axis', { action: 'begin-improvement', site: '0101/0102' }), /stays unimproved for the whole game/);
    refused(state, act('axis', { action: 'begin-improvement', site: 'Hackenberg' }), /ouvrage: it stays unimproved/);
    refused(given([]), place('x', 'fortified-hexside', 'axis', { condition: 'improved' }), /every fortified-hexside is unimproved/);
    const destroyed = apply(state, act('axis', { action: 'destroy', site: 'Hackenberg' })).state;
    expect(siteOf(destroyed, 'Hackenberg')).toMatchObject({ condition: 'destroyed', chartRow: 'ouvrage-destroyed' });
    refused(destroyed, act('axis', { action: 'destroy', site: 'Hackenberg' }), /already destroyed/);
    refused(state, act('axis', { action: 'destroy', site: '0101/0102' }), /no way to destroy a fortified-hexside/);
  });

  it('the Westwall starts unimproved, is improved in 4 turns (2 with quick construction) for 2 resource points, then stands on its level', () => {
    refused(given([]), place('w', 'westwall', 'axis', { level: 2, condition: 'improved' }), /every westwall is unimproved/);
    refused(given([]), place('w', 'westwall'), /has a level/);
    const state = given([place('Aachen', 'westwall', 'axis', { level: 2 }), place('Trier', 'westwall', 'axis', { level: 3 }), turn(1)]);
    const begun = apply(state, act('axis', { action: 'begin-improvement', site: 'Aachen' }));
    expect(begun.events[0].data).toEqual({ site: 'Aachen', turn: 1, turns: 4, completesOnTurn: 5, quickConstruction: false, resourcePoints: 2 });
    const quick = apply(begun.state, act('axis', { action: 'begin-improvement', site: 'Trier', quickConstruction: true }));
    expect(quick.events[0].data).toMatchObject({ turns: 2, completesOnTurn: 3 });
    refused(quick.state, act('axis', { action: 'begin-improvement', site: 'Aachen' }), /being improved already, until turn 5/);
    let s = quick.state;
    const done: string[][] = [];
    for (const n of [2, 3, 4, 5]) {
      const out = apply(s, turn(n));
      done.push(out.events.filter((e) => e.type === 'ConditionChanged').map((e) => `${e.data.site} ${e.data.chartRow}`));
      s = out.state;
    }
    expect(done).toEqual([[], ['Trier westwall-3'], [], ['Aachen westwall-2']]);
    refused(s, act('axis', { action: 'begin-improvement', site: 'Aachen' }), /improved already/);
  });

  it('Allied ownership in the Allied initial phase makes a Westwall hex unimproved; an enemy gain alone does not, but it cancels an improvement', () => {
    const improving = given([place('Aachen', 'westwall', 'axis', { level: 1 }), turn(1), act('axis', { action: 'begin-improvement', site: 'Aachen', quickConstruction: true })]);
    expect(types(act('allied', { action: 'gain', site: 'Aachen', side: 'allied' }), improving)).toEqual([['OwnershipChanged', 'allied'], ['ImprovementCancelled', 'enemy-gain']]);
    const improved = given([place('Aachen', 'westwall', 'axis', { level: 1 }), turn(1), act('axis', { action: 'begin-improvement', site: 'Aachen', quickConstruction: true }), turn(2), turn(3)]);
    expect(siteOf(improved, 'Aachen')).toMatchObject({ condition: 'improved', chartRow: 'westwall-1', improvement: null });
    const gained = apply(improved, act('allied', { action: 'gain', site: 'Aachen', side: 'allied' }));
    expect(siteOf(gained.state, 'Aachen')).toMatchObject({ owner: 'allied', condition: 'improved' });
    expect(types(phase('axis'), gained.state)).toEqual([['InitialPhaseBegan', null]]);
    expect(types(phase('allied'), gained.state)).toEqual([['InitialPhaseBegan', null], ['ConditionChanged', 'unimproved']]);
    const unimproved = apply(gained.state, phase('allied')).state;
    expect(siteOf(unimproved, 'Aachen')).toMatchObject({ owner: 'allied', condition: 'unimproved', chartRow: 'westwall-unimproved' });
    refused(unimproved, act('axis', { action: 'begin-improvement', site: 'Aachen' }), /improves only Westwall hexes it owns; the allied side owns "Aachen"/);
  });

  it('the emergency restoration: declared in an Axis initial phase, forfeits for two Axis initial phases, restores every Axis-owned Westwall hex in the second one after', () => {
    const start = given([
      place('Aachen', 'westwall', 'axis', { level: 2 }),
      place('Trier', 'westwall', 'axis', { level: 1 }),
      place('Saar', 'westwall', 'allied', { level: 1 }),
      turn(1),
      act('axis', { action: 'begin-improvement', site: 'Trier' }),
      phase('axis'),
    ]);
    const declared = apply(start, act('axis', { action: 'emergency-restoration', alliedGroundUnitIn: 'wehrkreis' }));
    expect(declared.events[0]).toEqual({
      type: 'EmergencyRestorationDeclared',
      data: { turn: 1, axisPhase: 1, alliedGroundUnitIn: 'wehrkreis', restoredAtAxisPhase: 3, forfeits: ['resource-point reinforcements', 'civilian labour in every Wehrkreis with a Westwall fortification'] },
    });
    let s = apply(declared.state, phase('allied')).state;
    s = apply(s, turn(2)).state;
    const second = apply(s, phase('axis'));
    expect(second.events.map((e) => e.type)).toEqual(['InitialPhaseBegan', 'EmergencyRestorationContinued']);
    s = apply(apply(second.state, phase('allied')).state, turn(3)).state;
    const third = apply(s, phase('axis'));
    expect(third.events.map((e) => [e.type, e.data.site ?? e.data.sites ?? null])).toEqual([
      ['InitialPhaseBegan', null],
      ['EmergencyRestorationCompleted', ['Aachen', 'Trier']],
      ['ConditionChanged', 'Aachen'],
      ['ConditionChanged', 'Trier'],
    ]);
    expect(siteOf(third.state, 'Trier')).toMatchObject({ condition: 'improved', improvement: null });
    expect(siteOf(third.state, 'Saar')).toMatchObject({ condition: 'unimproved' });
    expect(europaRuleset.present(third.state)).toMatchObject({ emergencyRestoration: { declaredOnTurn: 1, declaredAtAxisPhase: 1, status: 'completed' } });
    // Once per game, later too.
    const later = apply(apply(apply(third.state, phase('allied')).state, turn(4)).state, phase('axis')).state;
    refused(later, act('axis', { action: 'emergency-restoration', alliedGroundUnitIn: 'benelux' }), /declared the emergency restoration of the Westwall on turn 1: it is declared only once per game/);
    refused(second.state, act('axis', { action: 'emergency-restoration', alliedGroundUnitIn: 'benelux' }), /only once per game/);
  });

  it('the emergency restoration is the Axis player\'s, in an Axis initial phase only', () => {
    const s = given([turn(1)]);
    refused(s, act('axis', { action: 'emergency-restoration', alliedGroundUnitIn: 'benelux' }), /declared in an Axis initial phase/);
    refused(apply(apply(s, phase('axis')).state, phase('allied')).state, act('axis', { action: 'emergency-restoration', alliedGroundUnitIn: 'benelux' }), /declared in an Axis initial phase/);
    refused(apply(s, phase('axis')).state, act('allied', { action: 'emergency-restoration', alliedGroundUnitIn: 'benelux' }), /Only the Axis player/);
    expect(apply(apply(s, phase('axis')).state, act('organizer', { action: 'emergency-restoration', alliedGroundUnitIn: 'french-region-adjacent-to-greater-germany' })).events[0].type).toBe('EmergencyRestorationDeclared');
  });

  it('turns and initial phases follow one another; map fortifications are set up before turn 1; ownership changes are checked', () => {
    refused(given([]), turn(2), /next game turn is turn 1, not turn 2/);
    refused(given([]), phase('axis'), /Begin turn 1 first/);
    refused(given([turn(1), phase('axis')]), phase('axis'), /axis initial phase of turn 1 has begun already/);
    expect(given([turn(1), phase('axis'), turn(2)]).phases).toEqual([]);
    refused(given([turn(1)]), place('Metz', 'fortress', 'axis', { condition: 'improved' }), /before turn 1/);
    expect(apply(given([turn(1)]), place('0912', 'fort')).events[0].data).toEqual({ site: '0912', kind: 'fort', owner: 'axis', condition: 'intact', chartRow: 'fort' });
    refused(given([place('0912', 'fort')]), place('0912', 'fortified-area'), /already holds a fortification/);
    refused(given([]), place('Metz', 'fortress'), /say improved or unimproved/);
    refused(given([]), place('0912', 'fort', 'axis', { condition: 'improved' }), /leave the condition out/);
    refused(given([place('0912', 'fort')]), act('axis', { action: 'gain', site: '0912', side: 'axis' }), /The axis side already owns "0912"/);
    refused(given([place('0912', 'fort')]), act('allied', { action: 'loss', site: '0912', side: 'allied' }), /The axis side already owns "0912"/);
    refused(given([place('Brest', 'port-fortification')]), act('allied', { action: 'gain', site: 'Brest', side: 'allied' }), /port fortification, a unit/);
    expect(types(act('allied', { action: 'destroy', site: 'Brest' }), given([place('Brest', 'port-fortification')]))).toEqual([['FortificationRemoved', 'destroyed']]);
    refused(given([place('Aachen', 'westwall', 'axis', { level: 1 }), turn(1)]), act('allied', { action: 'begin-improvement', site: 'Aachen' }), /Only the Axis player improves/);
    refused(given([place('Aachen', 'westwall', 'axis', { level: 1 })]), act('axis', { action: 'begin-improvement', site: 'Aachen' }), /begin turn 1 first/);
    refused(given([place('0912', 'fort'), turn(1)]), act('axis', { action: 'begin-improvement', site: '0912' }), /Only Westwall hexes are improved; "0912" is a fort/);
  });

  it('each site stands on the chart line of its state', () => {
    expect(chartRowOf({ kind: 'westwall', condition: 'improved', level: 3 })).toBe('westwall-3');
    expect(chartRowOf({ kind: 'westwall', condition: 'unimproved', level: 3 })).toBe('westwall-unimproved');
    expect(chartRowOf({ kind: 'fortress', condition: 'improved' })).toBe('fortress-improved');
    expect(chartRowOf({ kind: 'port-fortification', condition: 'intact' })).toBe('port-fortification');
  });
});
