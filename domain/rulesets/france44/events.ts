import * as z from 'zod';
import { COMBAT_KINDS } from './tables';
import type { EventOf } from '../../defineRuleset';
import { DeclareCombat } from './schemas';

const side = z.enum(['allied', 'german']);
const letter = z.enum(['A', 'B', 'C', 'D', 'E', 'F']);
const kind = z.enum(COMBAT_KINDS);
/** Strengths are halved for out-of-supply defenders: 4.5 is a strength. */
const strength = z.number();

const reactionPhaseTaken = z.discriminatedUnion('kind', [
  z.strictObject({ side, kind: z.literal('army'), unitId: z.string(), unitKind: z.literal('hq'), cost: z.literal(3), pointsLeft: z.int() }),
  z.strictObject({
    side,
    kind: z.literal('single-piece'),
    unitId: z.string(),
    unitKind: z.enum(['combat', 'hq']),
    outOfSupply: z.boolean(),
    cost: z.literal(1),
    pointsLeft: z.int(),
  }),
]);

const airPowerRoll = { combatId: z.string(), die: z.int(), availability: z.int() };

/** The `data` of each event France 1944 records, by type (decide.ts). */
export const france44Events = {
  TurnStarted: z.strictObject({ turn: z.int(), reactionPoints: z.strictObject({ allied: z.int(), german: z.int() }) }),
  HQActivated: z.strictObject({
    side,
    hqId: z.string(),
    via: z.enum(['initiative', 'army-reaction', 'single-piece-reaction']),
    activationsThisTurn: z.int(),
  }),
  ReactionSegmentBegun: z.strictObject({ side }),
  ReactionPhaseTaken: reactionPhaseTaken,
  UnitStepLost: z.strictObject({ side, unitId: z.string(), reason: z.string() }),
  UnitEliminated: z.strictObject({ side, unitId: z.string(), reason: z.string() }),
  HQDispersed: z.strictObject({ side, hqId: z.string(), reason: z.string() }),
  ReactionSegmentEnded: z.strictObject({ side, spent: z.int(), forfeited: z.int(), pointsLeft: z.int() }),
  ReactionSegmentDeclined: z.strictObject({ side }),
  AttackIncrementBegun: z.strictObject({ increment: z.int(), attacker: side }),
  CombatDeclared: z.strictObject({
    increment: z.int(),
    declaration: DeclareCombat,
    odds: z.string().describe('attack:defence, e.g. "6:3" or "7:4.5"'),
    baseColumn: z.string().describe('the odds column before shifts, e.g. "2-1"'),
  }),
  AirPowerAllocated: z.strictObject({ ...airPowerRoll, allocated: z.literal(true), moraleModifier: z.int() }),
  AirPowerUnavailable: z.strictObject({ ...airPowerRoll, allocated: z.literal(false) }),
  CombatResolved: z.strictObject({
    combatId: z.string(),
    attack: strength,
    defence: strength,
    odds: z.string(),
    baseColumn: z.string(),
    morale: z.strictObject({
      attacker: z.int(),
      defenderBase: z.int(),
      terrainModifiers: z.array(z.int()),
      bestTerrain: z.int(),
      otherModifiers: z.array(z.strictObject({ source: z.string(), value: z.int() })),
      otherTotal: z.int(),
      adjustment: z.int(),
      adjustedDefender: z.int(),
      modifier: z.int(),
    }),
    control: z.strictObject({ limit: z.int(), units: z.int(), modifier: z.int() }),
    combatModifier: z.int(),
    column: z.string(),
    dieModifier: z.int(),
    die: z.int(),
    adjustedDie: z.int(),
    kind,
    code: letter,
    stepLosses: z.strictObject({ defender: z.int(), attacker: z.int() }).nullable().describe('what a C result costs; null for other letters'),
  }),
  AttackIncrementEnded: z.strictObject({ increment: z.int(), attacker: side, combats: z.int() }),
  SupplyAttritionApplied: z.strictObject({ side, checked: z.int(), losses: z.int() }),
} as const satisfies Record<string, z.ZodType>;

/** An event France 1944 records, its data as its schema describes it. */
export type France44Event = EventOf<typeof france44Events>;
