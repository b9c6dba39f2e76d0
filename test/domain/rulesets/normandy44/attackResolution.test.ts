import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { RuleViolation } from '../../../../domain/errors';
import { armorAdvantageRefusal, attackerFactors, checkAttack, resolveAttack, terrainShiftReason, type Attack, type Attacker } from '../../../../domain/rulesets/normandy44/attackResolution';
import { determinedDefenseColumn } from '../../../../domain/rulesets/normandy44/otherRolls';
import { combatEffects } from '../../../../domain/rulesets/normandy44/resultEffects';

import { attack, maf } from './harness';

describe('attack factors', () => {
  it('halve a unit at most once, whatever the number of reasons', () => {
    const [unit] = attackerFactors(attack({ attackers: [{ factors: 7, mainAttackForce: false, hexside: 'minor-river', outOfSupply: true, landingTurn: true }] }), 'allied');
    expect(unit.halvedFor).toHaveLength(4);
    expect(unit.counted).toBe(3.5);
  });

  it('count at most 18 a side; the defender\'s 18 include its BDC', () => {
    const big = checkAttack(attack({ attackers: [maf(12), maf(10)], defenders: [{ factors: 15, steps: 4 }], defenderHex: { terrain: 'city' } }), 'allied');
    expect(big.attack).toEqual({ total: 22, counted: 18, capped: true });
    expect(big.defence).toEqual({ factors: 15, bdc: 5, total: 20, counted: 18, capped: true });
    expect(big.odds).toBe('18:18');
  });

  it('keep halves exact in the odds', () => {
    const checked = checkAttack(attack({ attackers: [maf(5), { factors: 3, mainAttackForce: false }], defenders: [{ factors: 2, steps: 1 }] }), 'allied');
    expect(checked.odds).toBe('6.5:2');
    expect(checked.baseColumn).toBe(4); // 3-1
  });

  it('need a main attack force, factors, and odds of 1-3 or better', () => {
    expect(() => checkAttack(attack({ attackers: [{ factors: 6, mainAttackForce: false }] }), 'allied')).toThrow(/main attack force/);
    expect(() => checkAttack(attack({ attackers: [maf(0)] }), 'allied')).toThrow(/no attack factors/);
    expect(() => checkAttack(attack({ attackers: [maf(1)], defenders: [{ factors: 4, steps: 1 }] }), 'allied')).toThrow(/below 1-3/);
    expect(checkAttack(attack({ attackers: [maf(1)], defenders: [{ factors: 3, steps: 1 }] }), 'allied').baseColumn).toBe(0);
  });
});

