import { describe, expect, it } from 'vitest';
import { france44Ruleset } from '../../../../domain/rulesets/france44';
import type { Step } from '../../../support/rulesetHarness';
import { HOSTILE_IDS } from '../hostileIds';
import { apply, declaration, given, refused } from './harness';

const turn: Step = ['organizer', 'StartTurn', { turn: 1, reactionPoints: { allied: 9, german: 9 } }];
const openIncrement = () => given([turn, ['allied', 'BeginAttackIncrement']]);
const viewJson = (state: ReturnType<typeof given>) => JSON.stringify(france44Ruleset.present(state));

describe('France 1944: the reproduced cases of ids every JavaScript object has', () => {
  it('refuses air power for combat "toString", never declared, and the increment still ends', () => {
    const state = openIncrement();
    refused(state, ['allied', 'RollAirPower', { combatId: 'toString', availability: 6 }, [1]], /^No combat toString was declared in this attack increment\.$/);
    expect(apply(state, ['allied', 'EndAttackIncrement']).events).toEqual([{ type: 'AttackIncrementEnded', data: { increment: 1, attacker: 'allied', combats: 0 } }]);
  });

  for (const combatId of ['constructor', '__proto__', 'valueOf', 'hasOwnProperty']) {
    it(`refuses to resolve combat "${combatId}", never declared, as a rule violation`, () => {
      refused(openIncrement(), ['allied', 'ResolveCombat', { combatId }, [1]], new RegExp(`^No combat ${combatId} was declared in this attack increment\\.$`));
    });
  }

  it('activates HQ "constructor" twice a game turn, counting 1 then 2, and refuses a third time', () => {
    const first = apply(given([turn]), ['allied', 'ActivateHQ', { hqId: 'constructor' }]);
    expect(first.events).toEqual([{ type: 'HQActivated', data: { side: 'allied', hqId: 'constructor', via: 'initiative', activationsThisTurn: 1 } }]);
    const second = apply(first.state, ['allied', 'ActivateHQ', { hqId: 'constructor' }]);
    expect(second.events[0].data.activationsThisTurn).toBe(2);
    refused(second.state, ['allied', 'ActivateHQ', { hqId: 'constructor' }], /HQ constructor was already activated twice this game turn/);
  });
});

