import { describe, expect, it } from 'vitest';
import { RULE } from '../../../../domain/rulesets/warsandbattles/rules';
import { apply, declaration, endBothImpulses, given, options, refused, unitOf, type Step } from './harness';

/** Refused with this message, naming this rule. */
function refusedBy(state: ReturnType<typeof given>, step: Step, message: RegExp, rule: string) {
  refused(state, step, message);
  try {
    apply(state, step);
  } catch (error) {
    expect((error as { rule?: string }).rule).toBe(rule);
  }
}

const declared = (attackId: string, extra: Record<string, unknown> = {}): Step => ['allied', 'DeclareAttack', declaration(attackId, extra)];
const resolved = (attackId: string): Step => ['allied', 'ResolveAttack', { attackId }, [1, 1]];

describe('given / when / then: an attack', () => {
  it('declared: units activated, the ratio and modifiers recorded, no die; resolved once by its attacker', () => {
    const start = given([], options());
    const when = apply(start, declared('a1'));
    expect(when.events.map((e) => e.type)).toEqual(['UnitsActivated', 'AttackDeclared']);
    expect(when.events[0].data).toEqual({ side: 'allied', turn: 1, impulse: 1, unitIds: ['us-inf-1'], alreadyActive: [], pointsSpent: 1, pointsLeft: null });
    expect(when.events[1].data).toMatchObject({ attackId: 'a1', attacker: 'allied', targetHex: '0812', ratio: { attack: 4, defence: 2 }, landing: { column: { label: '2:1' } } });
    expect(when.state.openAttack).toMatchObject({ attackId: 'a1', attacker: 'allied' });
    refusedBy(when.state, ['axis', 'ResolveAttack', { attackId: 'a1' }, [1, 1]], /^Attack a1 is the allied side's to resolve\.$/, RULE.sequence);
    refusedBy(when.state, declared('a2', { targetHex: '0900' }), /^Attack a1 is declared: resolve it first\.$/, RULE.openAttack);
    refusedBy(when.state, ['allied', 'EndImpulse'], /resolve it first/, RULE.openAttack);
    const then = apply(when.state, resolved('a1'));
    expect(then.events[0].type).toBe('AttackResolved');
    expect(then.state.openAttack).toBeNull();
    refusedBy(then.state, resolved('a1'), /^Attack a1 is already resolved\.$/, RULE.attackIds);
    refusedBy(then.state, resolved('zz'), /^Attack zz was not declared\.$/, RULE.attackIds);
    refusedBy(then.state, declared('a1', { targetHex: '0999' }), /^Attack a1 was already declared in this game\.$/, RULE.attackIds);
  });
});

describe('422: the refusals the rules give', () => {
  it('a unit attacking twice in a turn (and again the next turn is fine)', () => {
    const state = given([declared('a1'), resolved('a1')], options());
    refusedBy(state, declared('a2', { targetHex: '0900', defenders: ['gr-915'] }), /^us-inf-1 has already attacked this turn/, RULE.oneAttack);
    const next = given([declared('a1'), resolved('a1'), ...endBothImpulses, ['allied', 'EndTurn', {}]], options());
    expect(apply(next, declared('a2', { targetHex: '0900', defenders: ['gr-915'] })).events[1].type).toBe('AttackDeclared');
  });

  it('a hex attacked twice in a turn; bombarding it again is fine', () => {
    const state = given([declared('a1'), resolved('a1')], options());
    refusedBy(state, declared('a2', { attackers: [{ unitId: 'us-inf-2', hex: '0811' }] }), /^Hex 0812 was already attacked this turn/, RULE.oneHex);
    const bombarded = apply(state, ['allied', 'Bombard', { targetHex: '0812', targets: ['gr-916'], bombarders: [{ unitId: 'us-art', points: 5 }], identification: 'identified' }, [1, 1]]);
    expect(apply(bombarded.state, ['allied', 'Bombard', { targetHex: '0812', targets: ['gr-916'], bombarders: [{ unitId: 'us-ship', points: 5 }], identification: 'detected' }, [1, 1]]).events.length).toBeGreaterThan(0);
  });

  it('more than 3 support units', () => {
    const four = ['us-art', 'us-ship', 'us-air', 'us-air-2'].map((unitId) => ({ unitId, points: 1 }));
    refusedBy(given([], options()), declared('a1', { support: four }), /^A fight takes at most 3 support units; this one names 4\.$/, RULE.supports);
    const three = apply(given([], options()), declared('a1', { support: four.slice(0, 3) })).events[1].data;
    expect(three.supportLookup).toMatchObject({ points: 3, bonus: 0, lookup: { code: 'L0' } });
    expect(three.modifiers).toEqual([]);
  });

  it('support for a defender', () => {
    refusedBy(given([], options()), declared('a1', { support: [{ unitId: 'de-art', points: 5 }] }), /^de-art is a unit of the defending side: defenders cannot benefit from any support\.$/, RULE.defenderSupport);
  });

  it('support from a unit that is not artillery, a ship or aircraft', () => {
    refusedBy(given([], options()), declared('a1', { support: [{ unitId: 'us-inf-2', points: 5 }] }), /^us-inf-2 is an infantry unit: support comes from artillery, ships and aircraft\.$/, RULE.supportKind);
  });

  it('an out-of-supply unit attacking, supporting or bombarding', () => {
    const units = options().units.map((u) => (['us-inf-1', 'us-art'].includes(u.unitId) ? { ...u, outOfSupply: true } : u));
    const state = given([], options({ units }));
    refusedBy(state, declared('a1'), /^us-inf-1 is out of supply: an out-of-supply unit cannot attack\.$/, RULE.outOfSupply);
    refusedBy(state, declared('a1', { attackers: [{ unitId: 'us-inf-2', hex: 'x' }], support: [{ unitId: 'us-art', points: 5 }] }), /^us-art is out of supply/, RULE.outOfSupply);
    refusedBy(state, ['allied', 'Bombard', { targetHex: '0812', targets: ['gr-916'], bombarders: [{ unitId: 'us-art', points: 5 }], identification: 'identified' }, [1, 1]], /^us-art is out of supply/, RULE.outOfSupply);
  });

  it('replenishing an Axis unit that attacked this turn', () => {
    const state = given(
      [['allied', 'EndImpulse'], ['axis', 'DeclareAttack', { attackId: 'g1', targetHex: '0811', attackers: [{ unitId: 'gr-916', hex: '0812' }], defenders: ['us-inf-1'], terrain: 'hedgerows' }], ['axis', 'ResolveAttack', { attackId: 'g1' }, [1, 1]]],
      options({ replenishment: { allied: true, axisPointsPerTurn: 4 } }),
    );
    refusedBy(state, ['axis', 'Replenish', { units: [{ unitId: 'gr-916', lp: 1 }] }], /^gr-916 attacked this turn: a unit cannot be replenished after attacking\.$/, RULE.replenishAfterAttack);
  });

  it('a unit supporting or bombarding counts as its attack of the turn (ruling)', () => {
    const state = given([declared('a1', { support: [{ unitId: 'us-art', points: 1 }] }), resolved('a1')], options());
    refusedBy(state, ['allied', 'Bombard', { targetHex: '0900', targets: ['gr-915'], bombarders: [{ unitId: 'us-art', points: 5 }], identification: 'identified' }, [1, 1]], /^us-art has already attacked, supported or bombarded this turn/, RULE.oneAttack);
  });

  it('acting outside your impulse; ending the turn before every impulse; a unit that is not yours, gone or unknown', () => {
    const state = given([], options());
    refusedBy(state, ['axis', 'DeclareAttack', { attackId: 'g', targetHex: 'h', attackers: [{ unitId: 'gr-916', hex: 'i' }], defenders: ['us-inf-1'], terrain: 'hedgerows' }], /^It is the allied side's impulse \(impulse 1 of turn 1\)\.$/, RULE.sequence);
    refusedBy(state, ['axis', 'EndImpulse'], /It is the allied side's impulse/, RULE.sequence);
    refusedBy(state, ['allied', 'EndTurn', {}], /^The allied side is still to play impulse 1 of turn 1/, RULE.endTurn);
    refusedBy(given(endBothImpulses, options()), ['allied', 'Activate', { unitIds: ['us-inf-1'] }], /^Every impulse of turn 1 has been played: EndTurn comes next\.$/, RULE.sequence);
    refusedBy(state, declared('a', { attackers: [{ unitId: 'gr-915', hex: 'x' }] }), /^gr-915 is a unit of the axis side: it can't attack for the allied side\.$/, RULE.landCombat);
    refusedBy(state, declared('a', { defenders: ['us-inf-2'] }), /^us-inf-2 is one of your own units/, RULE.landCombat);
    refusedBy(state, declared('a', { attackers: [{ unitId: 'us-air', hex: 'x' }] }), /^us-air is an air unit: only ground units attack in land combat/, RULE.landCombat);
    refusedBy(state, declared('a', { attackers: [{ unitId: 'ghost', hex: 'x' }] }), /^This game has no unit ghost\.$/, RULE.units);
    refusedBy(state, declared('a', { defenders: ['gr-916', 'gr-916'] }), /^gr-916 is named twice in this attack\.$/, RULE.units);
    refusedBy(state, declared('a', { terrain: 'lava' }), /^The terrain table has no "lava"/, RULE.terrain);
    const trapped = given([declared('a1', { defenders: ['gr-916'] }), ['allied', 'ResolveAttack', { attackId: 'a1', retreats: [{ unitId: 'gr-916', route: 'none' }] }, [4, 5]]], options());
    expect(unitOf(trapped, 'gr-916').out).toBe('surrendered');
    refusedBy(trapped, declared('a2', { attackers: [{ unitId: 'us-inf-2', hex: 'x' }], targetHex: '0900', defenders: ['gr-916'] }), /^gr-916 is out of the game \(surrendered\)\.$/, RULE.units);
  });

  it('no value to fight with: an attack of 0 or a defence of 0 is refused (ruling)', () => {
    refusedBy(given([], options()), declared('a', { attackers: [{ unitId: 'bradley', hex: 'x' }] }), /^The attacking units have no attack value/, RULE.strengths);
    refusedBy(given([], options()), declared('a', { defenders: ['rommel'] }), /^The defending units have no defence value/, RULE.strengths);
  });

  it('bombardment: only artillery, ships and heavy bombers, the Axis only with artillery; anti-aircraft losses only for heavy bombers', () => {
    const units = [...options().units, { unitId: 'de-ship', side: 'axis', kind: 'ship', quality: 'veteran', maxLp: 4 }];
    const bomb = (bombarders: string[], extra: Record<string, unknown> = {}) => ({ targetHex: '0812', targets: ['gr-916'], bombarders: bombarders.map((unitId) => ({ unitId, points: 5 })), identification: 'identified', ...extra });
    const state = given([], options({ units }));
    refusedBy(state, ['allied', 'Bombard', bomb(['us-inf-1'])], /^us-inf-1 is an infantry unit: only artillery, ships and heavy bombers bombard\.$/, RULE.bombard);
    refusedBy(state, ['allied', 'Bombard', bomb(['us-air'])], /only artillery, ships and heavy bombers/, RULE.bombard);
    refusedBy(state, ['allied', 'Bombard', bomb(['us-art'], { antiAircraft: [{ unitId: 'us-art', lp: 1 }] })], /^us-art is not a heavy bomber of this bombardment/, RULE.antiAircraft);
    const axis = given([['allied', 'EndImpulse']], options({ units }));
    refusedBy(axis, ['axis', 'Bombard', { ...bomb(['de-ship']), targets: ['us-inf-1'] }], /^de-ship is a ship unit: the Axis bombards only with artillery\.$/, RULE.bombard);
    const hit = apply(state, ['allied', 'Bombard', bomb(['us-bomber'], { antiAircraft: [{ unitId: 'us-bomber', lp: 1 }] }), [1, 1]]);
    expect(hit.events.map((e) => e.type)).toEqual(['UnitsActivated', 'AntiAircraftLosses', 'FatigueGained', 'BombardmentResolved', 'FatigueGained']);
    expect(unitOf(hit.state, 'us-bomber').lp).toBe(3);
  });

  it('Replenish: Axis points of the turn, one per LP, up to the unit\'s maximum, in the Axis impulse; the points left are lost at the end of the turn', () => {
    const units = options().units.map((u) => (u.unitId === 'gr-916' ? { ...u, lp: 5 } : u.unitId === 'gr-915' ? { ...u, lp: 5 } : u.unitId === 'gr-914' ? { ...u, lp: 7, replenishable: false } : u));
    const o = options({ units, replenishment: { allied: true, axisPointsPerTurn: 4 } });
    refusedBy(given([], o), ['allied', 'Replenish', { units: [{ unitId: 'us-inf-1', lp: 1 }] }], /^Allied units replenish automatically/, RULE.replenishAxis);
    const axis = given([['allied', 'EndImpulse']], o);
    refusedBy(axis, ['axis', 'Replenish', { units: [{ unitId: 'gr-916', lp: 4 }] }], /^gr-916 has 5 of 8 LP: it can regain at most 3\.$/, RULE.replenishAxis);
    refusedBy(axis, ['axis', 'Replenish', { units: [{ unitId: 'gr-914', lp: 1 }] }], /^gr-914 cannot be replenished\.$/, RULE.replenishable);
    refusedBy(axis, ['axis', 'Replenish', { units: [{ unitId: 'us-inf-1', lp: 1 }] }], /^us-inf-1 is a unit of the allied side, not yours\.$/, RULE.units);
    const done = apply(axis, ['axis', 'Replenish', { units: [{ unitId: 'gr-916', lp: 3 }] }]);
    expect(done.events.map((e) => e.type)).toEqual(['UnitsActivated', 'UnitsReplenished']);
    expect(done.events[1].data).toEqual({ side: 'axis', automatic: false, units: [{ unitId: 'gr-916', lp: 3, lpAfter: 8 }], pointsSpent: 3, pointsLeft: 1 });
    refusedBy(done.state, ['axis', 'Replenish', { units: [{ unitId: 'gr-915', lp: 2 }] }], /takes 2 replenishment points; 1 is left this turn/, RULE.replenishAxis);
    const ended = apply(apply(done.state, ['axis', 'EndImpulse']).state, ['axis', 'EndTurn', {}]);
    expect(ended.events.find((e) => e.type === 'ReplenishmentPointsLost')!.data).toEqual({ side: 'axis', points: 1 });
    expect(ended.state.axisReplenishmentPoints).toBe(4);
  });

  it('replenishment: the Axis may replenish only if the Allies may', () => {
    expect(() => given([], options({ replenishment: { allied: false, axisPointsPerTurn: 4 } }))).toThrow(/when the Axis may replenish, so may the Allies/);
  });
});
