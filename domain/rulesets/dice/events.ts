import * as z from 'zod';
import { turnPassedEvent } from '../passTurn';

const Die = z.strictObject({ sides: z.int(), value: z.int() });

/** The `data` of each event the dice ruleset records, by type (index.ts: decide). */
export const diceEvents = {
  DiceRolled: z.strictObject({
    purpose: z.string(),
    dice: z.string().describe('the expression, normalized: counts written out, no spaces, e.g. "2d6+1"'),
    rolls: z.array(Die).describe('every die drawn, in order'),
    modifier: z.int(),
    total: z.int().describe('the sum of the dice kept, a term with a target adding its number of successes, plus the modifier'),
    notation: z
      .literal(2)
      .optional()
      .describe('2 when `dice` is written in the notation of rules version 2 (d66 as tens and units, "!", "kh"/"kl", a target); absent for a plain expression'),
  }),
  TurnPassed: turnPassedEvent,
} as const satisfies Record<string, z.ZodType>;
