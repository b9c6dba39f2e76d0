import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { diceRuleset } from '../../../../domain/rulesets/dice';
import { resultTextShown } from '../shownOnTheTimeline';

const rolled = (dice: string, faces: number[]) => {
  const options = diceRuleset.options.parse({ rulesVersion: 2 });
  const state = diceRuleset.initialState(options, options.sides);
  const command = { type: 'Roll', payload: { dice, purpose: 'test' } };
  return resultTextShown(diceRuleset, command, diceRuleset.decide(state, command, { actor: 'player1', dice: new GivenDice(faces), now: '' }));
};

describe('the result text of a dice roll', () => {
  it('is the total, modifier and kept dice counted', () => {
    expect(rolled('2d6+1', [3, 5])).toBe('total 9');
    expect(rolled('4d6kh3', [1, 6, 2, 5])).toBe('total 13');
  });

  it('is a number of successes when every term counts them', () => {
    expect(rolled('6d6>=5', [5, 6, 1, 2, 3, 4])).toBe('2 successes');
    expect(rolled('2d6>=5', [6, 1])).toBe('1 success');
  });
});
