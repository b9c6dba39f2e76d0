import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';
import { EXAMPLE_TABLES } from '../../../../domain/rulesets/warsandbattles/exampleTables';
import { apply, endBothImpulses, given, SIX_TO_ONE as sixToOne, TEST_COMBAT_TABLE, unitOf } from './harness';

/** The manual's worked examples (§7.3.3, §7.4.3, §7.4.4, §7.5.2, §8.3.2), each through a procedure and through a game. */
const defaults = warsAndBattlesRuleset.options.parse({});
const evaluate = (procedure: string, input: unknown, dice: number[] = []) => {
  const spec = warsAndBattlesRuleset.procedures[procedure];
  return spec.evaluate(spec.input.parse(input), defaults, new GivenDice(dice)) as { result: Record<string, any>; breakdown: Record<string, any> };
};


describe('the worked examples, on the bundled example tables', () => {
  it('§7.3.3: 6:1, a roll of 5 with +2 is 7: the attacker loses 1 LP, the defender 13 LP and retreats one hex (procedure)', () => {
    const { result, breakdown } = evaluate(
      'combat',
      {
        attackerSide: 'axis',
        attackers: [{ kind: 'armored', attack: 12, lp: 8 }, { kind: 'commander', attack: 0, commander: 'Rommel', lp: 2 }],
        defenders: [{ kind: 'infantry', defence: 2, lp: 16 }],
        terrain: 'hedgerows',
        terrainTable: sixToOne.terrain,
        commanders: sixToOne.commanders,
      },
      [2, 3],
    );
    expect(result).toEqual({ ratio: '6:1', column: '6:1', roll: 7, code: '1/13R', unproven: false, attackerLoss: 1, defenderLoss: 13, retreat: true });
    expect(breakdown.resolution.roll).toMatchObject({ dice: '2d6', faces: [2, 3], natural: 5, modifiers: [{ source: 'commander Rommel (attacker)', value: 2 }], modified: 7 });
    expect(breakdown.resolution.table).toMatchObject({ id: EXAMPLE_TABLES.combat.id, example: true });
    expect(breakdown.allocation.attacker.units).toEqual([{ index: 0, lost: 1, lpAfter: 7 }, { index: 1, lost: 0, lpAfter: 2 }]);
    expect(breakdown.allocation.defender.units).toEqual([{ index: 0, lost: 13, lpAfter: 3 }]);
    expect(breakdown.retreats).toEqual([{ index: 0, route: 'open', outcome: 'retreats one hex', lpLost: 0 }]);
  });

  it('§7.3.3: the same fight in a game: declared, rolled, the LP taken and the defender retreated', () => {
    const state = given([['axis', 'DeclareAttack', { attackId: 'a1', targetHex: '1010', attackers: [{ unitId: 'pz', hex: '1009' }, { unitId: 'rommel', hex: '1009' }], defenders: ['us'], terrain: 'hedgerows' }]], sixToOne);
    const { events, state: after } = apply(state, ['axis', 'ResolveAttack', { attackId: 'a1' }, [4, 1]]);
    expect(events.map((e) => e.type)).toEqual(['AttackResolved', 'LossesAllocated', 'LossesAllocated', 'UnitRetreated', 'FatigueGained', 'FatigueGained', 'FatigueGained']);
    expect(events[0].data).toMatchObject({ attackerLoss: 1, defenderLoss: 13, retreat: true, resolution: { code: '1/13R', roll: { natural: 5, modified: 7 } } });
    expect(events[1].data).toMatchObject({ side: 'attacker', units: [{ unitId: 'pz', lost: 1, lpAfter: 7 }] });
    expect(events[2].data).toMatchObject({ side: 'defender', units: [{ unitId: 'us', lost: 13, lpAfter: 3 }] });
    expect(events[3].data).toEqual({ attackId: 'a1', unitId: 'us', route: 'open', lpLost: 0, lpAfter: 3 });
    expect([unitOf(after, 'pz').lp, unitOf(after, 'us').lp]).toEqual([7, 3]);
    // Fatigue: 15 for the fight, 1 a LP, 10 for the retreat.
    expect([unitOf(after, 'pz').energy, unitOf(after, 'rommel').energy, unitOf(after, 'us').energy]).toEqual([84, 85, 62]);
    expect(warsAndBattlesRuleset.summarize({ type: 'ResolveAttack', payload: {} }, events)).toBe('a1: column 6:1, 2d6 5 +2 = 7 -> 1/13R: attacker -1 LP, defender -13 LP, defender retreats');
  });

  it('§7.5.2: 15 bombardment points and a roll of 7: the stack loses 4 LP (procedure and game)', () => {
    const { result } = evaluate('bombardment', { points: 15, identification: 'identified' }, [3, 4]);
    expect(result).toEqual({ identification: 'identified', effectivePoints: 15, roll: 7, code: '4', unproven: false, loss: 4 });
    const state = given([], { units: [{ unitId: 'art', side: 'allied', kind: 'artillery', quality: 'veteran', maxLp: 4 }, { unitId: 'gr', side: 'axis', kind: 'infantry', quality: 'veteran', maxLp: 8, defence: 2 }] });
    const { events, state: after } = apply(state, ['allied', 'Bombard', { targetHex: '0812', targets: ['gr'], bombarders: [{ unitId: 'art', points: 15 }], identification: 'identified' }, [5, 2]]);
    expect(events.find((e) => e.type === 'BombardmentResolved')!.data).toMatchObject({ points: 15, effectivePoints: 15, loss: 4, resolution: { code: '4', roll: { modified: 7 } } });
    expect(unitOf(after, 'gr')).toMatchObject({ lp: 4, energy: 86 }); // 10 for the bombardment, 1 a LP
  });

  it('§7.4.4: 15 support points give L3, +3 on the roll (procedure and game)', () => {
    expect(evaluate('support', { support: [{ points: 10 }, { points: 5 }] }).result).toEqual({ points: 15, bonus: 3, code: 'L3' });
    const units = [...sixToOne.units, { unitId: 'de-art', side: 'axis', kind: 'artillery', quality: 'veteran', maxLp: 4 }];
    const state = given([], { ...sixToOne, units });
    const declared = apply(state, ['axis', 'DeclareAttack', { attackId: 'a1', targetHex: '1010', attackers: [{ unitId: 'pz', hex: '1009' }], defenders: ['us'], terrain: 'hedgerows', support: [{ unitId: 'de-art', points: 15 }] }]);
    expect(declared.events[1].data).toMatchObject({ modifiers: [{ source: 'support (15 points)', value: 3 }], supportLookup: { points: 15, bonus: 3, lookup: { code: 'L3', roll: null } } });
    const resolved = apply(declared.state, ['axis', 'ResolveAttack', { attackId: 'a1' }, [1, 3]]);
    expect(resolved.events[0].data).toMatchObject({ resolution: { roll: { natural: 4, modified: 7 }, code: '1/13R' } });
  });

  it('§8.3.2: an 8 LP unit that lost 5 LP regains 2 (20% of 8 = 1.6, rounded to the nearest) (procedure and game)', () => {
    expect(evaluate('allied-replenishment', { maxLp: 8, lp: 3 }).result).toEqual({ gained: 2, lpAfter: 5 });
    expect(evaluate('allied-replenishment', { maxLp: 8, lp: 7 }).result).toEqual({ gained: 0, lpAfter: 7 }); // lost 1: under 25%
    const state = given(endBothImpulses, { units: [{ unitId: 'uk', side: 'allied', kind: 'infantry', quality: 'veteran', maxLp: 8, lp: 3 }], replenishment: { allied: true } });
    const { events, state: after } = apply(state, ['allied', 'EndTurn', {}]);
    expect(events.find((e) => e.type === 'UnitsReplenished')!.data).toEqual({ side: 'allied', automatic: true, units: [{ unitId: 'uk', lp: 2, lpAfter: 5, lost: 5 }] });
    expect(unitOf(after, 'uk').lp).toBe(5);
  });

  it('§7.4.3: a defender in marshes gets C2: 5:1 becomes 3:1 (the bundled terrain, a full combat table)', () => {
    const { breakdown } = evaluate(
      'combat',
      { attackerSide: 'allied', attackers: [{ kind: 'infantry', attack: 10 }], defenders: [{ kind: 'infantry', defence: 2 }], terrain: 'marshes', tables: { combat: TEST_COMBAT_TABLE } },
      [3, 4],
    );
    expect(breakdown.shifts).toEqual([{ source: 'terrain: marshes', value: -2 }]);
    expect(breakdown.resolution.landing).toMatchObject({ rounded: '5:1', landedColumn: { label: '5:1' }, column: { label: '3:1' } });
    const state = given([], { units: [{ unitId: 'a', side: 'allied', kind: 'infantry', quality: 'veteran', maxLp: 8, attack: 10 }, { unitId: 'd', side: 'axis', kind: 'infantry', quality: 'veteran', maxLp: 8, defence: 2 }], tables: { ...EXAMPLE_TABLES, combat: TEST_COMBAT_TABLE } });
    const declared = apply(state, ['allied', 'DeclareAttack', { attackId: 'm', targetHex: '0101', attackers: [{ unitId: 'a', hex: '0102' }], defenders: ['d'], terrain: 'marshes' }]);
    expect(declared.events[1].data.landing).toMatchObject({ landedColumn: { label: '5:1' }, column: { label: '3:1' } });
  });
});
