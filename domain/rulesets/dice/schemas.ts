import * as z from 'zod';
import { playerText } from '../../playerText';
import { ORGANIZER } from '../../ruleset';
import { DiceExpressionError, parseDiceExpression } from './diceExpression';
import { MAX_DICE_PER_COMMAND, MAX_EXTRA_DICE_PER_DIE, MAX_MODIFIER } from './roll';
import { RULES_VERSIONS } from './rulesVersion';

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

export const DiceOptions = z.strictObject({
  sides: sidesOption,
  // No default: commit 1 of a game created before version 2 records no rulesVersion, and must replay as it was recorded.
  rulesVersion: z
    .literal(RULES_VERSIONS)
    .optional()
    .describe('2: the current notation (d66, d%, kh/kl, targets, "!"); 1: as first published, where d66 is a 66-sided die. A game recorded without it plays 1; /evaluate uses 2 unless told'),
});
export type DiceOptions = z.infer<typeof DiceOptions>;

const diceString = z
  .string()
  .min(1)
  .max(200)
  .superRefine((text, ctx) => {
    let modifier: number;
    try {
      // The widest notation; a game of rules version 1 reads the string again with its own (roll.ts).
      modifier = parseDiceExpression(text, 2).modifier;
    } catch (error) {
      if (!(error instanceof DiceExpressionError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message, params: { position: error.position } });
      return;
    }
    if (Math.abs(modifier) > MAX_MODIFIER) {
      ctx.addIssue({ code: 'custom', message: `the integers add up to ${modifier}; a modifier must be from -${MAX_MODIFIER} to +${MAX_MODIFIER}` });
    }
  })
  .describe(
    `e.g. "3d6+1", "d66", "4d6kh3", "6d6>=5", "1d6!": term (("+" | "-") term)*, term = [count] "d" (sides | "%") ["!"] [("kh" | "kl") n] [(">=" | ">" | "<=" | "<" | "=") n] | integer; ` +
      `at most ${MAX_DICE_PER_COMMAND} dice (a d66 counts 2, an exploding die ${1 + MAX_EXTRA_DICE_PER_DIE}); the integers add up to -${MAX_MODIFIER} to +${MAX_MODIFIER}`,
  );

const diceList = z
  .array(z.strictObject({ count: z.int().min(1), sides: z.int() }))
  .min(1)
  .max(100)
  .describe('e.g. [{ "count": 3, "sides": 6 }]: plain dice of 2 to 1000 sides (sides 66 is a 66-sided die)');

export const DiceSpecSchema = z.union([diceString, diceList]);

export const MAX_ROLLS_PER_COMMAND = 10;

export const LabelledRoll = z.strictObject({
  dice: DiceSpecSchema,
  purpose: playerText(200).describe('what the roll is for'),
});
export type LabelledRoll = z.infer<typeof LabelledRoll>;

export const SeveralRolls = z.strictObject({
  rolls: z
    .array(LabelledRoll)
    .min(1)
    .max(MAX_ROLLS_PER_COMMAND)
    .describe(`1 to ${MAX_ROLLS_PER_COMMAND} rolls, each with its purpose, rolled in order in one commit; at most ${MAX_DICE_PER_COMMAND} dice in all`),
});

/** One roll `{ dice, purpose }`, or several labelled rolls at once `{ rolls: [{ dice, purpose }, …] }`. */
export const Roll = z.union([LabelledRoll, SeveralRolls]);
export type Roll = z.infer<typeof Roll>;

export const RollProcedureInput = z.strictObject({ dice: DiceSpecSchema });
export type RollProcedureInput = z.infer<typeof RollProcedureInput>;

export const DiceView = z.object({
  rolls: z.int().describe('how many rolls were recorded (each labelled roll of a Roll counts one), voided ones included: the game\'s `voided` lists the commits that no longer count'),
  lastRoll: z
    .object({ purpose: z.string(), dice: z.string(), total: z.int() })
    .nullable()
    .describe('the last roll recorded, even when voided'),
  toMove: z.string().describe('whose move it is: the first side from creation, then the side each PassTurn names (docs/clocks.md)'),
});
