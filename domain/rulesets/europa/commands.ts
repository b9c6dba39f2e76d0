import type { CommandOf } from '../../defineRuleset';
import * as schema from './schemas';
export const anyone = { sides: 'all', organizer: true } as const;

export const commands = {
  AAFire: { schema: schema.AAFire, who: anyone, description: "Fire AA at the air units flying a mission: strength, column shifts, 2d6 on the game's AA fire table, losses by random selection." },
  FortificationEvent: {
    schema: schema.FortificationEvent,
    who: anyone,
    description: 'Record what happens to fortifications: place, gain, loss, destroy, begin a Westwall improvement, declare the emergency restoration, begin a turn or an initial phase.',
  },
} as const;

/** A europa command, its payload as its schema parsed it. */
export type EuropaCommand = CommandOf<typeof commands>;
