import { expect } from 'vitest';
import { GivenDice } from '../../domain/dice';
import { DomainError, RuleViolation } from '../../domain/errors';
import type { DomainEvent, Ruleset } from '../../domain/ruleset';

export type Step = [actor: string, type: string, payload?: unknown, dice?: number[]];

/** given / when / then for one ruleset's decider, each command through its schema, decide and evolve. */
export function harness<S>(ruleset: Ruleset<S>) {
  const sides = ruleset.sides(ruleset.options.parse({}));
  const apply = (state: S, [actor, type, payload = {}, dice = []]: Step): { events: DomainEvent[]; state: S } => {
    const parsed = ruleset.commands[type].schema.parse(payload);
    const events = ruleset.decide(state, { type, payload: parsed }, { actor, dice: new GivenDice(dice), now: '' });
    return { events, state: events.reduce(ruleset.evolve, state) };
  };
  return {
    given(steps: Step[], options: Record<string, unknown> = {}): S {
      let state = ruleset.initialState(ruleset.options.parse(options), sides);
      for (const step of steps) state = apply(state, step).state;
      return state;
    },
    apply,
    /** Refused with this code (rule_violation unless told) and a message a player can read. */
    refused(state: S, step: Step, message: RegExp, code = 'rule_violation'): void {
      let error: unknown;
      try {
        apply(state, step);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe(code);
      expect((error as Error).message).toMatch(message);
    },
  };
}

/** The refusal a call throws: a RuleViolation's message and rule (fails when it is not refused, or refused otherwise). */
export function refusal(run: () => unknown): { message: string; rule: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RuleViolation);
    return { message: (error as Error).message, rule: (error as RuleViolation).rule };
  }
  throw new Error('not refused');
}
