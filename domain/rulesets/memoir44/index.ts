import type { Ruleset } from '../../ruleset';
import { readCardRoll, resolveBattle } from './battle';
import { decideMemoir44 } from './decide';
import * as schema from './schemas';
import { evolveMemoir44, initialMemoir44State, type Memoir44State } from './state';
import { summarizeMemoir44 } from './summary';
import { memoir44Events } from './events';

const eitherSide = { sides: 'all', organizer: false } as const;

export const memoir44Ruleset: Ruleset<Memoir44State, schema.Memoir44Options> = {
  id: 'memoir44-d6',
  title: "Memoir '44 with plain d6 (fan variant)",
  description: 'Dice per figure, to-hit numbers by range, terrain reductions on every die, a 1 is always a flag, armor defensive roll.',
  options: schema.Memoir44Options,
  sides: () => ['allies', 'axis'],
  commands: {
    Battle: { schema: schema.Battle, who: eitherSide, description: 'One unit battles one target (the active side).' },
    CardRoll: { schema: schema.CardRoll, who: eitherSide, description: 'Roll d6 for a command card, read as symbols.' },
    EndTurn: { schema: schema.EndTurn, who: eitherSide, description: 'The active side passes the turn.' },
  },
  procedures: {
    battle: { input: schema.BattleInput, description: 'Resolve a battle: attack dice, then armor defensive dice.', evaluate: (input, _o, dice) => resolveBattle(input, dice) },
    'card-roll': { input: schema.CardRollInput, description: 'Read d6 as command card symbols.', evaluate: (input, _o, dice) => readCardRoll(dice, input.dice) },
  },
  view: schema.Memoir44View,
  events: memoir44Events,
  initialState: (options) => initialMemoir44State(options),
  decide: decideMemoir44,
  evolve: evolveMemoir44,
  present: (state) => state,
  summarize: summarizeMemoir44,
};
