import { defineRuleset, type CommandOf } from '../../defineRuleset';
import type { Ruleset } from '../../ruleset';
import { decideWarsAndBattles } from './decide';
import { warsAndBattlesEvents } from './events';
import { EXAMPLE_COMMANDERS, EXAMPLE_TABLES, EXAMPLE_TERRAIN } from './exampleTables';
import { procedures } from './procedures';
import * as schema from './schemas';
import { evolveWarsAndBattles, initialWarsAndBattlesState, presentWarsAndBattles, type WarsAndBattlesState } from './state';
import { summarizeWarsAndBattles } from './summary';

const anySide = { sides: 'all', organizer: false } as const;

const commands = {
  Activate: { schema: schema.Activate, who: anySide, description: 'Activate your units for this impulse (to move them), one activation point each.' },
  DeclareAttack: { schema: schema.DeclareAttack, who: anySide, description: 'Declare a land attack on one hex: the ratio and every C and L modifier are checked now, with no die.' },
  ResolveAttack: { schema: schema.ResolveAttack, who: anySide, description: 'Roll your declared attack: 2d6 + L on the combat table, loss points unit by unit, retreat or surrender as the map allows.' },
  Bombard: { schema: schema.Bombard, who: anySide, description: 'Bombard a hex with artillery, ships or heavy bombers: points by identification, 2d6 on the bombardment table.' },
  Replenish: { schema: schema.Replenish, who: { sides: ['axis'], organizer: false }, description: 'Spend Axis replenishment points, one per LP, on units that have not attacked this turn.' },
  EndImpulse: { schema: schema.Empty, who: anySide, description: 'End your part of the impulse.' },
  EndTurn: { schema: schema.EndTurn, who: { sides: 'all', organizer: true }, description: 'End the turn: energy recovery, replenishment, supply and its attrition; the next turn begins.' },
} as const;

/** A Wars and Battles command, its payload as its schema parsed it. */
export type WarsAndBattlesCommand = CommandOf<typeof commands>;

export const warsAndBattlesRuleset: Ruleset<WarsAndBattlesState, schema.WarsAndBattlesOptions> = defineRuleset({
  id: 'wars-and-battles',
  title: 'Wars and Battles: Normandy 1944, combat, fatigue and supply',
  description:
    'Combat ratio to the nearest, C and L modifiers, 2d6 on combat, bombardment and support tables brought as data; loss points unit by unit; fatigue and status, activation and impulses, supply attrition, replenishment.',
  // The tables go into the creation request that commit 1 records: a game replays with exactly the tables it was created with.
  newGameOptions: { tables: EXAMPLE_TABLES, terrain: EXAMPLE_TERRAIN, commanders: EXAMPLE_COMMANDERS },
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
  present: presentWarsAndBattles,
  summarize: summarizeWarsAndBattles,
});
