import { describe, expect, it } from 'vitest';
import { apply, declaration, given, refused } from './harness';

const turn: [string, string, unknown] = ['organizer', 'StartTurn', { turn: 1 }];
const open = (attacker = 'allied') => given([turn, [attacker, 'BeginAttackIncrement']]);

describe('declaring combats', () => {
  it('records the declaration with its odds', () => {
    const { events } = apply(open(), ['allied', 'DeclareCombat', declaration('c1')]);
    expect(events[0]).toMatchObject({ type: 'CombatDeclared', data: { increment: 1, odds: '6:3', baseColumn: '2-1', declaration: { combatId: 'c1' } } });
  });

  it('belongs to the attacker of the open increment', () => {
    refused(given([turn]), ['allied', 'DeclareCombat', declaration('c1')], /No attack increment is open/);
    refused(open('german'), ['allied', 'DeclareCombat', declaration('c1')], /is the german side's: only it may declare combats/);
    refused(open(), ['german', 'BeginAttackIncrement'], /still open/);
  });

  it('locks once a combat of the increment is resolved', () => {
    const state = given([turn, ['allied', 'BeginAttackIncrement'], ['allied', 'DeclareCombat', declaration('c1')], ['allied', 'ResolveCombat', { combatId: 'c1' }, [3]]]);
    refused(state, ['allied', 'DeclareCombat', declaration('c2', { attackers: [{ unitId: 'x', hex: '1010', strength: 5 }], defenders: [{ unitId: 'y', hex: '1011', strength: 5 }] })], /combats of this increment are locked: combat c1 was already resolved/i);
  });

  it('puts a unit in one combat per increment, attacking or defending', () => {
    const state = given([turn, ['allied', 'BeginAttackIncrement'], ['allied', 'DeclareCombat', declaration('c1')]]);
    refused(state, ['allied', 'DeclareCombat', declaration('c2', { attackers: [{ unitId: 'c1-a', hex: '2708', strength: 6 }] })], /c1-a is already in another combat/);
    refused(state, ['allied', 'DeclareCombat', declaration('c2', { defenders: [{ unitId: 'c1-d', hex: '2709', strength: 3 }] })], /c1-d is already in another combat/);
    refused(state, ['allied', 'DeclareCombat', declaration('c1')], /already declared/);
  });

  it('allows two attacking hexes on one, or one on one or two, all mutually adjacent', () => {
    const state = open();
    const unit = (id: string, hex: string, strength = 4) => ({ unitId: id, hex, strength });
    // 2708 and 2709 are adjacent, and both touch 2809 (odd-q).
    expect(() => apply(state, ['allied', 'DeclareCombat', declaration('two-on-one', { attackers: [unit('a', '2708'), unit('b', '2709')], defenders: [unit('d', '2809')] })])).not.toThrow();
    expect(() => apply(state, ['allied', 'DeclareCombat', declaration('one-on-two', { attackers: [unit('a', '2809')], defenders: [unit('d', '2708'), unit('e', '2709')] })])).not.toThrow();
    refused(state, ['allied', 'DeclareCombat', declaration('line', { attackers: [unit('a', '2707'), unit('b', '2709')], defenders: [unit('d', '2708')] })], /not all adjacent/);
    refused(state, ['allied', 'DeclareCombat', declaration('two-on-two', { attackers: [unit('a', '2708'), unit('b', '2709')], defenders: [unit('d', '2809'), unit('e', '2808')] })], /2 attacking and 2 defending hexes/);
    refused(state, ['allied', 'DeclareCombat', declaration('far', { attackers: [unit('a', '1010')], defenders: [unit('d', '1012')] })], /not all adjacent/);
  });

  it('flips adjacency with the even-q option', () => {
    const unit = (id: string, hex: string) => ({ unitId: id, hex, strength: 4 });
    const evenQ = given([turn, ['allied', 'BeginAttackIncrement']], { hexGrid: 'even-q' });
    const twoOnOne = declaration('c', { attackers: [unit('a', '2708'), unit('b', '2709')], defenders: [unit('d', '2809')] });
    refused(evenQ, ['allied', 'DeclareCombat', twoOnOne], /not all adjacent/);
  });

  it('refuses odds below 1-4', () => {
    refused(open(), ['allied', 'DeclareCombat', declaration('c', { attackers: [{ unitId: 'a', hex: '2708', strength: 1 }], defenders: [{ unitId: 'd', hex: '2709', strength: 9 }] })], /below 1-4/);
  });
});

describe('air power', () => {
  const declared = () => given([turn, ['allied', 'BeginAttackIncrement'], ['allied', 'DeclareCombat', declaration('c1')], ['allied', 'DeclareCombat', declaration('c2', { attackers: [{ unitId: 'x', hex: '1010', strength: 5 }], defenders: [{ unitId: 'y', hex: '1011', strength: 5 }] })]]);

  it('is allocated when the die is at most the availability, and lowers defender morale', () => {
    const rolled = apply(declared(), ['allied', 'RollAirPower', { combatId: 'c1', availability: 3 }, [3]]);
    expect(rolled.events).toEqual([{ type: 'AirPowerAllocated', data: { combatId: 'c1', die: 3, availability: 3, allocated: true, moraleModifier: -1 } }]);
    const resolved = apply(rolled.state, ['allied', 'ResolveCombat', { combatId: 'c1' }, [2]]);
    expect(resolved.events[0].data).toMatchObject({ morale: { otherModifiers: [{ source: 'air power', value: -1 }], adjustedDefender: 2 } });
  });

  it('fails above the availability, and is tried once per increment', () => {
    const failed = apply(declared(), ['allied', 'RollAirPower', { combatId: 'c1', availability: 3 }, [4]]);
    expect(failed.events[0].type).toBe('AirPowerUnavailable');
    refused(failed.state, ['allied', 'RollAirPower', { combatId: 'c2', availability: 6 }, [1]], /already tried in this attack increment/);
  });

  it('is for a declared, unresolved combat of an allied increment', () => {
    refused(declared(), ['allied', 'RollAirPower', { combatId: 'c9', availability: 3 }, [1]], /No combat c9/);
    const resolved = apply(declared(), ['allied', 'ResolveCombat', { combatId: 'c1' }, [2]]).state;
    refused(resolved, ['allied', 'RollAirPower', { combatId: 'c1', availability: 3 }, [1]], /already resolved/);
    const german = given([turn, ['german', 'BeginAttackIncrement']]);
    refused(german, ['allied', 'RollAirPower', { combatId: 'c1', availability: 3 }, [1]], /allied side's own attacks/);
  });

  it('uses the airPowerMoraleModifier option', () => {
    const state = given([turn, ['allied', 'BeginAttackIncrement'], ['allied', 'DeclareCombat', declaration('c1')]], { airPowerMoraleModifier: -2 });
    expect(apply(state, ['allied', 'RollAirPower', { combatId: 'c1', availability: 6 }, [1]]).events[0].data.moraleModifier).toBe(-2);
  });
});

describe('resolving and ending', () => {
  const declared = () => given([turn, ['allied', 'BeginAttackIncrement'], ['allied', 'DeclareCombat', declaration('c1')], ['allied', 'DeclareCombat', declaration('c2', { attackers: [{ unitId: 'x', hex: '1010', strength: 5 }], defenders: [{ unitId: 'y', hex: '1011', strength: 5 }] })]]);

  it('resolves in any order, each exactly once', () => {
    const second = apply(declared(), ['allied', 'ResolveCombat', { combatId: 'c2' }, [6]]);
    expect(second.events[0].data).toMatchObject({ combatId: 'c2', baseColumn: '1-1', die: 6, code: 'D' });
    refused(second.state, ['allied', 'ResolveCombat', { combatId: 'c2' }, [1]], /Combat c2 was already resolved/);
    refused(second.state, ['german', 'ResolveCombat', { combatId: 'c1' }, [1]], /only it may resolve/);
  });

  it('ends only when every combat is resolved', () => {
    const one = apply(declared(), ['allied', 'ResolveCombat', { combatId: 'c1' }, [1]]).state;
    refused(one, ['allied', 'EndAttackIncrement'], /Combat c2 is not resolved yet/);
    const both = apply(one, ['allied', 'ResolveCombat', { combatId: 'c2' }, [1]]).state;
    const ended = apply(both, ['allied', 'EndAttackIncrement']);
    expect(ended.events[0].data).toEqual({ increment: 1, attacker: 'allied', combats: 2 });
    expect(ended.state.increment).toBeNull();
    expect(apply(ended.state, ['german', 'BeginAttackIncrement']).events[0].data).toEqual({ increment: 2, attacker: 'german' });
  });
});
