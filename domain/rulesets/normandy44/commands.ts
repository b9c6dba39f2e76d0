import type { CommandOf } from '../../defineRuleset';
import * as schema from './schemas';
export const anySide = { sides: 'all', organizer: false } as const;
export const alliedOnly = { sides: ['allied'], organizer: false } as const;

export const commands = {
  StartTurn: { schema: schema.StartTurn, who: { sides: 'all', organizer: true }, description: 'Open the next turn with the Allied reinforcement points of the turn.' },
  DeclareAttack: { schema: schema.DeclareAttack, who: anySide, description: 'Declare an attack; its odds are checked now.' },
  ResolveAttack: { schema: schema.AttackRef, who: anySide, description: 'Resolve your attack: Jabos first for a German attack in clear weather, then the combat die.' },
  DeterminedDefense: { schema: schema.DeterminedDefense, who: anySide, description: "The defender stands: after A1/DR, DR, D1 or A1/D1, once." },
  DeclineDeterminedDefense: { schema: schema.AttackRef, who: anySide, description: 'The defender retreats instead.' },
  Strafe: { schema: schema.Strafe, who: alliedOnly, description: 'Strafe an armored target.' },
  IsolationAttrition: { schema: schema.IsolationAttrition, who: anySide, description: 'Isolation attrition for one of your units.' },
  PurchaseReinforcements: { schema: schema.PurchaseReinforcements, who: alliedOnly, description: "Spend this turn's Allied reinforcement points." },
  MulberryBuilt: { schema: schema.MulberryBuilt, who: alliedOnly, description: "Record that an army's Mulberry is built." },
} as const;

/** A Normandy '44 command, its payload as its schema parsed it. */
export type Normandy44Command = CommandOf<typeof commands>;
