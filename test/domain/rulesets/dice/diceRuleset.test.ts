import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { RuleViolation } from '../../../../domain/errors';
import { diceRuleset } from '../../../../domain/rulesets/dice';
import { Roll, RollProcedureInput } from '../../../../domain/rulesets/dice/schemas';

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

describe('dice ruleset: the modifier', () => {
  const issues = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) => result.error?.issues.map((i) => ({ path: i.path, message: i.message }));

  it('is from -1000 to +1000, and a roll at the limit is totalled and described', () => {
    expect(Roll.safeParse({ dice: '1d6+1000', purpose: 'x' }).success).toBe(true);
    expect(Roll.safeParse({ dice: '1d6-600-400', purpose: 'x' }).success).toBe(true);
    const [event] = decide({ dice: '1d6-600-400', purpose: 'x' }, [3]);
    expect(event.data).toMatchObject({ dice: '1d6-1000', modifier: -1000, total: -997 });
    expect(diceRuleset.summarize({ type: 'Roll', payload: {} }, [event])).toBe('"x": 1d6-1000 = 3 -1000 = -997');
  });

  it('beyond that is refused by the schema (400), saying what the integers add up to, for a game and for /evaluate', () => {
    const message = 'the integers add up to -10000000; a modifier must be from -1000 to +1000';
    expect(issues(Roll.safeParse({ dice: '1d6-5000000-5000000', purpose: 'x' }))).toEqual([{ path: ['dice'], message }]);
    expect(issues(RollProcedureInput.safeParse({ dice: '1d6-5000000-5000000' }))).toEqual([{ path: ['dice'], message }]);
    expect(issues(Roll.safeParse({ dice: '2d6+1001', purpose: 'x' }))).toEqual([{ path: ['dice'], message: 'the integers add up to 1001; a modifier must be from -1000 to +1000' }]);
  });

  it('of a roll recorded before the limit still reads in the roll\'s chat-log summary', () => {
    const recorded = { type: 'DiceRolled', data: { purpose: 'x', dice: '1d6-10000000', rolls: [{ sides: 6, value: 3 }], modifier: -10000000, total: -9999997 } };
    expect(diceRuleset.summarize({ type: 'Roll', payload: {} }, [recorded])).toBe('"x": 1d6-10000000 = 3 -10000000 = -9999997');
  });
});
