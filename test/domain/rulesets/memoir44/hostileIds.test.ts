import { describe, expect, it } from 'vitest';
import { memoir44Ruleset } from '../../../../domain/rulesets/memoir44';
import { harness } from '../../../support/rulesetHarness';
import { HOSTILE_IDS } from '../hostileIds';

const { given, apply, refused } = harness(memoir44Ruleset);
const battle = (attackerId: string, targetId: string, extra: Record<string, unknown> = {}) => ({
  attacker: { unitId: attackerId, type: 'infantry', figures: 4 },
  target: { unitId: targetId, type: 'infantry', figures: 4 },
  range: 2,
  ...extra,
});

describe("Memoir '44: every id-bearing command, with ids every JavaScript object has", () => {
  for (const id of HOSTILE_IDS) {
    describe(`id "${id}"`, () => {
      it('battles once a turn like any other unit, and shows in the view as data', () => {
        const fought = apply(given([]), ['allies', 'Battle', battle(id, id), [6, 5, 4, 1]]);
        expect(fought.events[0].data).toMatchObject({ side: 'allies', attacker: { unitId: id }, target: { unitId: id }, hits: 2, flags: 1 });
        expect(JSON.stringify(memoir44Ruleset.present(fought.state))).toBe(`{"turn":1,"activeSide":"allies","battledThisTurn":[${JSON.stringify(id)}]}`);
        refused(fought.state, ['allies', 'Battle', battle(id, 'Pioneers'), [6, 6, 6, 6]], new RegExp(`^${id} already battled this turn\\.$`));
        expect(apply(fought.state, ['allies', 'Battle', battle('2nd Armored', id), [6, 6, 6, 6]]).events[0].type).toBe('BattleFought');
        const axisTurn = apply(fought.state, ['allies', 'EndTurn']).state;
        expect(apply(axisTurn, ['axis', 'Battle', battle(id, 'Rangers'), [6, 6, 6, 6]]).events[0].type).toBe('BattleFought');
      });

      it('is an adjacent enemy like any other: the unit must close assault it', () => {
        const adjacent = { adjacentEnemyIds: [id] };
        refused(given([]), ['allies', 'Battle', battle('1st Inf', 'Grenadiers', adjacent)], new RegExp(`1st Inf is adjacent to ${id}: it must close assault one of them`));
        const assault = apply(given([]), ['allies', 'Battle', battle('1st Inf', id, { ...adjacent, range: 1 }), [4, 4, 4, 4]]);
        expect(assault.events[0].data).toMatchObject({ hits: 4, eliminated: true });
      });

      it('takes ground and overruns like any other unit', () => {
        const armor = { unitId: id, type: 'armor', figures: 3 };
        const took = given([['allies', 'Battle', { attacker: armor, target: { unitId: id, type: 'infantry', figures: 1 }, range: 1 }, [6, 2, 2, 2, 2, 2]], ['allies', 'TakeGround', { unitId: id }]]);
        const { events } = apply(took, ['allies', 'Battle', { attacker: armor, target: { unitId: 'Pioneers', type: 'infantry', figures: 4 }, range: 1 }, [6, 6, 6, 6, 6, 6]]);
        expect(events[0].data).toMatchObject({ attacker: { unitId: id }, overrun: true });
        expect(memoir44Ruleset.summarize({ type: 'TakeGround', payload: {} }, [{ type: 'GroundTaken', data: { side: 'allies', unitId: id, targetId: id, mayOverrun: true } }])).toBe(`${id} takes ground from ${id}; it may battle again (overrun)`);
        refused(given([]), ['allies', 'TakeGround', { unitId: id }], /can't take ground: it has not battled this turn/);
      });

      it('is a command card purpose like any other', () => {
        const { events } = apply(given([]), ['axis', 'CardRoll', { dice: 1, purpose: id }, [2]]);
        expect(events).toEqual([{ type: 'CardRolled', data: { purpose: id, rolls: [2], symbols: ['star'] } }]);
        expect(memoir44Ruleset.summarize({ type: 'CardRoll', payload: {} }, events)).toBe(`${JSON.stringify(id)}: 2 -> star`);
      });
    });
  }
});
