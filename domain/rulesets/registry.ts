import type { Ruleset } from '../ruleset';
import { diceRuleset } from './dice';
import { europaRuleset } from './europa';
import { france44Ruleset } from './france44';
import { memoir44Ruleset } from './memoir44';
import { normandy44Ruleset } from './normandy44';
import { tableRuleset } from './table';
import { warsAndBattlesRuleset } from './warsandbattles';

const rulesets: readonly Ruleset[] = [diceRuleset, france44Ruleset, normandy44Ruleset, memoir44Ruleset, tableRuleset, warsAndBattlesRuleset, europaRuleset];

export function allRulesets(): readonly Ruleset[] {
  return rulesets;
}

export function findRuleset(id: string): Ruleset | undefined {
  return rulesets.find((r) => r.id === id);
}
