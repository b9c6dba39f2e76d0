import * as z from 'zod';
import { playerText } from '../../playerText';
import { ORGANIZER } from '../../ruleset';
import { DiceExpressionError, parseDiceExpression } from './diceExpression';
import { MAX_MODIFIER } from './roll';

export const sideName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,31}$/, 'a side name is a letter then up to 31 letters, digits, "_" or "-"')
  .refine((name) => name !== ORGANIZER, '"organizer" is a role, not a side');

/** Sides a game names for itself: 2 to 8, player1 and player2 unless told. */
export const sidesOption = z
  .array(sideName)
  .min(2)
  .max(8)
  .refine((names) => new Set(names).size === names.length, 'side names must differ')
  .default(['player1', 'player2'])
  .describe('names of the sides, 2 to 8');

export const DiceOptions = z.strictObject({ sides: sidesOption });
export type DiceOptions = z.infer<typeof DiceOptions>;

const diceString = z
  .string()
  .min(1)
  .max(200)
  .superRefine((text, ctx) => {
    let modifier: number;
    try {
      modifier = parseDiceExpression(text).modifier;
    } catch (error) {
      if (!(error instanceof DiceExpressionError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message, params: { position: error.position } });
      return;
    }
    if (Math.abs(modifier) > MAX_MODIFIER) {
      ctx.addIssue({ code: 'custom', message: `the integers add up to ${modifier}; a modifier must be from -${MAX_MODIFIER} to +${MAX_MODIFIER}` });
    }
  })
  .describe(`e.g. "3d6+1": term (("+" | "-") term)*, term = [count] "d" sides | integer; the integers add up to -${MAX_MODIFIER} to +${MAX_MODIFIER}`);

const diceList = z
  .array(z.strictObject({ count: z.int().min(1), sides: z.int() }))
  .min(1)
  .max(100)
  .describe('e.g. [{ "count": 3, "sides": 6 }]');

export const DiceSpecSchema = z.union([diceString, diceList]);

export const Roll = z.strictObject({
  dice: DiceSpecSchema,
  purpose: playerText(200).describe('what the roll is for'),
});
export type Roll = z.infer<typeof Roll>;

export const RollProcedureInput = z.strictObject({ dice: DiceSpecSchema });
export type RollProcedureInput = z.infer<typeof RollProcedureInput>;

export const DiceView = z.object({
  rolls: z.int().describe('how many Roll commands were accepted'),
  lastRoll: z
    .object({ purpose: z.string(), dice: z.string(), total: z.int() })
    .nullable(),
});