describe('France 1944: every id-bearing command, with ids every JavaScript object has', () => {
  for (const id of HOSTILE_IDS) {
    describe(`id "${id}"`, () => {
      it('is an HQ like any other: an army reaction and an initiative activation count two, a third is refused', () => {
        const army = given([turn, ['allied', 'BeginReactionSegment'], ['allied', 'ReactionPhase', { kind: 'army', hqId: id }], ['allied', 'EndReactionSegment']]);
        const initiative = apply(army, ['allied', 'ActivateHQ', { hqId: id }]);
        expect(initiative.events[0].data).toEqual({ side: 'allied', hqId: id, via: 'initiative', activationsThisTurn: 2 });
        refused(initiative.state, ['allied', 'ActivateHQ', { hqId: id }], /already activated twice/);
        expect(apply(initiative.state, ['allied', 'ActivateHQ', { hqId: 'another' }]).events[0].data.activationsThisTurn).toBe(1);
        expect(apply(initiative.state, ['german', 'ActivateHQ', { hqId: id }]).events[0].data.activationsThisTurn).toBe(1);
      });

      it('shows in the view as an HQ id, as data', () => {
        const state = given([turn, ['german', 'ActivateHQ', { hqId: id }]]);
        expect(viewJson(state)).toContain(`"german":{"byHq":{${JSON.stringify(id)}:1},"last":${JSON.stringify(id)}}`);
      });

      it('is a unit like any other in single-piece reaction phases', () => {
        const state = given([turn, ['german', 'BeginReactionSegment']]);
        const combatUnit = apply(state, ['german', 'ReactionPhase', { kind: 'single-piece', unitId: id, unitKind: 'combat' }]);
        expect(combatUnit.events).toEqual([
          { type: 'ReactionPhaseTaken', data: { side: 'german', kind: 'single-piece', unitId: id, unitKind: 'combat', outOfSupply: false, cost: 1, pointsLeft: 8 } },
        ]);
        refused(combatUnit.state, ['german', 'ReactionPhase', { kind: 'single-piece', unitId: id, unitKind: 'combat' }], new RegExp(`${id} was already activated in this reaction segment`));
        const hq = apply(state, ['german', 'ReactionPhase', { kind: 'single-piece', unitId: id, unitKind: 'hq' }]);
        expect(hq.events[0]).toEqual({ type: 'HQActivated', data: { side: 'german', hqId: id, via: 'single-piece-reaction', activationsThisTurn: 1 } });
        expect(apply(hq.state, ['german', 'EndReactionSegment']).events[0].data).toEqual({ side: 'german', spent: 1, forfeited: 2, pointsLeft: 6 });
      });

      it('is refused as a combat never declared, for air power and for resolution, and the increment still ends', () => {
        const state = openIncrement();
        refused(state, ['allied', 'RollAirPower', { combatId: id, availability: 6 }, [1]], new RegExp(`^No combat ${id} was declared in this attack increment\\.$`));
        refused(state, ['allied', 'ResolveCombat', { combatId: id }, [1]], new RegExp(`^No combat ${id} was declared in this attack increment\\.$`));
        expect(apply(state, ['allied', 'EndAttackIncrement']).events[0].data).toEqual({ increment: 1, attacker: 'allied', combats: 0 });
      });

      it('is a combat and units like any other: declared once, air power, resolved once, then the increment ends', () => {
        const combat = declaration(id, { attackers: [{ unitId: id, hex: '2708', strength: 6 }], defenders: [{ unitId: id, hex: '2709', strength: 3 }] });
        const declared = apply(openIncrement(), ['allied', 'DeclareCombat', combat]);
        expect(declared.events).toEqual([{ type: 'CombatDeclared', data: { increment: 1, declaration: combat, odds: '6:3', baseColumn: '2-1' } }]);
        refused(declared.state, ['allied', 'DeclareCombat', combat], new RegExp(`Combat ${id} is already declared`));
        refused(declared.state, ['allied', 'EndAttackIncrement'], new RegExp(`Combat ${id} is not resolved yet`));
        const air = apply(declared.state, ['allied', 'RollAirPower', { combatId: id, availability: 6 }, [1]]);
        expect(air.events).toEqual([{ type: 'AirPowerAllocated', data: { combatId: id, die: 1, availability: 6, allocated: true, moraleModifier: -1 } }]);
        const resolved = apply(air.state, ['allied', 'ResolveCombat', { combatId: id }, [4]]);
        expect(resolved.events[0].data).toMatchObject({ combatId: id, baseColumn: '2-1', morale: { adjustedDefender: 2 }, die: 4, code: 'D' });
        expect(viewJson(resolved.state)).toContain(`"combats":[{"combatId":${JSON.stringify(id)},"airPower":true,"resolved":true,"code":"D"}]`);
        refused(resolved.state, ['allied', 'ResolveCombat', { combatId: id }, [4]], new RegExp(`Combat ${id} was already resolved`));
        expect(apply(resolved.state, ['allied', 'EndAttackIncrement']).events[0].data).toEqual({ increment: 1, attacker: 'allied', combats: 1 });
      });

      it('names a unit in supply attrition like any other', () => {
        const { events } = apply(given([turn]), ['german', 'ApplySupplyAttrition', { units: [{ unitId: id, kind: 'combat', outOfSupply: true }] }]);
        expect(events).toEqual([
          { type: 'UnitStepLost', data: { side: 'german', unitId: id, reason: 'out of supply' } },
          { type: 'SupplyAttritionApplied', data: { side: 'german', checked: 1, losses: 1 } },
        ]);
        const twice = { units: [{ unitId: id, kind: 'combat', outOfSupply: false }, { unitId: id, kind: 'hq', outOfSupply: false }] };
        refused(given([turn]), ['german', 'ApplySupplyAttrition', twice], new RegExp(`${id} is listed twice`));
      });
    });
  }
});
