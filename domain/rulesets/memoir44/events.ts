import * as z from 'zod';
import type { EventOf } from '../../defineRuleset';
import { Battle } from './schemas';
import { CARD_SYMBOLS } from './tables';

const side = z.enum(['allies', 'axis']);

/** The `data` of each event Memoir '44 (d6) records, by type (decide.ts). */
export const memoir44Events = {
  BattleFought: z.strictObject({
    side,
    attacker: Battle.shape.attacker,
    target: Battle.shape.target,
    range: z.int(),
    starsHit: z.boolean(),
    overrun: z.literal(true).optional().describe('an armor or cavalry unit battling again after taking ground; absent otherwise'),
    hits: z.int(),
    flags: z.int(),
    cancelled: z.int().describe("hits cancelled by armor's defensive roll"),
    figuresLost: z.int(),
    eliminated: z.boolean(),
    breakdown: z.strictObject({
      dice: z.int().describe('how many battle dice'),
      threshold: z.string().describe('e.g. "5+", or "raw 1 or 6 (artillery in a bunker)"'),
      reductions: z.array(z.strictObject({ reason: z.string(), value: z.int() })),
      reduction: z.int(),
      rolls: z.array(z.int()),
      defensiveRolls: z.array(z.int()),
    }),
  }),
  GroundTaken: z.strictObject({
    side,
    unitId: z.string(),
    targetId: z.string().describe('the unit whose hex it moved into'),
    mayOverrun: z.boolean().describe('armor or cavalry whose battle was not already its overrun: it may battle once more'),
  }),
  TurnEnded: z.strictObject({ side, turn: z.int(), next: side }),
  CardRolled: z.strictObject({ purpose: z.string(), rolls: z.array(z.int()), symbols: z.array(z.enum([...new Set(CARD_SYMBOLS)] as [string, ...string[]])) }),
} as const satisfies Record<string, z.ZodType>;

/** An event Memoir '44 (d6) records, its data as its schema describes it. */
export type Memoir44Event = EventOf<typeof memoir44Events>;
