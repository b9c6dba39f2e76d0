import { describe, expect, it } from 'vitest';
import { normandy44Ruleset } from '../../../../domain/rulesets/normandy44';
import { harness } from '../../../support/rulesetHarness';
import { HOSTILE_IDS } from '../hostileIds';

const { given, apply, refused } = harness(normandy44Ruleset);

/** 12:3 in clear terrain is 4-1; die 2 gives DR, which opens Determined Defense. */
const attack = (attackId: string, unitId: string) => ({
  attackId,
  weather: 'overcast',
  defenderHex: { terrain: 'clear' },
  attackers: [{ unitId, factors: 12, mainAttackForce: true }],
  defenders: [{ unitId, factors: 3, steps: 3 }],
});
const viewJson = (state: ReturnType<typeof given>) => JSON.stringify(normandy44Ruleset.present(state));

describe("Normandy '44: every id-bearing command, with ids every JavaScript object has", () => {
  for (const id of HOSTILE_IDS) {
    describe(`id "${id}"`, () => {
      it('is refused as an attack never declared, to resolve or to decide Determined Defense, and the game goes on', () => {
        const state = given([]);
        refused(state, ['allied', 'ResolveAttack', { attackId: id }, [2]], new RegExp(`^Attack ${id} was not declared\\.$`));
        refused(state, ['german', 'DeterminedDefense', { attackId: id, leadUnitId: id }, [6]], new RegExp(`^Attack ${id} was not declared\\.$`));
        refused(state, ['german', 'DeclineDeterminedDefense', { attackId: id }], new RegExp(`^Attack ${id} was not declared\\.$`));
        expect(apply(state, ['allied', 'DeclareAttack', attack('a1', 'u1')]).events[0].data).toMatchObject({ attackId: 'a1', odds: '12:3' });
      });

      it('is an attack and units like any other: declared once, resolved once, Determined Defense once', () => {
        const declared = apply(given([]), ['allied', 'DeclareAttack', attack(id, id)]);
        expect(declared.events[0].data).toMatchObject({ attackId: id, attacker: 'allied', odds: '12:3', baseColumn: '4-1' });
        refused(declared.state, ['allied', 'DeclareAttack', attack(id, id)], new RegExp(`Attack ${id} was already declared`));
        refused(declared.state, ['german', 'ResolveAttack', { attackId: id }, [2]], new RegExp(`Attack ${id} is the allied side's to resolve`));
        const resolved = apply(declared.state, ['allied', 'ResolveAttack', { attackId: id }, [2]]);
        expect(resolved.events[0].data).toMatchObject({ attackId: id, code: 'DR', determinedDefenseAllowed: true });
        expect(viewJson(resolved.state)).toContain(`"openAttacks":[{"attackId":${JSON.stringify(id)},"attacker":"allied","resolved":true,"code":"DR","determinedDefense":"open"}]`);
        refused(resolved.state, ['allied', 'ResolveAttack', { attackId: id }, [2]], new RegExp(`Attack ${id} was already resolved`));
        refused(resolved.state, ['german', 'DeterminedDefense', { attackId: id, leadUnitId: 'ghost' }, [6]], new RegExp(`ghost is not one of the defenders of attack ${id}`));
        const stood = apply(resolved.state, ['german', 'DeterminedDefense', { attackId: id, leadUnitId: id }, [6]]);
        expect(stood.events[0].data).toMatchObject({ attackId: id, leadUnitId: id, die: 6, code: '●EX' });
        expect(stood.state.settled).toBe(1);
        expect(viewJson(stood.state)).toContain('"openAttacks":[]');
        refused(stood.state, ['allied', 'ResolveAttack', { attackId: id }, [2]], new RegExp(`^Attack ${id} is settled\\.$`));
        refused(stood.state, ['german', 'DeclineDeterminedDefense', { attackId: id }], new RegExp(`Determined Defense is no longer open for attack ${id}`));
      });

      it('is declined like any other attack', () => {
        const resolved = given([['allied', 'DeclareAttack', attack(id, id)], ['allied', 'ResolveAttack', { attackId: id }, [2]]]);
        const declined = apply(resolved, ['german', 'DeclineDeterminedDefense', { attackId: id }]);
        expect(declined.events).toEqual([{ type: 'DeterminedDefenseDeclined', data: { attackId: id } }]);
        expect(viewJson(declined.state)).toContain('"attacksSettled":1,"openAttacks":[]');
      });

      it('names the target of strafing and the unit of isolation attrition like any other', () => {
        expect(apply(given([]), ['allied', 'Strafe', { targetUnitId: id }, [6]]).events[0].data).toMatchObject({ targetUnitId: id, die: 6, stepLoss: 1 });
        expect(apply(given([]), ['german', 'IsolationAttrition', { unitId: id, canTraceSupply: false, troopQuality: 0 }, [4]]).events[0].data).toMatchObject({ side: 'german', unitId: id, stepLoss: 1 });
      });
    });
  }
});
