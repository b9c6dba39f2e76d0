import { describe, expect, it } from 'vitest';
import { evaluateProcedure } from '../../../../functions/application/evaluate';
import { oracleBattle } from '../../../independent/memoir44-battle.mjs';
import { randomBattles } from './randomBattles';

describe('/evaluate for memoir44-d6 against an independent implementation of the rules page', () => {
  it('agrees on 5,000 random battles, refusals included', () => {
    let compared = 0;
    for (const { input, dice } of randomBattles(5000)) {
      const expected = oracleBattle(input, dice);
      if (expected.refused) {
        expect(() => evaluateProcedure('memoir44-d6', { procedure: 'battle', input, dice }), JSON.stringify(input)).toThrow();
        continue;
      }
      const { used, ...result } = expected;
      const actual = evaluateProcedure('memoir44-d6', { procedure: 'battle', input, dice });
      expect(actual.result, JSON.stringify(input)).toEqual(result);
      expect(actual.dice).toHaveLength(used!);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(2000);
  });
});
