import { describe, expect, it } from 'vitest';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';
import { RULE } from '../../../../domain/rulesets/warsandbattles/rules';
import { combatValueOf, statusLevel } from '../../../../domain/rulesets/warsandbattles/units';
import { apply, declaration, endBothImpulses, given, options, refused, TEST_TABLES, unitOf, type Step } from './harness';

const QUALITY_THRESHOLDS = [
  ['elite', 30],
  ['veteran', 50],
  ['experienced', 60],
  ['conscript', 70],
] as const;

/** One Allied gun and one Axis unit to bombard: 1 point and a roll of 2 cost no LP, only the 10 points of fatigue. */
const target = (extra: Record<string, unknown>) => ({
  units: [
    { unitId: 'gun', side: 'allied', kind: 'artillery', quality: 'veteran', maxLp: 4 },
    { unitId: 'gun-2', side: 'allied', kind: 'artillery', quality: 'veteran', maxLp: 4 },
    { unitId: 't', side: 'axis', kind: 'infantry', quality: 'veteran', maxLp: 8, attack: [1, 2, 3, 4], defence: 2, ...extra },
  ],
  tables: TEST_TABLES,
});
const shell = (gun = 'gun'): Step => ['allied', 'Bombard', { targetHex: 'h', targets: ['t'], bombarders: [{ unitId: gun, points: 1 }], identification: 'identified' }, [1, 1]];

describe('fatigue and status (§8.4)', () => {
  for (const [quality, threshold] of QUALITY_THRESHOLDS) {
    it(`${quality}: a status level is lost below ${threshold}% energy, not at ${threshold}%`, () => {
      const at = apply(given([], target({ quality, energy: threshold + 10 })), shell());
      expect(unitOf(at.state, 't')).toMatchObject({ energy: threshold, fatigued: false });
      expect(at.events.map((e) => e.type)).not.toContain('StatusLevelLost');
      const below = apply(given([], target({ quality, energy: threshold + 9 })), shell());
      expect(unitOf(below.state, 't')).toMatchObject({ energy: threshold - 1, fatigued: true });
      expect(below.events.find((e) => e.type === 'StatusLevelLost')!.data).toEqual({ unitId: 't', energy: threshold - 1, threshold, statusAfter: 3 });
    });
  }

  it('a unit created below its threshold starts with the level lost; at the threshold, not', () => {
    expect(unitOf(given([], target({ energy: 50 })), 't').fatigued).toBe(false);
    expect(unitOf(given([], target({ energy: 49 })), 't').fatigued).toBe(true);
    expect(unitOf(given([], target({ energy: 49, status: 1 })), 't')).toMatchObject({ fatigued: false, out: null });
  });

  it('a level lost to fatigue lowers the values the unit fights with; it is lost once, however tired', () => {
    const tired = given([shell(), shell('gun-2')], target({ energy: 55 }));
    const t = unitOf(tired, 't');
    expect([t.energy, t.fatigued, statusLevel(t), combatValueOf(t, 'attack')]).toEqual([35, true, 3, 3]);
  });

  it('losing the last level to fatigue is surrender', () => {
    const { events, state } = apply(given([], target({ status: 1, energy: 55 })), shell());
    expect(events.find((e) => e.type === 'UnitSurrendered')!.data).toEqual({ unitId: 't', reason: 'fatigue', energy: 45, threshold: 50 });
    expect(unitOf(state, 't')).toMatchObject({ out: 'surrendered', lp: 0 });
    expect(warsAndBattlesRuleset.summarize({ type: 'Bombard', payload: {} }, events)).toMatch(/; 1 surrendered/);
  });

  it('with statusLp the status follows LP; a tired unit whose LP leave it one level surrenders', () => {
    const follows = given([], target({ statusLp: [3, 5, 7], lp: 6 }));
    expect(statusLevel(unitOf(follows, 't'))).toBe(3);
    // 5 points, roll 10: 1 + 10 - 7 = 4 LP: 6 → 2, status level 1 from LP, and fatigue has taken a level: none left.
    const tired = given([], target({ statusLp: [3, 5, 7], lp: 6, energy: 40, quality: 'veteran' }));
    expect(unitOf(tired, 't')).toMatchObject({ fatigued: true });
    const hit = apply(tired, ['allied', 'Bombard', { targetHex: 'h', targets: ['t'], bombarders: [{ unitId: 'gun', points: 5 }], identification: 'identified' }, [5, 5]]);
    expect(hit.events.map((e) => e.type)).toEqual(['UnitsActivated', 'BombardmentResolved', 'LossesAllocated', 'FatigueGained', 'UnitSurrendered']);
    expect(statusLevel(unitOf(given([], target({ statusLp: [3, 5, 7], lp: 2 })), 't'))).toBe(1);
  });

  it('energy never falls below 0: a 5% unit bombarded is at 0', () => {
    expect(unitOf(given([shell()], target({ energy: 5, quality: 'elite', status: 3 })), 't').energy).toBe(0);
  });

  it('recovers 10 points at the end of the turn, 30 if not activated; a level comes back at the threshold', () => {
    const o = target({ energy: 55 });
    const state = given([shell(), ...endBothImpulses], o);
    expect(unitOf(state, 't')).toMatchObject({ energy: 45, fatigued: true });
    const { events, state: after } = apply(state, ['allied', 'EndTurn', {}]);
    expect(events.find((e) => e.type === 'EnergyRecovered')!.data).toEqual({ units: [{ unitId: 't', activated: false, points: 30, energyAfter: 75 }] });
    expect(events.find((e) => e.type === 'StatusLevelRecovered')!.data).toEqual({ unitId: 't', energy: 75, threshold: 50, statusAfter: 4 });
    expect(unitOf(after, 't').fatigued).toBe(false);
    const activated = given([['allied', 'Activate', { unitIds: ['gun'] }], ...endBothImpulses], target({}));
    const gun = given([['allied', 'Activate', { unitIds: ['gun'] }], ...endBothImpulses, ['allied', 'EndTurn', {}]], { ...target({}), units: target({}).units.map((u) => (u.unitId === 'gun' ? { ...u, energy: 50 } : u)) });
    expect(unitOf(gun, 'gun').energy).toBe(60);
    expect(unitOf(activated, 'gun').activatedInImpulse).toBe(1);
  });
});

