import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { RuleViolation } from '../../../../domain/errors';
import { diceRuleset } from '../../../../domain/rulesets/dice';
import { Roll } from '../../../../domain/rulesets/dice/schemas';

const state = () => diceRuleset.initialState(diceRuleset.options.parse({ rulesVersion: 2 }), []);
const decide = (payload: unknown, dice: GivenDice) => diceRuleset.decide(state(), { type: 'Roll', payload: Roll.parse(payload) }, { actor: 'player1', dice, now: '2026-11-27T09:00:00.000Z' });

describe('dice ruleset: several labelled rolls in one Roll', () => {
  it('rolls each in order, one DiceRolled per roll with its own purpose', () => {
    const events = decide(
      {
        rolls: [
          { dice: '2d6', purpose: 'attack on Bastogne' },
          { dice: '1d6+1', purpose: 'morale of the 101st' },
        ],
      },
      new GivenDice([3, 5, 6]),
    );
    expect(events).toEqual([
      { type: 'DiceRolled', data: { purpose: 'attack on Bastogne', dice: '2d6', rolls: [{ sides: 6, value: 3 }, { sides: 6, value: 5 }], modifier: 0, total: 8 } },
      { type: 'DiceRolled', data: { purpose: 'morale of the 101st', dice: '1d6+1', rolls: [{ sides: 6, value: 6 }], modifier: 1, total: 7 } },
    ]);
  });

  it('writes one summary per roll, counts each roll, and gives each result', () => {
    const events = decide({ rolls: [{ dice: '1d6', purpose: 'a' }, { dice: '1d6', purpose: 'b' }] }, new GivenDice([2, 4]));
    const command = { type: 'Roll', payload: {} };
    expect(diceRuleset.summaryLines!(command, events)).toEqual(['"a": 1d6 = 2 = 2', '"b": 1d6 = 4 = 4']);
    expect(diceRuleset.resultText(command, events)).toBe('total 2, total 4');
    expect(events.reduce(diceRuleset.evolve, state())).toMatchObject({ rolls: 2, lastRoll: { purpose: 'b', total: 4 } });
  });

  it('keeps the one-roll form as it was: the same event, byte for byte', () => {
    const one = decide({ dice: '2d6', purpose: 'x' }, new GivenDice([1, 2]));
    const several = decide({ rolls: [{ dice: '2d6', purpose: 'x' }] }, new GivenDice([1, 2]));
    expect(JSON.stringify(several)).toBe(JSON.stringify(one));
  });

  it('refuses 0 or 11 rolls, and a roll without a purpose (400)', () => {
    const roll = { dice: '1d6', purpose: 'x' };
    expect(Roll.safeParse({ rolls: [] }).success).toBe(false);
    expect(Roll.safeParse({ rolls: Array.from({ length: 11 }, () => roll) }).success).toBe(false);
    expect(Roll.safeParse({ rolls: Array.from({ length: 10 }, () => roll) }).success).toBe(true);
    expect(Roll.safeParse({ rolls: [{ dice: '1d6' }] }).success).toBe(false);
    expect(Roll.safeParse({ rolls: [roll], dice: '1d6', purpose: 'x' }).success).toBe(false);
  });

  it('refuses more than 100 dice in all before drawing any die', () => {
    const dice = new GivenDice([]);
    let error: unknown;
    try {
      decide({ rolls: [{ dice: '60d6', purpose: 'a' }, { dice: '50d6', purpose: 'b' }] }, dice);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RuleViolation);
    expect((error as Error).message).toBe('A command may roll at most 100 dice in all; these 2 rolls may draw up to 110. Send them in two commands.');
    expect(dice.drawn).toEqual([]);
  });

  it('checks every roll before drawing: a bad second roll draws no die for the first', () => {
    const dice = new GivenDice([]);
    expect(() => decide({ rolls: [{ dice: '1d6', purpose: 'a' }, { dice: '1d1001', purpose: 'b' }] }, dice)).toThrow(/d1001 can't be rolled/);
    expect(dice.drawn).toEqual([]);
  });
});