describe('terrain', () => {
  it('adds the hex\'s BDC to the defence', () => {
    const bdc = (terrain: Attack['defenderHex']['terrain']) => checkAttack(attack({ defenderHex: { terrain }, attackers: [maf(18)] }), 'allied').defence.bdc;
    expect(['clear', 'mixed', 'bocage', 'woods', 'village', 'city', 'flooded'].map((t) => bdc(t as never))).toEqual([0, 2, 3, 2, 4, 5, 0]);
  });

  it('halves attackers across a minor river, major river, flooded hexside, runway or causeway', () => {
    for (const hexside of ['minor-river', 'major-river', 'flooded', 'runway', 'causeway'] as const) {
      expect(attackerFactors(attack({ attackers: [maf(6, { hexside })] }), 'german')[0].counted).toBe(3);
    }
    expect(attackerFactors(attack({ attackers: [maf(6, { hexside: 'none' })] }), 'german')[0].counted).toBe(6);
  });

  it('halves only Allied attackers across the Cherbourg perimeter', () => {
    const across = attack({ attackers: [maf(6, { hexside: 'cherbourg-perimeter' })] });
    expect(attackerFactors(across, 'allied')[0].counted).toBe(3);
    expect(attackerFactors(across, 'german')[0].counted).toBe(6);
  });

  it('refuses an attack across an impassable hexside', () => {
    expect(() => checkAttack(attack({ attackers: [maf(6), maf(2, { hexside: 'impassable' })] }), 'allied')).toThrow(RuleViolation);
  });

  it('halves attackers into a flooded hex, unless from a flooded hex across a flooded hexside — which still halves, once', () => {
    const into = (a: Attacker) => attackerFactors(attack({ defenderHex: { terrain: 'flooded' }, attackers: [a] }), 'allied')[0];
    expect(into(maf(6))).toMatchObject({ counted: 3, halvedFor: ['into a flooded hex'] });
    expect(into(maf(6, { fromFloodedHex: true, hexside: 'flooded' }))).toMatchObject({ counted: 3, halvedFor: ['across a flooded hexside'] });
    expect(into(maf(6, { fromFloodedHex: true }))).toMatchObject({ counted: 3, halvedFor: ['into a flooded hex'] });
  });

  it('shifts one column left for terrain, at most once', () => {
    expect(terrainShiftReason(attack({ defenderHex: { terrain: 'woods', hilltop: true } }))).toBe('hilltop');
    expect(terrainShiftReason(attack({ defenderHex: { terrain: 'flooded' } }))).toBe('flooded hex');
    // Every MAF unit from a flooded hex across a flooded hexside waives the flooded hex…
    expect(terrainShiftReason(attack({ defenderHex: { terrain: 'flooded' }, attackers: [maf(4, { fromFloodedHex: true, hexside: 'flooded' })] }))).toMatch(/every MAF unit/);
    // …but that is still "every MAF unit across a flooded hexside": one shift.
    expect(terrainShiftReason(attack({ attackers: [maf(4, { hexside: 'major-river' }), maf(3, { hexside: 'causeway' }), maf(2, { fromFloodedHex: true })] }))).toMatch(/every MAF unit/);
    expect(terrainShiftReason(attack({ attackers: [maf(4, { hexside: 'major-river' }), maf(3)] }))).toBeUndefined();
    expect(terrainShiftReason(attack({ attackers: [maf(4, { hexside: 'major-river' }), { factors: 3, mainAttackForce: false }] }))).toMatch(/every MAF unit/);
    const all = resolveAttack(attack({ defenderHex: { terrain: 'flooded', hilltop: true }, attackers: [maf(18, { hexside: 'major-river' })] }), 'allied', new GivenDice([1]));
    expect(all.breakdown.shifts.filter((s) => s.shift.startsWith('terrain'))).toHaveLength(1);
  });

  it('allows the attacker\'s armor advantage only where the chart does, and says why not', () => {
    const into = (defenderHex: Attack['defenderHex'], attackers = [maf(6)]) => armorAdvantageRefusal(attack({ defenderHex, attackers }));
    for (const terrain of ['clear', 'mixed', 'bocage', 'village'] as const) expect(into({ terrain })).toBeUndefined();
    expect(into({ terrain: 'bocage', hilltop: true })).toBeUndefined();
    expect(into({ terrain: 'woods', hilltop: true })).toBe('not into woods');
    for (const terrain of ['woods', 'city', 'flooded'] as const) expect(into({ terrain })).toBe(`not into ${terrain}`);
    expect(into({ terrain: 'clear', strongpoint: true })).toBe('not into a strongpoint');
    expect(into({ terrain: 'clear', fortifiedPosition: true })).toBe('not into a fortified position');
    expect(into({ terrain: 'clear' }, [maf(6, { fromFloodedHex: true })])).toBe('not when a MAF unit attacks from a flooded hex');
    expect(into({ terrain: 'clear' }, [maf(6, { hexside: 'minor-river' }), maf(2, { hexside: 'runway' })])).toBeUndefined();
    expect(into({ terrain: 'clear' }, [maf(6, { hexside: 'major-river' })])).toBe('not across a major-river hexside');
    expect(into({ terrain: 'clear' }, [maf(6), { factors: 2, mainAttackForce: false, hexside: 'causeway' }])).toBeUndefined();
  });

  it('applies the defender\'s armor advantage whatever the terrain', () => {
    const { breakdown } = resolveAttack(attack({ defenderHex: { terrain: 'city' }, attackers: [maf(18)], shifts: { armorAdvantage: 'defender' } }), 'allied', new GivenDice([1]));
    expect(breakdown.shifts).toEqual([{ shift: 'armor advantage (defender)', columns: -1, applied: true }]);
  });

  it('picks the Determined Defense column of the hex', () => {
    expect(determinedDefenseColumn({ terrain: 'clear', strongpoint: true })).toBe('strongpoint-city');
    expect(determinedDefenseColumn({ terrain: 'city', fortifiedPosition: true })).toBe('strongpoint-city');
    expect(determinedDefenseColumn({ terrain: 'woods', fortifiedPosition: true })).toBe('fortified-position');
    expect(determinedDefenseColumn({ terrain: 'flooded' })).toBe('flooded-clear');
    expect(determinedDefenseColumn({ terrain: 'clear', hilltop: true })).toBe('flooded-clear');
    expect(determinedDefenseColumn({ terrain: 'bocage' })).toBe('other');
  });
});

