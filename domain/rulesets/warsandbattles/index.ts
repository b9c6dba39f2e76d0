import { defineRuleset } from '../../defineRuleset';
import { commands } from './commands';
import type { Ruleset } from '../../ruleset';
import { decideWarsAndBattles } from './decide';
import { warsAndBattlesEvents } from './events';
import { EXAMPLE_COMMANDERS, EXAMPLE_TABLES, EXAMPLE_TERRAIN } from './exampleTables';
import { procedures } from './procedures';
import { EXAMPLE_AVAILABILITY } from './availability';
import { CURRENT_RULES_VERSION } from './rulesVersion';
import * as schema from './schemas';
import { evolveWarsAndBattles, initialWarsAndBattlesState, presentWarsAndBattles, type WarsAndBattlesState } from './state';
import { summarizeWarsAndBattles } from './summary';
import { warsAndBattlesResultText } from './resultText';

export const warsAndBattlesRuleset: Ruleset<WarsAndBattlesState, schema.WarsAndBattlesOptions> = defineRuleset({
  id: 'wars-and-battles',
  title: 'Wars and Battles: Normandy 1944, combat, fatigue and supply',
  description:
    'Combat ratio to the nearest, C and L modifiers, 2d6 on combat, bombardment and support tables brought as data; loss points unit by unit; fatigue and status, activation and impulses, supply attrition, replenishment.',
  // The tables go into the creation request that commit 1 records: a game replays with exactly the tables it was created with.
  newGameOptions: { tables: EXAMPLE_TABLES, terrain: EXAMPLE_TERRAIN, commanders: EXAMPLE_COMMANDERS, rulesVersion: CURRENT_RULES_VERSION, availability: EXAMPLE_AVAILABILITY },
  // 2: the state holds the game's rulesVersion; 3: its weather and air state (airState.ts), and units hold movedStrategically and smallerThanBattalion.
  stateVersion: 3,
  options: schema.WarsAndBattlesOptions,
  sidesNote: 'allied and axis',
  sides: () => schema.SIDES,
  commands,
  procedures,
  view: schema.WarsAndBattlesView,
  events: warsAndBattlesEvents,
  initialState: (options: schema.WarsAndBattlesOptions) => initialWarsAndBattlesState(options),
  decide: decideWarsAndBattles,
  evolve: evolveWarsAndBattles,
  toMove: (state) => state.phasing,
  present: presentWarsAndBattles,
  summarize: summarizeWarsAndBattles,
  resultText: warsAndBattlesResultText,
});