describe('supply (§8.5.2)', () => {
  const oos = (unitIds: string[]): Step => ['allied', 'EndTurn', { outOfSupply: unitIds }];
  const turn = (unitIds: string[]): Step[] => [...endBothImpulses, oos(unitIds)];

  it('an out-of-supply unit loses 1 LP a turn from its second turn out of supply; back in supply, none', () => {
    const state = given([], options());
    const first = apply(given(endBothImpulses, options()), oos(['gr-916']));
    expect(first.events.find((e) => e.type === 'SupplyChecked')!.data).toEqual({ outOfSupply: [{ unitId: 'gr-916', turnsOutOfSupply: 1 }], backInSupply: [] });
    expect(first.events.map((e) => e.type)).not.toContain('SupplyAttrition');
    expect(unitOf(first.state, 'gr-916')).toMatchObject({ outOfSupply: true, lp: 8 });
    const second = apply(given([...turn(['gr-916']), ...endBothImpulses], options()), oos(['gr-916']));
    expect(second.events.find((e) => e.type === 'SupplyAttrition')!.data).toEqual({ units: [{ unitId: 'gr-916', turnsOutOfSupply: 2, lpAfter: 7 }] });
    const third = given([...turn(['gr-916']), ...turn(['gr-916']), ...turn(['gr-916'])], options());
    expect(unitOf(third, 'gr-916')).toMatchObject({ lp: 6, turnsOutOfSupply: 3 });
    const back = apply(given([...turn(['gr-916']), ...turn(['gr-916']), ...endBothImpulses], options()), oos([]));
    expect(back.events.find((e) => e.type === 'SupplyChecked')!.data).toEqual({ outOfSupply: [], backInSupply: ['gr-916'] });
    expect(unitOf(back.state, 'gr-916')).toMatchObject({ outOfSupply: false, turnsOutOfSupply: 0, lp: 7 });
    expect(unitOf(state, 'gr-916').outOfSupply).toBe(false);
  });

  it('a unit created out of supply is in its first turn out of supply; attrition can destroy a unit', () => {
    const units = options().units.map((u) => (u.unitId === 'gr-916' ? { ...u, outOfSupply: true, lp: 1 } : u));
    const { events, state } = apply(given(endBothImpulses, options({ units })), oos(['gr-916']));
    expect(events.filter((e) => ['SupplyAttrition', 'UnitDestroyed'].includes(e.type)).map((e) => e.type)).toEqual(['SupplyAttrition', 'UnitDestroyed']);
    expect(unitOf(state, 'gr-916')).toMatchObject({ lp: 0, out: 'destroyed' });
    refused(apply(apply(state, endBothImpulses[0]).state, endBothImpulses[1]).state, oos(['gr-916']), /^gr-916 is out of the game \(destroyed\)\.$/);
  });

  it('an out-of-supply unit cannot attack until it is back in supply', () => {
    const state = given(turn(['us-inf-1']), options());
    refused(state, ['allied', 'DeclareAttack', declaration('a')], /us-inf-1 is out of supply/);
    expect(apply(given([...turn(['us-inf-1']), ...turn([])], options()), ['allied', 'DeclareAttack', declaration('a')]).events[1].type).toBe('AttackDeclared');
  });
});