describe('shifts and dice', () => {
  it('nets the shifts and loses the excess past the table\'s edges', () => {
    const right = resolveAttack(attack({ attackers: [maf(18)], defenders: [{ factors: 3, steps: 2 }], shifts: { airSupport: 2, hq: 2, naval: true, troopQuality: 'attacker' } }), 'allied', new GivenDice([6]));
    expect(right.breakdown).toMatchObject({ baseColumn: '6-1', netShift: 6, shiftsLost: 5, column: '7-1+', code: 'DH' });
    const left = resolveAttack(attack({ attackers: [maf(2)], defenders: [{ factors: 5, steps: 2 }], shifts: { tiger: 'defender', troopQuality: 'defender' } }), 'allied', new GivenDice([6]));
    expect(left.breakdown).toMatchObject({ baseColumn: '1-3', netShift: -2, shiftsLost: -2, column: '1-3', code: 'EX' });
  });

  it('rolls Jabos first, and only for a German attack in clear weather', () => {
    const german = new GivenDice([6, 3]);
    const result = resolveAttack(attack({ weather: 'clear', attackers: [maf(12)], defenders: [{ factors: 3, steps: 2 }] }), 'german', german);
    expect(german.drawn).toHaveLength(2);
    expect(result.breakdown).toMatchObject({ jabos: { die: 6, shift: 3 }, baseColumn: '4-1', column: '1-1', die: 3, code: 'A1/DR' });
    for (const [side, weather] of [['allied', 'clear'], ['german', 'overcast'], ['german', 'storm']] as const) {
      const dice = new GivenDice([3, 3]);
      expect(resolveAttack(attack({ weather }), side, dice).breakdown).not.toHaveProperty('jabos');
      expect(dice.drawn).toHaveLength(1);
    }
  });

  it('checks the rules before any die', () => {
    const dice = new GivenDice([]);
    expect(() => resolveAttack(attack({ weather: 'clear', attackers: [maf(1)], defenders: [{ factors: 9, steps: 1 }] }), 'german', dice)).toThrow(/below 1-3/);
    expect(dice.drawn).toEqual([]);
  });
});

describe('result effects', () => {
  it('spell out each code as numbers and flags', () => {
    expect(combatEffects('A1', 3)).toEqual({ attackerSteps: 1, defenderSteps: 0, retreat: 0, determinedDefenseAllowed: false, disorganized: false, advance: 'none' });
    expect(combatEffects('A1/DR', 3)).toMatchObject({ attackerSteps: 1, retreat: 2, determinedDefenseAllowed: true, advance: 'normal' });
    expect(combatEffects('D1', 3)).toMatchObject({ defenderSteps: 1, retreat: 2, determinedDefenseAllowed: true });
    expect(combatEffects('EX', 3)).toMatchObject({ attackerSteps: 1, defenderSteps: 1, retreat: 0, advance: 'none' });
    expect(combatEffects('A1/D2', 3)).toEqual({ attackerSteps: 1, defenderSteps: 2, retreat: 4, determinedDefenseAllowed: false, disorganized: true, advance: 'normal-or-reserve' });
    expect(combatEffects('DH', 5)).toMatchObject({ defenderSteps: 3, retreat: 4, disorganized: true, advance: 'normal-or-reserve' });
  });

  it('EX against a single step engaged: limited advance; A1/D2 against one step: the attacker loses none', () => {
    expect(combatEffects('EX', 1)).toMatchObject({ advance: 'limited', defenderSteps: 1 });
    expect(combatEffects('A1/D2', 1)).toMatchObject({ attackerSteps: 0, defenderSteps: 1 });
  });

  it('ruling — no survivors: no retreat, no Determined Defense, not disorganized', () => {
    expect(combatEffects('D1', 1)).toEqual({ attackerSteps: 0, defenderSteps: 1, retreat: 0, determinedDefenseAllowed: false, disorganized: false, advance: 'normal' });
    expect(combatEffects('DH', 1)).toMatchObject({ defenderSteps: 1, retreat: 0, disorganized: false, advance: 'normal-or-reserve' });
    expect(combatEffects('A1/D2', 2)).toMatchObject({ defenderSteps: 2, retreat: 0, disorganized: false });
  });
});
