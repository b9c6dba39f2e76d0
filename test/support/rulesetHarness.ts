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

export type Outcome = readonly DomainEvent[] | { refused: RegExp; code?: string };

/**
 * given(events).when(step).then(events | { refused }): a decider test that starts from the
 * events a game already recorded, not from the commands that would have led there. The
 * events are folded with the ruleset's own evolve; those decided are checked against the
 * ruleset's event schemas before they are compared.
 */
export function decider<S>(ruleset: Ruleset<S>, options: Record<string, unknown> = {}) {
  const parsedOptions = ruleset.options.parse(options);
  const sides = ruleset.sides(parsedOptions);
  const conforms = (event: DomainEvent) => {
    const schema = ruleset.events?.[event.type];
    expect(schema, `${event.type} is an event of ${ruleset.id}`).toBeDefined();
    expect(() => schema!.parse(event.data), `${event.type} as its schema describes it`).not.toThrow();
  };
  return {
    given(history: readonly DomainEvent[]) {
      // Only events the ruleset could have recorded: a test never starts from a state no game reaches by its events.
      history.forEach(conforms);
      const state = history.reduce(ruleset.evolve, ruleset.initialState(parsedOptions, sides));
      return {
        state,
        when([actor, type, payload = {}, dice = []]: Step) {
          const decide = () => {
            const parsed = ruleset.commands[type].schema.parse(payload);
            return ruleset.decide(state, { type, payload: parsed }, { actor, dice: new GivenDice(dice), now: '' });
          };
          return {
            then(expected: Outcome): void {
              if ('refused' in expected) {
                let error: unknown;
                try {
                  decide();
                } catch (e) {
                  error = e;
                }
                expect(error, 'refused').toBeInstanceOf(DomainError);
                expect((error as DomainError).code).toBe(expected.code ?? 'rule_violation');
                expect((error as Error).message).toMatch(expected.refused);
                return;
              }
              const events = decide();
              events.forEach(conforms);
              expect(events).toEqual(expected);
            },
          };
        },
      };
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
