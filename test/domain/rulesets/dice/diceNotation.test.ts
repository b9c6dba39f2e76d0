import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { DomainError, RuleViolation } from '../../../../domain/errors';
import { diceRuleset } from '../../../../domain/rulesets/dice';
import { Roll, RollProcedureInput } from '../../../../domain/rulesets/dice/schemas';

/** One Roll in a game of the given rules version (2: created now; 1: recorded before version 2). */
const roll = (dice: unknown, faces: number[], rulesVersion: 1 | 2 = 2) => {
  const options = diceRuleset.options.parse(rulesVersion === 2 ? { rulesVersion } : {});
  const given = new GivenDice(faces);
  const events = diceRuleset.decide(diceRuleset.initialState(options, options.sides), { type: 'Roll', payload: Roll.parse({ dice, purpose: 'p' }) }, { actor: 'player1', dice: given, now: '' });
  return { data: events[0].data, line: diceRuleset.summarize({ type: 'Roll', payload: {} }, events), drawn: given.drawn, unused: given.unused };
};
const d6 = (...values: number[]) => values.map((value) => ({ sides: 6, value }));

const refusal = (dice: unknown, rulesVersion: 1 | 2 = 2) => {
  const given = new GivenDice(Array.from({ length: 100 }, () => 1));
  const options = diceRuleset.options.parse(rulesVersion === 2 ? { rulesVersion } : {});
  try {
    diceRuleset.decide(diceRuleset.initialState(options, options.sides), { type: 'Roll', payload: { dice, purpose: 'p' } }, { actor: 'player1', dice: given, now: '' });
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect(given.drawn).toEqual([]);
    return error as DomainError;
  }
  return expect.unreachable(`${JSON.stringify(dice)} was rolled`);
};

describe('dice notation (rules version 2): keep highest, keep lowest', () => {
  it('4d6kh3 keeps the three highest dice', () => {
    const { data, line } = roll('4d6kh3', [6, 5, 2, 4]);
    expect(data).toEqual({ purpose: 'p', dice: '4d6kh3', rolls: d6(6, 5, 2, 4), modifier: 0, total: 15, notation: 2 });
    expect(line).toBe('"p": 4d6kh3 = 6 5 (2) 4 = 15');
  });

  it('4d6kl1 keeps the lowest die', () => {
    const { data, line } = roll('4d6kl1+2', [6, 5, 2, 4]);
    expect(data.total).toBe(4);
    expect(line).toBe('"p": 4d6kl1+2 = (6) (5) 2 (4) +2 = 4');
  });

  it('k3 is kh3; between equal dice, kh keeps the later and kl the earlier, as rpg-dice-roller does', () => {
    expect(roll('4d6k3', [3, 5, 3, 3]).line).toBe('"p": 4d6kh3 = (3) 5 3 3 = 11');
    expect(roll('3d6kl1', [2, 2, 6]).line).toBe('"p": 3d6kl1 = 2 (2) (6) = 2');
  });

  it('a subtracted term keeps its dice and subtracts them', () => {
    expect(roll('1d20-2d6kh1', [15, 4, 5]).line).toBe('"p": 1d20-2d6kh1 = 15 (-4) -5 = 10');
  });
});

describe('dice notation (rules version 2): target numbers', () => {
  it('6d6>=5 counts the dice showing 5 or more, and the line marks each success', () => {
    const { data, line } = roll('6d6>=5', [5, 2, 6, 1, 3, 4]);
    expect(data).toMatchObject({ dice: '6d6>=5', total: 2, notation: 2 });
    expect(line).toBe('"p": 6d6>=5 = 5* 2 6* 1 3 4 = 2 successes');
  });

  it.each([
    ['6d6>4', 2],
    ['6d6<=2', 2],
    ['6d6<3', 2],
    ['6d6=6', 1],
  ])('%s counts %i of 5 2 6 1 3 4', (dice, successes) => {
    expect(roll(dice, [5, 2, 6, 1, 3, 4]).data.total).toBe(successes);
  });

  it('a target no die can meet is allowed and counts no success', () => {
    expect(roll('6d6>=7', [6, 6, 6, 6, 6, 6]).line).toBe('"p": 6d6>=7 = 6 6 6 6 6 6 = 0 successes');
  });

  it('one success is said in the singular; a modifier adds to the count', () => {
    expect(roll('2d6>=6', [6, 1]).line).toBe('"p": 2d6>=6 = 6* 1 = 1 success');
    expect(roll('2d6>=6+1', [6, 6]).line).toBe('"p": 2d6>=6+1 = 6* 6* +1 = 3 successes');
  });

  it('with kh, only the dice kept can succeed; beside a summed term, the successes add to the sum', () => {
    expect(roll('4d6kh2>=5', [6, 5, 5, 1]).line).toBe('"p": 4d6kh2>=5 = 6* (5*) 5* (1) = 2 successes');
    expect(roll('1d6+3d6>=4', [2, 4, 1, 6]).line).toBe('"p": 1d6+3d6>=4 = 2 4* 1 6* = 4');
  });
});

