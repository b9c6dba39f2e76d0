import { expect } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { RuleViolation } from '../../../../domain/errors';
import type { DomainEvent } from '../../../../domain/ruleset';
import { france44Ruleset } from '../../../../domain/rulesets/france44';
import type { France44State } from '../../../../domain/rulesets/france44/state';

type Step = [actor: string, type: string, payload?: unknown, dice?: number[]];

/** Given these commands were accepted (each through schema, decide and evolve) … */
export function given(steps: Step[], options: Record<string, unknown> = {}): France44State {
  let state = france44Ruleset.initialState(france44Ruleset.options.parse(options), ['allied', 'german']);
  for (const step of steps) state = apply(state, step).state;
  return state;
}

/** … when this command is decided: its events and the state after them. */
export function apply(state: France44State, [actor, type, payload = {}, dice = []]: Step): { events: DomainEvent[]; state: France44State } {
  const parsed = france44Ruleset.commands[type].schema.parse(payload);
  const events = france44Ruleset.decide(state, { type, payload: parsed }, { actor, dice: new GivenDice(dice), now: '' });
  return { events, state: events.reduce(france44Ruleset.evolve, state) };
}

/** … then it is refused with a rule a player can read. */
export function refused(state: France44State, step: Step, message: RegExp): void {
  let error: unknown;
  try {
    apply(state, step);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(RuleViolation);
  expect((error as Error).message).toMatch(message);
}

export const declaration = (combatId: string, overrides: Record<string, unknown> = {}) => ({
  combatId,
  kind: 'set-piece',
  attackers: [{ unitId: `${combatId}-a`, hex: '2708', strength: 6 }],
  defenders: [{ unitId: `${combatId}-d`, hex: '2709', strength: 3 }],
  attackerMorale: 3,
  defenderMorale: 3,
  ...overrides,
});
