import fc from 'fast-check';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { FairnessDice, FirstDieDrawn, GivenDice, ProbeDice } from '../../../domain/dice';
import { RuleViolation } from '../../../domain/errors';
import type { DecideContext, DomainEvent, Ruleset } from '../../../domain/ruleset';
import { diceRuleset } from '../../../domain/rulesets/dice';
import { decideBothWays, drawWith, Tally, walkGame, type Walk } from './refusesBeforeDice';

/** A one-command ruleset: Roll, with a flag the rules refuse before any die. */
function toy(roll: (ctx: DecideContext) => DomainEvent[]): Ruleset {
  return {
    id: 'toy',
    title: 'Toy',
    description: 'a ruleset for the checker’s own tests',
    options: z.strictObject({}),
    sides: () => ['north', 'south'],
    commands: { Roll: { schema: z.strictObject({ refuse: z.boolean().optional() }), who: { sides: 'all', organizer: true }, description: 'roll' } },
    procedures: {},
    view: z.object({}),
    initialState: () => ({}),
    decide(_state, command, ctx) {
      if ((command.payload as { refuse?: boolean }).refuse) throw new RuleViolation('Refused before any die.', 'toy: refuse');
      return roll(ctx);
    },
    evolve: (state) => state,
    present: () => ({}),
    summarize: () => '',
    resultText: () => '',
  };
}

const rolled = (value: number): DomainEvent[] => [{ type: 'Rolled', data: { value } }];
const honest = toy((ctx) => rolled(ctx.dice.roll(6)));
const step = (payload: Record<string, unknown> = {}) => ({ actor: 'north', type: 'Roll', payload });
const both = (ruleset: Ruleset, dice: number[], payload?: Record<string, unknown>) => decideBothWays(ruleset, ['north', 'south'], {}, step(payload), () => new GivenDice(dice));

describe('the check of "no refusal after the first die" can fail', () => {
  it('passes a ruleset that refuses before its dice and accepts what reaches them', () => {
    expect(both(honest, [4]).outcome).toBe('reached a die');
    expect(both(honest, [4], { refuse: true }).outcome).toBe('refused before a die');
    expect(both(honest, [4], { bad: 1 }).outcome).toBe('schema');
    expect(decideBothWays(honest, ['north', 'south'], {}, { actor: 'stranger', type: 'Roll', payload: {} }, () => new GivenDice([4])).outcome).toBe('forbidden');
  });

  it('catches a refusal after the first die', () => {
    const late = toy((ctx) => {
      const die = ctx.dice.roll(6);
      if (die === 1) throw new RuleViolation('A 1 is refused.', 'toy: late');
      return rolled(die);
    });
    expect(both(late, [2]).outcome).toBe('reached a die');
    expect(() => both(late, [1])).toThrow(/refused after its first die \(1 drawn\): RuleViolation: A 1 is refused/);
  });

  it('catches a try/catch around the dice that swallows the probe’s stop, or turns it into a refusal', () => {
    const swallowing = toy((ctx) => {
      let value = 0;
      try {
        value = ctx.dice.roll(6);
      } catch {
        // a ruleset that treats any failure of its dice as "no roll"
      }
      return rolled(value);
    });
    expect(() => both(swallowing, [5])).toThrow(/the dice drew 1 where the probe drew no die: something caught the probe's first die/);
    const converting = toy((ctx) => {
      try {
        return rolled(ctx.dice.roll(6));
      } catch {
        throw new RuleViolation('The dice failed.', 'toy: dice');
      }
    });
    expect(() => both(converting, [5])).toThrow(/the dice drew 1 where the probe refused it \(RuleViolation: The dice failed\.\)/);
  });

  it('finds, with fast-check and real dice, a refusal after the first die that only some dice give', () => {
    const onSix = toy((ctx) => {
      const first = ctx.dice.roll(6);
      const second = ctx.dice.roll(6);
      if (first === 6 && second === 6) throw new RuleViolation('Boxcars are refused.', 'toy: late');
      return rolled(first + second);
    });
    const walk: Walk = { game: fc.constant({ options: {}, material: null }), next: (_state, d) => step(d.chance(0.2) ? { refuse: true } : {}), rolling: ['Roll'] };
    const run = () =>
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.gen(), (gameKey, g) => walkGame(onSix, walk, { options: {}, material: null }, gameKey, drawWith(g), 20, new Tally())),
        { numRuns: 100, seed: 32 },
      );
    let failure: unknown;
    try {
      run();
    } catch (error) {
      failure = error;
    }
    // fast-check reports the counterexample; the check's own words are its cause.
    expect(((failure as Error | undefined)?.cause as Error | undefined)?.message).toMatch(/refused after its first die \(2 drawn\): RuleViolation: Boxcars are refused/);
  });
});

describe('the try/catch of the dice ruleset (dice expressions) lets the probe’s stop through', () => {
  // roll.ts toExpression catches around parsing the expression: the only try/catch on a decide path of any ruleset.
  const state = diceRuleset.initialState(diceRuleset.options.parse({ rulesVersion: 1 }), ['player1', 'player2']);
  const decide = (dice: unknown) => () =>
    diceRuleset.decide(state, { type: 'Roll', payload: diceRuleset.commands.Roll.schema.parse({ dice, purpose: 'attack' }) }, { actor: 'player1', dice: new ProbeDice(), now: '' });

  it('a string expression and a list of dice stop at their first die', () => {
    expect(decide('3d6+1')).toThrow(FirstDieDrawn);
    expect(decide([{ count: 2, sides: 10 }])).toThrow(FirstDieDrawn);
  });

  it('what the notation of the game refuses is refused before it, and real dice agree', () => {
    expect(decide('4d6kh3')).toThrow(/Invalid request: payload.dice/);
    const roll = diceRuleset.commands.Roll.schema.parse({ dice: '4d6kh3', purpose: 'attack' });
    const dice = new FairnessDice(new Uint8Array(32), 2);
    expect(() => diceRuleset.decide(state, { type: 'Roll', payload: roll }, { actor: 'player1', dice, now: '' })).toThrow(/Invalid request: payload.dice/);
    expect(dice.drawn).toEqual([]);
  });
});
