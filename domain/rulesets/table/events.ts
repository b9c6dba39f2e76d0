import * as z from 'zod';
import { turnPassedEvent } from '../passTurn';

const Modifier = z.strictObject({ source: z.string(), value: z.number() });
const Place = z.strictObject({ index: z.int(), label: z.string() });
const Effect = z.strictObject({ effect: z.string(), side: z.enum(['attacker', 'defender']).optional(), value: z.number().optional(), note: z.string().optional() });

/** The `data` of each event the table ruleset records, by type (index.ts: decide). */
export const tableEvents = {
  TableResolved: z.strictObject({
    purpose: z.string().optional(),
    table: z.strictObject({ id: z.string(), title: z.string(), hash: z.string(), example: z.boolean() }),
    landing: z
      .object({
        kind: z.enum(['ratio', 'differential', 'threshold']),
        reads: z.string().describe('the input as it reads before landing, e.g. "13:2 = 6.5:1"'),
        rounded: z.string().optional(),
        landedColumn: Place,
        shifts: z.object({ total: z.number(), sources: z.array(Modifier) }),
        column: Place,
        dieModifier: z.number(),
        lostShift: z.number(),
      })
      .describe('how the attack landed on a column, then shifted'),
    roll: z
      .object({ dice: z.string(), faces: z.array(z.int()), natural: z.int(), modifiers: z.array(Modifier), modified: z.number(), row: Place })
      .nullable()
      .describe('null for a table looked up without dice'),
    code: z.string(),
    description: z.string().optional(),
    effects: z.array(Effect),
  }),
  TurnPassed: turnPassedEvent,
} as const satisfies Record<string, z.ZodType>;
