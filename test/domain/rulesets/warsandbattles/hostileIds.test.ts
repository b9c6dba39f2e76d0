import { describe, expect, it } from 'vitest';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';
import type { WarsAndBattlesState } from '../../../../domain/rulesets/warsandbattles/state';
import { HOSTILE_IDS } from '../hostileIds';
import { apply, given, options, refused, TEST_TABLES, unitOf } from './harness';

const viewJson = (state: WarsAndBattlesState) => JSON.stringify(warsAndBattlesRuleset.present(state));
/** A state as a snapshot gives it back: through JSON, so records lose their null prototype. */
const thawed = (state: WarsAndBattlesState): WarsAndBattlesState => JSON.parse(JSON.stringify(state));

describe('Wars and Battles: ids, divisions, hexes, terrain and commander names that every JavaScript object has', () => {
  for (const id of HOSTILE_IDS) {
    describe(`"${id}"`, () => {
      const game = {
        units: [
          { unitId: id, side: 'allied', kind: 'armored', division: id, quality: 'veteran', maxLp: 8, attack: 8, defence: 4 },
          { unitId: 'inf', side: 'allied', kind: 'infantry', division: id, quality: 'veteran', maxLp: 8, attack: 4, defence: 4 },
          { unitId: 'gun', side: 'allied', kind: 'artillery', quality: 'veteran', maxLp: 4 },
          { unitId: 'boss', side: 'allied', kind: 'commander', quality: 'elite', maxLp: 2, commander: id },
          { unitId: 'x', side: 'axis', kind: 'infantry', division: id, quality: 'veteran', maxLp: 8, defence: 4 },
        ],
        tables: TEST_TABLES,
        terrain: [{ terrain: id, c: 1 }],
        commanders: [{ commander: id, attack: { c: 1, l: 1 } }],
        replenishment: { allied: true },
      };

      it('is refused as a unit or an attack the game does not have, and the game goes on', () => {
        const state = given([], options());
        refused(state, ['allied', 'Activate', { unitIds: [id] }], new RegExp(`^This game has no unit ${id}\\.$`));
        refused(state, ['allied', 'ResolveAttack', { attackId: id }], new RegExp(`^Attack ${id} was not declared\\.$`));
        refused(state, ['allied', 'DeclareAttack', { attackId: 'a', targetHex: 'h', attackers: [{ unitId: 'us-inf-1', hex: 'g' }], defenders: ['gr-916'], terrain: id }], new RegExp(`^The terrain table has no "${id}"`));
        expect(apply(state, ['allied', 'Activate', { unitIds: ['us-inf-1'] }]).events[0].data.unitIds).toEqual(['us-inf-1']);
      });

      it('is a unit, a division, a hex, a terrain, a commander and an attack like any other, before and after a snapshot', () => {
        const declared = apply(given([], game), ['allied', 'DeclareAttack', { attackId: id, targetHex: id, attackers: [{ unitId: id, hex: id }, { unitId: 'inf', hex: id }, { unitId: 'boss', hex: id }], defenders: ['x'], terrain: id }]);
        const data = declared.events[1].data as Record<string, any>;
        expect(data).toMatchObject({ attackId: id, targetHex: id, terrain: id, divisionalIntegrity: { attacker: [id], defender: [id] }, ratio: { attack: 12, defence: 4 } });
        expect(data.shifts.map((s: { value: number }) => s.value)).toEqual([1, -1, 1, -1, 1]);
        expect(data.modifiers).toEqual([{ source: `commander ${id} (attacker)`, value: 1 }]);
        expect(viewJson(declared.state)).toContain(`"openAttack":{"attackId":${JSON.stringify(id)},"attacker":"allied","targetHex":${JSON.stringify(id)}}`);
        const resolved = apply(thawed(declared.state), ['allied', 'ResolveAttack', { attackId: id, retreats: [{ unitId: 'x', route: 'enemy-zoc' }] }, [3, 3, 1, 1]]);
        expect(resolved.events[0].data).toMatchObject({ attackId: id });
        expect(unitOf(resolved.state, id).attackedThisTurn).toBe(true);
        refused(resolved.state, ['allied', 'ResolveAttack', { attackId: id }], new RegExp(`^Attack ${id} is already resolved\\.$`));
        refused(resolved.state, ['allied', 'DeclareAttack', { attackId: 'b', targetHex: id, attackers: [{ unitId: 'inf', hex: 'g' }], defenders: ['x'], terrain: id }], new RegExp(`^Hex ${id} was already attacked this turn`));
        const bombed = apply(thawed(resolved.state), ['allied', 'Bombard', { bombardmentId: id, targetHex: id, targets: ['x'], bombarders: [{ unitId: 'gun', points: 10 }], identification: 'identified' }, [6, 6]]);
        expect(bombed.events.find((e) => e.type === 'BombardmentResolved')!.data).toMatchObject({ bombardmentId: id, targetHex: id });
        const ended = apply(apply(apply(thawed(bombed.state), ['allied', 'EndImpulse']).state, ['axis', 'EndImpulse']).state, ['allied', 'EndTurn', { outOfSupply: [id], inContact: ['inf'] }]);
        expect(ended.events.find((e) => e.type === 'SupplyChecked')!.data.outOfSupply).toEqual([{ unitId: id, turnsOutOfSupply: 1 }]);
        const json = viewJson(ended.state);
        expect(json).toContain(`{"unitId":${JSON.stringify(id)},"side":"allied","kind":"armored"`);
        expect(Object.getPrototypeOf({})).toBe(Object.prototype);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      });
    });
  }
});
