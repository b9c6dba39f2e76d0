import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { RuleViolation } from '../../../../domain/errors';
import {
  adjustedDefenderMorale,
  baseOddsColumn,
  columnShift,
  controlModifier,
  resolveCombat,
  type CombatSituation,
} from '../../../../domain/rulesets/france44/combatResolution';
import { ODDS_COLUMNS } from '../../../../domain/rulesets/france44/tables';

const column = (label: string) => ODDS_COLUMNS.findIndex((c) => c.label === label);
const options = { cAttackerLoss: false, airPowerMoraleModifier: -1, rulesVersion: 2 } as const;

describe('the source\'s worked examples', () => {
  it('−3 at 3-2 uses the 1-2 column', () => {
    expect(columnShift(column('3-2'), -3)).toEqual({ column: column('1-2'), dieModifier: 0 });
  });
  it('+5 at 1-1 uses the 4-1 column with +1 to the die', () => {
    expect(columnShift(column('1-1'), 5)).toEqual({ column: column('4-1'), dieModifier: 1 });
  });
  it('−3 at 1-3 uses the 1-4 column with −2 to the die', () => {
    expect(columnShift(column('1-3'), -3)).toEqual({ column: column('1-4'), dieModifier: -2 });
  });
  it('attacker morale 4 against defender morale 5 is a morale modifier of −1', () => {
    const situation: CombatSituation = { kind: 'set-piece', attackers: [{ strength: 6 }], defenders: [{ strength: 6 }], attackerMorale: 4, defenderMorale: 5 };
    expect(resolveCombat(situation, options, false, new GivenDice([3])).morale.modifier).toBe(-1);
  });
  it('an attacker of morale 5 (control limit 8) is never penalized with the most units a combat can hold', () => {
    expect(controlModifier(5, 8)).toEqual({ limit: 8, units: 8, modifier: 0 });
    expect(controlModifier(2, 5)).toEqual({ limit: 3, units: 5, modifier: -2 });
    expect(controlModifier(4, 1).modifier).toBe(0);
  });
  it('79th Armoured (−1) and heavy bombing (−2) add up to −3', () => {
    const { adjustment } = adjustedDefenderMorale(4, [], [{ source: '79th Armoured', value: -1 }, { source: 'heavy bombing', value: -2 }]);
    expect(adjustment).toBe(-3);
  });
  it('a fortress hex with a city adjusts morale by +2, not +1 or +3', () => {
    expect(adjustedDefenderMorale(3, [2, 1], []).adjustment).toBe(2);
  });
});

describe('odds', () => {
  it('takes the rightmost column at or below the ratio, favouring the defender', () => {
    expect(baseOddsColumn(20, 14)).toBe(column('1-1')); // 10:7
    expect(baseOddsColumn(30, 20)).toBe(column('3-2'));
    expect(baseOddsColumn(29, 20)).toBe(column('1-1'));
    expect(baseOddsColumn(100, 2)).toBe(column('4-1'));
    expect(baseOddsColumn(2, 8)).toBe(column('1-4'));
    expect(baseOddsColumn(1, 8)).toBeUndefined();
  });

  it('counts an out-of-supply defender at half, exactly', () => {
    const situation: CombatSituation = {
      kind: 'set-piece',
      attackers: [{ strength: 3 }],
      defenders: [{ strength: 3, outOfSupply: true }, { strength: 1 }],
      attackerMorale: 3,
      defenderMorale: 3,
    };
    const result = resolveCombat(situation, options, false, new GivenDice([1]));
    expect(result).toMatchObject({ attack: 3, defence: 2.5, odds: '3:2.5', baseColumn: '1-1' });
  });

  it('counts an HQ\'s strength only when it is given, and never against the control limit', () => {
    const situation: CombatSituation = {
      kind: 'mobile',
      attackers: [{ strength: 2 }, { hq: true }, { hq: true, strength: 2 }],
      defenders: [{ strength: 4 }],
      attackerMorale: 1,
      defenderMorale: 1,
    };
    const result = resolveCombat(situation, options, false, new GivenDice([1]));
    expect(result.attack).toBe(4);
    expect(result.control).toEqual({ limit: 1, units: 1, modifier: 0 });
  });

  it('refuses an attack below 1-4 before any die is drawn', () => {
    const dice = new GivenDice([]);
    const situation: CombatSituation = { kind: 'set-piece', attackers: [{ strength: 1 }], defenders: [{ strength: 5 }], attackerMorale: 3, defenderMorale: 3 };
    expect(() => resolveCombat(situation, options, false, dice)).toThrow(RuleViolation);
    expect(() => resolveCombat(situation, options, false, dice)).toThrow(/below 1-4/);
    expect(dice.drawn).toEqual([]);
  });
});

describe('a whole resolution', () => {
  it('reads the issue\'s example: 10:7 -> 1-1, morale +1, control −1, column 1-1, die 4 -> B', () => {
    const situation: CombatSituation = {
      kind: 'set-piece',
      attackers: [{ strength: 4 }, { strength: 3 }, { strength: 2 }, { strength: 1 }],
      defenders: [{ strength: 7 }],
      attackerMorale: 2,
      defenderMorale: 2,
      terrainMoraleModifiers: [1],
      otherMoraleModifiers: [{ source: 'heavy bombing', value: -2 }],
    };
    const result = resolveCombat(situation, options, false, new GivenDice([4]));
    expect(result).toMatchObject({
      odds: '10:7',
      baseColumn: '1-1',
      morale: { adjustment: -1, adjustedDefender: 1, modifier: 1 },
      control: { limit: 3, units: 4, modifier: -1 },
      combatModifier: 0,
      column: '1-1',
      die: 4,
      code: 'B',
    });
  });

  it('clamps the adjusted die to 1..6 and reads the mobile letter', () => {
    const situation: CombatSituation = { kind: 'mobile', attackers: [{ strength: 40 }], defenders: [{ strength: 1 }], attackerMorale: 6, defenderMorale: 1 };
    const result = resolveCombat(situation, options, false, new GivenDice([6]));
    expect(result).toMatchObject({ column: '4-1', combatModifier: 5, dieModifier: 5, adjustedDie: 6, code: 'C', stepLosses: { defender: 2, attacker: 0 } });
  });

  it('adds air power to the other morale modifiers, and C costs the attacker a step with cAttackerLoss', () => {
    const situation: CombatSituation = { kind: 'set-piece', attackers: [{ strength: 8 }], defenders: [{ strength: 2 }], attackerMorale: 3, defenderMorale: 3 };
    const result = resolveCombat(situation, { cAttackerLoss: true, airPowerMoraleModifier: -1, rulesVersion: 2 }, true, new GivenDice([5]));
    expect(result.morale.otherModifiers).toEqual([{ source: 'air power', value: -1 }]);
    expect(result.morale.adjustedDefender).toBe(2);
    expect(result).toMatchObject({ column: '4-1', dieModifier: 1, adjustedDie: 6, code: 'C', stepLosses: { defender: 2, attacker: 1 } });
  });
});
