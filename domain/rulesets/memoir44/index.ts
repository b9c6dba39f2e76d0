import { defineRuleset } from '../../defineRuleset';
import { commands } from './commands';
import type { Ruleset } from '../../ruleset';
import { readCardRoll, resolveBattle } from './battle';
import { decideMemoir44 } from './decide';
import * as schema from './schemas';
import { CURRENT_RULES_VERSION, procedureRulesVersion } from './rulesVersion';
import { evolveMemoir44, initialMemoir44State, memoir44ToMove, presentMemoir44, type Memoir44State } from './state';
import { summarizeMemoir44 } from './summary';
import { memoir44Events } from './events';
import { memoir44ResultText } from './resultText';

export const memoir44Ruleset: Ruleset<Memoir44State, schema.Memoir44Options> = defineRuleset({
  id: 'memoir44-d6',
  newGameOptions: { rulesVersion: CURRENT_RULES_VERSION },
  title: "Memoir '44 with plain d6 (fan variant)",
  description: 'Dice per figure, to-hit numbers by range, terrain reductions on every die, a 1 is always a flag, armor defensive roll, overrun after taking ground.',
  // 2: the state holds the game's rules version and its last battle (for taking ground and the overrun).
  stateVersion: 2,
  options: schema.Memoir44Options,
  sides: () => ['allies', 'axis'],
  commands,
  procedures: {
    battle: { input: schema.BattleInput, description: 'Resolve a battle: attack dice, then armor defensive dice.', evaluate: (input, options, dice) => resolveBattle(input, dice, procedureRulesVersion(options)) },
    'card-roll': { input: schema.CardRollInput, description: 'Read d6 as command card symbols.', evaluate: (input, _o, dice) => readCardRoll(dice, input.dice) },
  },
  view: schema.Memoir44View,
  events: memoir44Events,
  initialState: (options: schema.Memoir44Options) => initialMemoir44State(options),
  decide: decideMemoir44,
  evolve: evolveMemoir44,
  toMove: memoir44ToMove,
  present: presentMemoir44,
  summarize: summarizeMemoir44,
  resultText: memoir44ResultText,
});
