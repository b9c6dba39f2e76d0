import { describe, expect, it } from 'vitest';
import { evaluateProcedure } from '../../../../functions/application/evaluate';
import { oracleAttack, oracleDeterminedDefense } from '../../../independent/normandy44-combat.mjs';
import { randomAttacks } from './randomAttacks';

describe('/evaluate for normandy44 against an independent implementation of the rules page', () => {
  it('agrees on 5,000 random attacks, refusals included', () => {
    let compared = 0;
    let refused = 0;
    for (const { input, dice } of randomAttacks(5000)) {
      const expected = oracleAttack(input, dice);
      let actual;
      try {
        actual = evaluateProcedure('normandy44', { procedure: 'combat', input, dice });
      } catch (error) {
        expect(expected.refused, `refused: ${(error as Error).message} for ${JSON.stringify(input)}`).toBeTruthy();
        refused += 1;
        continue;
      }
      const { dice: used, ...result } = expected;
      expect(actual.result, JSON.stringify(input)).toEqual(result);
      expect(actual.dice).toHaveLength(used as number);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(2000);
    expect(refused).toBeGreaterThan(100);
  });

  it('agrees on every Determined Defense cell, with every modifier', () => {
    const hexes = [{ terrain: 'clear' }, { terrain: 'flooded' }, { terrain: 'bocage' }, { terrain: 'woods', fortifiedPosition: true }, { terrain: 'village', strongpoint: true }, { terrain: 'city' }];
    let cells = 0;
    for (const defenderHex of hexes) {
      for (let die = 1; die <= 6; die++) {
        for (const modifier of [{}, { troopQuality: -2 }, { troopQuality: 2 }, { armorComparison: 1 }, { armorComparison: -3 }]) {
          for (const defensiveSupport of [false, true]) {
            const input = { defenderHex, ...modifier, defensiveSupport };
            const actual = evaluateProcedure('normandy44', { procedure: 'determined-defense', input, dice: [die] });
            expect(actual.result, JSON.stringify({ input, die })).toEqual(oracleDeterminedDefense(input, die));
            cells += 1;
          }
        }
      }
    }
    expect(cells).toBe(360);
  });
});
