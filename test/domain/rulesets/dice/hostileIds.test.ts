import { describe, expect, it } from 'vitest';
import { diceRuleset } from '../../../../domain/rulesets/dice';
import { harness } from '../../../support/rulesetHarness';
import { HOSTILE_IDS } from '../hostileIds';

const { given, apply } = harness(diceRuleset);

describe('dice: purposes that are property names of every JavaScript object', () => {
  for (const purpose of HOSTILE_IDS) {
    it(`rolls for the purpose "${purpose}" like any other, and the next roll follows`, () => {
      const first = apply(given([]), ['player1', 'Roll', { dice: '1d6', purpose }, [3]]);
      expect(first.events).toEqual([{ type: 'DiceRolled', data: { purpose, dice: '1d6', rolls: [{ sides: 6, value: 3 }], modifier: 0, total: 3 } }]);
      expect(JSON.stringify(diceRuleset.present(first.state))).toBe(`{"rolls":1,"lastRoll":{"purpose":${JSON.stringify(purpose)},"dice":"1d6","total":3},"toMove":"player1"}`);
      expect(diceRuleset.summarize({ type: 'Roll', payload: {} }, first.events)).toBe(`${JSON.stringify(purpose)}: 1d6 = 3 = 3`);
      expect(apply(first.state, ['player2', 'Roll', { dice: '2d6', purpose: 'next' }, [1, 2]]).state.rolls).toBe(2);
    });
  }
});
