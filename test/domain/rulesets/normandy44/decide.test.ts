import { describe, expect, it } from 'vitest';
import { normandy44Ruleset } from '../../../../domain/rulesets/normandy44';
import type { Step } from '../../../support/rulesetHarness';
import { apply, declaration as attack, given, refused } from './harness';
/** 12:3 is 4-1: die 1 EX, 2 DR, 3 DR, 4 A1/D1, 5 D1, 6 D1. At 1-1 (3:3): die 1 A1, 4 EX. */
const resolvedWith = (die: number, extra: Record<string, unknown> = {}): Step[] => [
  ['allied', 'DeclareAttack', attack('a1', extra)],
  ['allied', 'ResolveAttack', { attackId: 'a1' }, [die]],
];

describe('attacks', () => {
  it('are declared once, with their odds, and resolved once by their attacker', () => {
    const declared = apply(given([]), ['allied', 'DeclareAttack', attack('a1')]);
    expect(declared.events[0].data).toMatchObject({ attackId: 'a1', attacker: 'allied', odds: '12:3', baseColumn: '4-1' });
    refused(declared.state, ['allied', 'DeclareAttack', attack('a1')], /already declared/);
    refused(declared.state, ['german', 'ResolveAttack', { attackId: 'a1' }, [1]], /the allied side's to resolve/);
    const resolved = apply(declared.state, ['allied', 'ResolveAttack', { attackId: 'a1' }, [2]]);
    expect(resolved.events[0].data).toMatchObject({ code: 'DR', retreat: 2, determinedDefenseAllowed: true, column: '4-1' });
    refused(resolved.state, ['allied', 'ResolveAttack', { attackId: 'a1' }, [2]], /already resolved/);
    refused(given([]), ['allied', 'ResolveAttack', { attackId: 'zz' }, [2]], /was not declared/);
  });

  it('roll Jabos first for a German attack in clear weather', () => {
    const state = given([['german', 'DeclareAttack', attack('g1', { weather: 'clear' })]]);
    const { events } = apply(state, ['german', 'ResolveAttack', { attackId: 'g1' }, [5, 6]]);
    expect(events[0].data).toMatchObject({ column: '2-1', code: 'A1/D1', breakdown: { jabos: { die: 5, shift: 2 }, die: 6 } });
  });
});

describe('Determined Defense', () => {
  for (const [die, code] of [[2, 'DR'], [4, 'A1/D1'], [5, 'D1']] as const) {
    it(`is open to the defender after ${code}`, () => {
      const state = given(resolvedWith(die));
      const { events } = apply(state, ['german', 'DeterminedDefense', { attackId: 'a1', leadUnitId: 'a1-d', troopQuality: 1 }, [4]]);
      expect(events[0].data).toMatchObject({ column: 'flooded-clear', die: 4, modifiedDie: 5, code: '-1', retreatCancelled: false, leadUnitSteps: 1 });
    });
  }

  it('is open after A1/DR', () => {
    const state = given([['allied', 'DeclareAttack', attack('a1', { attackers: [{ unitId: 'x', factors: 9, mainAttackForce: true }] })], ['allied', 'ResolveAttack', { attackId: 'a1' }, [1]]]);
    expect(state.open.a1.code).toBe('A1/DR');
    expect(apply(state, ['german', 'DeclineDeterminedDefense', { attackId: 'a1' }]).events[0].type).toBe('DeterminedDefenseDeclined');
  });

  it('is refused after A1, EX, A1/D2 and DH', () => {
    const at = (attackers: number, defenders: number, die: number, steps = 3) =>
      given([
        ['allied', 'DeclareAttack', attack('a1', { attackers: [{ unitId: 'x', factors: attackers, mainAttackForce: true }], defenders: [{ unitId: 'a1-d', factors: defenders, steps }] })],
        ['allied', 'ResolveAttack', { attackId: 'a1' }, [die]],
      ]);
    const cases = [at(3, 3, 1), at(12, 3, 1), at(18, 2, 4, 6), at(18, 2, 5, 6)];
    expect(cases.map((s) => s.attackIds.length && Object.keys(s.open).length)).toEqual([0, 0, 0, 0]);
    for (const state of cases) {
      refused(state, ['german', 'DeterminedDefense', { attackId: 'a1', leadUnitId: 'a1-d' }, [6]], /no longer open.*allowed none/);
      refused(state, ['german', 'DeclineDeterminedDefense', { attackId: 'a1' }], /no longer open/);
    }
  });

  it('is decided once', () => {
    const rolled = given([...resolvedWith(2), ['german', 'DeterminedDefense', { attackId: 'a1', leadUnitId: 'a1-d' }, [6]]]);
    refused(rolled, ['german', 'DeterminedDefense', { attackId: 'a1', leadUnitId: 'a1-d' }, [6]], /no longer open/);
    const declined = given([...resolvedWith(2), ['german', 'DeclineDeterminedDefense', { attackId: 'a1' }]]);
    refused(declined, ['german', 'DeterminedDefense', { attackId: 'a1', leadUnitId: 'a1-d' }, [6]], /no longer open/);
  });

  it('is the defender\'s alone (403 for the attacker), for a resolved attack and one of its defenders', () => {
    refused(given(resolvedWith(2)), ['allied', 'DeterminedDefense', { attackId: 'a1', leadUnitId: 'a1-d' }, [6]], /defender's choice/, 'forbidden');
    refused(given([['allied', 'DeclareAttack', attack('a1')]]), ['german', 'DeclineDeterminedDefense', { attackId: 'a1' }], /not resolved yet/);
    refused(given(resolvedWith(2)), ['german', 'DeterminedDefense', { attackId: 'a1', leadUnitId: 'ghost' }, [6]], /ghost is not one of the defenders/);
  });

  it('takes troop quality or the armor comparison, never both', () => {
    const schema = normandy44Ruleset.commands.DeterminedDefense.schema;
    expect(schema.safeParse({ attackId: 'a', leadUnitId: 'b', troopQuality: 1, armorComparison: 1 }).success).toBe(false);
    expect(schema.safeParse({ attackId: 'a', leadUnitId: 'b', armorComparison: -2, defensiveSupport: true }).success).toBe(true);
  });
});

describe('reinforcement points', () => {
  const turn = (points: number, turn = 1): Step => ['organizer', 'StartTurn', { turn, reinforcementPoints: points }];

  it('buy within the turn\'s budget and refuse overspending', () => {
    const bought = apply(given([turn(7)]), ['allied', 'PurchaseReinforcements', { items: [{ kind: 'british-armored-brigade' }, { kind: 'hq' }] }]);
    expect(bought.events[0].data).toMatchObject({ cost: 6, pointsLeft: 1 });
    refused(bought.state, ['allied', 'PurchaseReinforcements', { items: [{ kind: 'armor-2-step' }] }], /cost 2 points; 1 are left/);
    expect(apply(bought.state, ['allied', 'PurchaseReinforcements', { items: [{ kind: 'one-step-unit' }] }]).state.reinforcementPoints).toBe(0);
  });

  it('are lost at the next turn (ruling)', () => {
    const { events, state } = apply(given([turn(5)]), ['allied', 'StartTurn', { turn: 2, reinforcementPoints: 3 }]);
    expect(events[0].data).toEqual({ turn: 2, reinforcementPoints: 3, forfeited: 5 });
    expect(state.reinforcementPoints).toBe(3);
  });

  it('buy supply points only once that army\'s Mulberry is built, once', () => {
    const state = given([turn(9)]);
    refused(state, ['allied', 'PurchaseReinforcements', { items: [{ kind: 'supply-point', army: 'omaha' }] }], /needs the omaha Mulberry/);
    const built = apply(state, ['allied', 'MulberryBuilt', { army: 'omaha' }]).state;
    expect(apply(built, ['allied', 'PurchaseReinforcements', { items: [{ kind: 'supply-point', army: 'omaha' }] }]).events[0].data.cost).toBe(3);
    refused(built, ['allied', 'PurchaseReinforcements', { items: [{ kind: 'supply-point', army: 'arromanches' }] }], /arromanches Mulberry/);
    refused(built, ['allied', 'MulberryBuilt', { army: 'omaha' }], /already built/);
  });
});

describe('strafing and isolation', () => {
  it('strafe with Flak and strategic movement modifiers', () => {
    expect(apply(given([]), ['allied', 'Strafe', { targetUnitId: 'Pz', flak: true }, [6]]).events[0].data).toMatchObject({ modifiedDie: 5, stepLoss: 0 });
    expect(apply(given([]), ['allied', 'Strafe', { targetUnitId: 'Pz', strategicMovement: true }, [5]]).events[0].data).toMatchObject({ modifiedDie: 6, stepLoss: 1 });
  });

  it('isolation: +2 with a supply line, plus troop quality', () => {
    const { events } = apply(given([]), ['german', 'IsolationAttrition', { unitId: '709', canTraceSupply: true, troopQuality: -1 }, [3]]);
    expect(events[0].data).toMatchObject({ side: 'german', unitId: '709', die: 3, modifiedDie: 4, stepLoss: 1 });
  });
});