describe('dice notation (rules version 2): d66 and d%', () => {
  it('d66 reads two d6, tens then units', () => {
    const { data, line } = roll('d66', [3, 5]);
    expect(data).toEqual({ purpose: 'p', dice: '1d66', rolls: d6(3, 5), modifier: 0, total: 35, notation: 2 });
    expect(line).toBe('"p": 1d66 = 35 = 35');
  });

  it('2d66kh1 keeps the higher of two d66 readings', () => {
    expect(roll('2d66kh1', [1, 6, 4, 2]).line).toBe('"p": 2d66kh1 = (16) 42 = 42');
  });

  it('d% is a d100, recorded as 1d100 exactly as d100 is', () => {
    expect(roll('d%', [37])).toEqual(roll('d100', [37]));
    expect(roll('d%', [37]).data).toEqual({ purpose: 'p', dice: '1d100', rolls: [{ sides: 100, value: 37 }], modifier: 0, total: 37 });
  });

  it('the list form keeps plain dice: sides 66 is a 66-sided die', () => {
    expect(roll([{ count: 1, sides: 66 }], [40]).data).toEqual({ purpose: 'p', dice: '1d66', rolls: [{ sides: 66, value: 40 }], modifier: 0, total: 40 });
  });
});

describe('dice notation (rules version 2): exploding dice', () => {
  it('1d6! rolls one more die on a 6, and adds every die', () => {
    const { data, line } = roll('1d6!', [6, 6, 3]);
    expect(data).toMatchObject({ dice: '1d6!', rolls: d6(6, 6, 3), total: 15, notation: 2 });
    expect(line).toBe('"p": 1d6! = 6! 6! 3 = 15');
  });

  it("the handful is drawn first, then each exploding die's extra dice, which the line shows right after their die", () => {
    const { data, line } = roll('2d6!', [6, 2, 4]);
    expect(data.rolls).toEqual(d6(6, 2, 4));
    expect(line).toBe('"p": 2d6! = 6! 4 2 = 12');
  });

  it('an exploding die rolls at most 9 extra dice', () => {
    const { data, line, unused } = roll('1d6!', Array.from({ length: 12 }, () => 6));
    expect(data.rolls).toHaveLength(10);
    expect(data.total).toBe(60);
    expect(unused).toBe(2);
    expect(line).toBe(`"p": 1d6! = ${'6! '.repeat(9)}6 = 60`);
  });

  it('explodes before keeping and counting: 3d6!kh2>=5', () => {
    expect(roll('3d6!kh2>=5', [6, 1, 2, 5]).line).toBe('"p": 3d6!kh2>=5 = 6!* 5* (1) (2) = 2 successes');
  });

  it('a d66 explodes on 66', () => {
    expect(roll('d66!', [6, 6, 1, 2]).line).toBe('"p": 1d66! = 66! 12 = 78');
  });
});