describe('Allied replenishment (§8.3.2)', () => {
  const ended = (lp: number, inContact: string[] = [], enabled = true) => {
    const units = options().units.map((u) => (u.unitId === 'us-inf-1' ? { ...u, lp } : u));
    return apply(given(endBothImpulses, options({ units, replenishment: { allied: enabled } })), ['allied', 'EndTurn', { inContact }]);
  };
  const gained = (outcome: ReturnType<typeof ended>) => outcome.events.find((e) => e.type === 'UnitsReplenished')?.data.units ?? [];

  it('out of contact and at least 25% lost: 20% of the maximum, rounded, up to the maximum; not in contact, not under 25%, not when the scenario has none', () => {
    expect(gained(ended(3))).toEqual([{ unitId: 'us-inf-1', lp: 2, lpAfter: 5, lost: 5 }]);
    expect(gained(ended(6))).toEqual([{ unitId: 'us-inf-1', lp: 2, lpAfter: 8, lost: 2 }]);
    expect(gained(ended(7))).toEqual([]);
    expect(gained(ended(3, ['us-inf-1']))).toEqual([]);
    expect(gained(ended(3, [], false))).toEqual([]);
  });
});

describe('activation and impulses (§5)', () => {
  const twoImpulses = options({ impulses: 2, activationPoints: { allied: 2, axis: 3 } });

  it('one point per unit for all its actions; too few points is refused', () => {
    const state = given([['allied', 'Activate', { unitIds: ['us-inf-1', 'us-inf-2'] }]], twoImpulses);
    expect(state.activationLeft).toBe(0);
    refused(state, ['allied', 'Activate', { unitIds: ['us-arm'] }], /^Activating 1 unit takes 1 activation point; 0 are left this impulse\.$/);
    // Already active: its attack costs nothing.
    const attack = apply(state, ['allied', 'DeclareAttack', declaration('a')]);
    expect(attack.events.map((e) => e.type)).toEqual(['AttackDeclared']);
  });

  it('the defender spends none; each side gets its points at each impulse; units of impulse 1 are unavailable in impulse 2', () => {
    const played: Step[] = [
      ['allied', 'Activate', { unitIds: ['us-inf-1'] }],
      ['allied', 'DeclareAttack', declaration('a')],
      ['allied', 'ResolveAttack', { attackId: 'a' }, [1, 1]],
      ['allied', 'EndImpulse'],
    ];
    const axis = given(played, twoImpulses);
    expect([axis.phasing, axis.impulse, axis.activationLeft]).toEqual(['axis', 1, 3]);
    expect(unitOf(axis, 'gr-916').activatedInImpulse).toBeNull();
    const second = given([...played, ['axis', 'EndImpulse']], twoImpulses);
    expect([second.phasing, second.impulse, second.activationLeft]).toEqual(['allied', 2, 2]);
    refused(second, ['allied', 'Activate', { unitIds: ['us-inf-1'] }], /^us-inf-1 was activated in impulse 1: it is unavailable in impulse 2\.$/);
    expect(apply(second, ['allied', 'Activate', { unitIds: ['us-inf-2'] }]).state.activationLeft).toBe(1);
    const over = given([...played, ['axis', 'EndImpulse'], ['allied', 'EndImpulse'], ['axis', 'EndImpulse']], twoImpulses);
    expect(over.phasing).toBeNull();
    const next = apply(over, ['organizer', 'EndTurn', {}]);
    expect(next.events.at(-1)!.data).toEqual({ turn: 2, side: 'allied', activationPoints: 2, axisReplenishmentPoints: 0 });
    expect(unitOf(next.state, 'us-inf-1')).toMatchObject({ activatedInImpulse: null, attackedThisTurn: false });
    expect(apply(next.state, ['allied', 'Activate', { unitIds: ['us-inf-1'] }]).events[0].data.pointsSpent).toBe(1);
  });

  it('without activation points every unit may act; the first side is an option', () => {
    const state = given([], options({ firstSide: 'axis' }));
    expect([state.phasing, state.activationLeft]).toEqual(['axis', null]);
    expect(apply(state, ['axis', 'Activate', { unitIds: ['gr-916', 'gr-915', 'gr-914', 'pz-iv'] }]).events[0].data.pointsLeft).toBeNull();
  });

  it('rules named: activation and impulse 2', () => {
    try {
      apply(given([['allied', 'Activate', { unitIds: ['us-inf-1', 'us-inf-2'] }]], twoImpulses), ['allied', 'Activate', { unitIds: ['us-arm'] }]);
    } catch (error) {
      expect((error as { rule: string }).rule).toBe(RULE.activation);
    }
  });
});
