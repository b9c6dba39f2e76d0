import type { CommandOf } from '../../defineRuleset';
import * as schema from './schemas';
export const eitherSide = { sides: 'all', organizer: false } as const;

export const commands = {
  Battle: { schema: schema.Battle, who: eitherSide, description: 'One unit battles one target (the active side); armor or cavalry that took ground battles once more (overrun).' },
  TakeGround: { schema: schema.TakeGround, who: eitherSide, description: 'The unit that just emptied its target\'s hex by close assault moves into it; armor and cavalry may then overrun.' },
  CardRoll: { schema: schema.CardRoll, who: eitherSide, description: 'Roll d6 for a command card, read as symbols.' },
  EndTurn: { schema: schema.EndTurn, who: eitherSide, description: 'The active side passes the turn.' },
} as const;

/** A Memoir '44 (d6) command, its payload as its schema parsed it. */
export type Memoir44Command = CommandOf<typeof commands>;
