import type { CommandOf } from '../../defineRuleset';
import * as schema from './schemas';
export const anySide = { sides: 'all', organizer: false } as const;

export const commands = {
  StartTurn: { schema: schema.StartTurn, who: { sides: 'all', organizer: true }, description: 'Open the next game turn; optionally set both reaction point tracks.' },
  ActivateHQ: { schema: schema.ActivateHQ, who: anySide, description: 'Activate one of your HQs in an initiative phase.' },
  BeginReactionSegment: { schema: schema.Empty, who: anySide, description: 'Begin a Reaction Segment.' },
  ReactionPhase: { schema: schema.ReactionPhase, who: anySide, description: 'One Army Reaction Phase (3 points) or a Single-Piece Reaction Phase (1 point).' },
  EndReactionSegment: { schema: schema.Empty, who: anySide, description: 'End your segment; spending 1 or 2 points forfeits up to 3 in all.' },
  DeclineReactionSegment: { schema: schema.Empty, who: anySide, description: 'Decline a Reaction Segment; nothing is lost.' },
  BeginAttackIncrement: { schema: schema.Empty, who: anySide, description: 'Open an attack increment as its attacker.' },
  DeclareCombat: { schema: schema.DeclareCombat, who: anySide, description: 'Declare a combat of the open increment (before any is resolved).' },
  RollAirPower: { schema: schema.RollAirPower, who: { sides: ['allied'], organizer: false }, description: 'Try air power for one declared combat: one attempt per increment.' },
  ResolveCombat: { schema: schema.CombatRef, who: anySide, description: 'Resolve a declared combat on the Revised Combat Table (one d6).' },
  EndAttackIncrement: { schema: schema.Empty, who: anySide, description: 'End the increment once every declared combat is resolved.' },
  ApplySupplyAttrition: { schema: schema.ApplySupplyAttrition, who: anySide, description: 'Administrative phase: out-of-supply losses of your units.' },
} as const;

/** A France 1944 command, its payload as its schema parsed it. */
export type France44Command = CommandOf<typeof commands>;
