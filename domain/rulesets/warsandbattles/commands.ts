import type { CommandOf } from '../../defineRuleset';
import * as schema from './schemas';
export const anySide = { sides: 'all', organizer: false } as const;

export const commands = {
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