describe('dice notation: the limit of 100 dice a command, before any die is drawn', () => {
  it('an exploding die counts as 10 dice: 10d6! may be rolled, 11d6! is refused in words', () => {
    expect(roll('10d6!', [1, 2, 3, 4, 5, 1, 2, 3, 4, 5]).data.total).toBe(30);
    const error = refusal('11d6!');
    expect(error).toBeInstanceOf(RuleViolation);
    expect(error.message).toBe(
      'A roll may have at most 100 dice; this one may draw up to 110 (a d66 is 2 dice, an exploding die counts as 10: itself and up to 9 extra dice). Split it into several rolls.',
    );
  });

  it('a d66 counts as 2 dice: 50d66 may be rolled, 51d66 is refused', () => {
    expect(roll('50d66', Array.from({ length: 100 }, () => 1)).data.total).toBe(50 * 11);
    expect(refusal('51d66').message).toMatch(/may draw up to 102/);
    expect(refusal('81d6+1d66!').message).toMatch(/may draw up to 101 /);
    expect(roll('90d6+1d6!', Array.from({ length: 91 }, () => 1)).data.total).toBe(91);
  });

  it('a count too large to roll is refused, however it is written', () => {
    expect(refusal('9999999d6!kh3>=2').message).toMatch(/at most 100 dice/);
    expect(refusal('101d%').message).toMatch(/this one has 101\b/);
  });

  it('dice of any size from 2 to 1000: 7d999 to draw an order, not a d1001', () => {
    const { data } = roll('7d999', [999, 1, 500, 2, 3, 4, 5]);
    expect(data).toEqual({ purpose: 'p', dice: '7d999', rolls: [999, 1, 500, 2, 3, 4, 5].map((value) => ({ sides: 999, value })), modifier: 0, total: 1514 });
    expect(refusal('1d1001!').message).toMatch(/2 to 1000 sides/);
  });
});

describe('dice notation: expressions version 1 already read keep their record', () => {
  it.each(['3d6+1', '1d6+1d4-1', '1d20-1d6', '2d10-2', '1d100'])('%s records in a version 2 game exactly what it records in a version 1 game', (dice) => {
    const faces = [1, 4, 6, 3, 2];
    const v2 = roll(dice, faces, 2);
    expect(v2).toEqual(roll(dice, faces, 1));
    expect(v2.data).not.toHaveProperty('notation');
  });
});

describe('dice notation in a game of rules version 1 (recorded without rulesVersion)', () => {
  it('d66 is still a 66-sided die', () => {
    expect(roll('d66', [40], 1).data).toEqual({ purpose: 'p', dice: '1d66', rolls: [{ sides: 66, value: 40 }], modifier: 0, total: 40 });
  });

  it.each([
    ['d%', 'd% is not supported, write d100 at position 2'],
    ['4d6kh3', 'unexpected "k", expected "+" or "-" at position 4'],
    ['6d6>=5', 'unexpected ">", expected "+" or "-" at position 4'],
    ['1d6!', 'unexpected "!", expected "+" or "-" at position 4'],
  ])('%s is refused with the 400 the game gave before, naming the position', (dice, message) => {
    const error = refusal(dice, 1);
    expect(error.code).toBe('invalid_request');
    expect(error.message).toBe(`Invalid request: payload.dice: ${message}`);
    expect(error.details).toEqual({ issues: [{ field: 'payload.dice', message }] });
  });
});

describe('dice notation: /evaluate', () => {
  const evaluate = (input: unknown, dice: number[], options: unknown = {}) =>
    diceRuleset.procedures.roll.evaluate(RollProcedureInput.parse(input), diceRuleset.options.parse(options), new GivenDice(dice));

  it('reads notation 2 unless the request names rules version 1', () => {
    expect(evaluate({ dice: '4d6kh3' }, [6, 5, 2, 4])).toEqual({ result: { total: 15, rolls: [6, 5, 2, 4] }, breakdown: { dice: '4d6kh3', modifier: 0, text: '6 5 (2) 4 = 15' } });
    expect(evaluate({ dice: 'd66' }, [6, 6], { rulesVersion: 2 }).result).toEqual({ total: 66, rolls: [6, 6] });
    expect(evaluate({ dice: 'd66' }, [66], { rulesVersion: 1 }).result).toEqual({ total: 66, rolls: [66] });
    expect(() => evaluate({ dice: 'd%' }, [1], { rulesVersion: 1 })).toThrow('Invalid request: input.dice: d% is not supported, write d100 at position 2');
  });
});

describe('dice notation: the schema (400 with the position)', () => {
  it('accepts the notation and refuses malformed notation naming the position', () => {
    expect(Roll.safeParse({ dice: '5d10!kh2>=8-1', purpose: 'p' }).success).toBe(true);
    const result = Roll.safeParse({ dice: '4d6kh5', purpose: 'p' });
    expect(result.error?.issues.map((i) => ({ path: i.path, message: i.message }))).toEqual([{ path: ['dice'], message: 'keeps 5 of 4 dice at position 4' }]);
  });
});

describe('dice: new games', () => {
  it('are created under rules version 2', () => {
    expect(diceRuleset.newGameOptions).toEqual({ rulesVersion: 2 });
    expect(diceRuleset.options.safeParse({ rulesVersion: 3 }).success).toBe(false);
  });
});
