import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { RuleViolation } from '../../../../domain/errors';
import { diceRuleset } from '../../../../domain/rulesets/dice';
import { Roll } from '../../../../domain/rulesets/dice/schemas';

const decide = (payload: unknown, dice: number[]) =>
  diceRuleset.decide(diceRuleset.initialState({ sides: ['player1', 'player2'] }, []), { type: 'Roll', payload }, {
    actor: 'player1',
    dice: new GivenDice(dice),
    now: '2026-11-22T10:00:00.000Z',
  });

describe('dice ruleset: Roll', () => {
  it('rolls an expression in order and totals it with its modifier', () => {
    expect(decide({ dice: '3d6+1', purpose: 'bombardment of 2708' }, [4, 2, 6])).toEqual([
      {
        type: 'DiceRolled',
        data: {
          purpose: 'bombardment of 2708',
          dice: '3d6+1',
          rolls: [
            { sides: 6, value: 4 },
            { sides: 6, value: 2 },
            { sides: 6, value: 6 },
          ],
          modifier: 1,
          total: 13,
        },
      },
    ]);
  });

  it('subtracts dice written after a minus', () => {
    const [event] = decide({ dice: '1d20-1d6', purpose: 'x' }, [15, 4]);
    expect(event.data.total).toBe(11);
  });

  it('takes a list of dice', () => {
    const [event] = decide({ dice: [{ count: 2, sides: 10 }, { count: 1, sides: 4 }], purpose: 'x' }, [10, 1, 3]);
    expect(event.data).toMatchObject({ dice: '2d10+1d4', total: 14 });
  });

  it('refuses more than 100 dice or dice outside 2 to 1000 sides, before rolling', () => {
    const dice = new GivenDice([]);
    const ctx = { actor: 'player1', dice, now: '' };
    const state = diceRuleset.initialState({ sides: [] }, []);
    expect(() => diceRuleset.decide(state, { type: 'Roll', payload: { dice: '101d6', purpose: 'x' } }, ctx)).toThrow(/at most 100 dice/);
    expect(() => diceRuleset.decide(state, { type: 'Roll', payload: { dice: '60d6+41d6', purpose: 'x' } }, ctx)).toThrow(RuleViolation);
    expect(() => diceRuleset.decide(state, { type: 'Roll', payload: { dice: [{ count: 1, sides: 1001 }], purpose: 'x' } }, ctx)).toThrow(/2 to 1000 sides/);
    expect(() => diceRuleset.decide(state, { type: 'Roll', payload: { dice: '1d1', purpose: 'x' } }, ctx)).toThrow(RuleViolation);
    expect(dice.drawn).toEqual([]);
  });

  it('requires a purpose of 1 to 200 characters', () => {
    expect(Roll.safeParse({ dice: 'd6' }).success).toBe(false);
    expect(Roll.safeParse({ dice: 'd6', purpose: '' }).success).toBe(false);
    expect(Roll.safeParse({ dice: 'd6', purpose: 'x'.repeat(201) }).success).toBe(false);
    expect(Roll.safeParse({ dice: 'd6', purpose: 'x'.repeat(200) }).success).toBe(true);
  });

  it('writes the chat-log summary of a roll', () => {
    const events = decide({ dice: '3d6+1', purpose: 'bombardment of 2708' }, [4, 2, 6]);
    expect(diceRuleset.summarize({ type: 'Roll', payload: {} }, events)).toBe('"bombardment of 2708": 3d6+1 = 4 2 6 +1 = 13');
    const minus = decide({ dice: '1d20-1d6-2', purpose: 'p' }, [15, 4]);
    expect(diceRuleset.summarize({ type: 'Roll', payload: {} }, minus)).toBe('"p": 1d20-1d6-2 = 15 -4 -2 = 9');
  });

  it('renames sides with the sides option, 2 to 8 distinct names', () => {
    expect(diceRuleset.sides(diceRuleset.options.parse({}))).toEqual(['player1', 'player2']);
    expect(diceRuleset.sides(diceRuleset.options.parse({ sides: ['red', 'blue', 'green'] }))).toEqual(['red', 'blue', 'green']);
    expect(diceRuleset.options.safeParse({ sides: ['solo'] }).success).toBe(false);
    expect(diceRuleset.options.safeParse({ sides: Array.from({ length: 9 }, (_, i) => `s${i}`) }).success).toBe(false);
    expect(diceRuleset.options.safeParse({ sides: ['a', 'a'] }).success).toBe(false);
    expect(diceRuleset.options.safeParse({ sides: ['organizer', 'b'] }).success).toBe(false);
  });
});
