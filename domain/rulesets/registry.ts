import type { Ruleset } from '../ruleset';
import { diceRuleset } from './dice';

const rulesets: readonly Ruleset[] = [diceRuleset];

export function allRulesets(): readonly Ruleset[] {
  return rulesets;
}

export function findRuleset(id: string): Ruleset | undefined {
  return rulesets.find((r) => r.id === id);
}
