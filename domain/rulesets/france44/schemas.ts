import * as z from 'zod';
import { COMBAT_KINDS } from './tables';
import { playerId, playerText } from '../../playerText';
import { RULES_VERSIONS } from './rulesVersion';

const hex = z.string().regex(/^\d{4}$/, 'a hex is its four-digit CCRR number, e.g. "2708"');
const morale = z.int().min(1).max(6);
const side = z.enum(['allied', 'german']);

export const France44Options = z.strictObject({
  hexGrid: z.enum(['odd-q', 'even-q']).default('odd-q').describe('odd-q: odd columns sit half a hex lower (ruling)'),
  cAttackerLoss: z.boolean().default(false).describe('house rule (ruling): a C result also costs the attacker 1 step; the source offers it for the original table'),
  airPowerMoraleModifier: z.int().min(-3).max(0).default(-1).describe('defender morale modifier of allocated air power (ruling: -1)'),
  // No default: commit 1 of a game created before version 2 records no rulesVersion, and must replay as it was recorded.
  rulesVersion: z
    .literal(RULES_VERSIONS)
    .optional()
    .describe('2: the current rules; 1: as first published. A game recorded without it plays 1; /evaluate uses 2 unless told'),
});
export type France44Options = z.infer<typeof France44Options>;

const strengthNeeded = { message: 'a combat unit needs its strength (only an HQ may leave it out)', path: ['strength'] };
const attackerFields = {
  strength: z.int().min(0).max(999).optional(),
  hq: z.boolean().optional(),
  outOfSupply: z.boolean().optional().describe('an out-of-supply HQ may not attack; an out-of-supply combat unit attacks at full strength'),
};
const defenderFields = { strength: z.int().min(1).max(999), outOfSupply: z.boolean().optional() };
const attacker = z.strictObject({ unitId: playerId, hex, ...attackerFields }).refine((a) => a.hq || a.strength !== undefined, strengthNeeded);
const defender = z.strictObject({ unitId: playerId, hex, ...defenderFields });

const declarationFields = {
  kind: z.enum(COMBAT_KINDS),
  attackerMorale: morale,
  defenderMorale: morale,
  terrainMoraleModifiers: z.array(z.union([z.literal(1), z.literal(2)])).max(8).optional().describe('each +1 or +2; only the best counts'),
  otherMoraleModifiers: z
    .array(z.strictObject({ source: playerText(64), value: z.int().min(-3).max(3) }))
    .max(8)
    .optional()
    .describe('e.g. { source: "79th Armoured", value: -1 }, { source: "heavy bombing", value: -2 }'),
};

export const DeclareCombat = z.strictObject({
  combatId: playerId,
  attackers: z.array(attacker).min(1).max(16),
  defenders: z.array(defender).min(1).max(16),
  ...declarationFields,
});
export type DeclareCombat = z.infer<typeof DeclareCombat>;

export const StartTurn = z.strictObject({
  turn: z.int().min(1).max(999).describe('the game turn that begins: the one after the last'),
  reactionPoints: z
    .strictObject({ allied: z.int().min(0).max(99).describe('Allied reaction points'), german: z.int().min(0).max(99).describe('German reaction points') })
    .optional()
    .describe('reaction points of both tracks from this turn; leave out to keep them as they are'),
});
export const ActivateHQ = z.strictObject({ hqId: playerId });
export const Empty = z.strictObject({});
export const ReactionPhase = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('army'), hqId: playerId }),
  z.strictObject({ kind: z.literal('single-piece'), unitId: playerId, unitKind: z.enum(['combat', 'hq']), outOfSupply: z.boolean().optional() }),
]);
export type ReactionPhase = z.infer<typeof ReactionPhase>;
export const CombatRef = z.strictObject({ combatId: playerId });
export const RollAirPower = z.strictObject({ combatId: playerId, availability: z.int().min(0).max(6).describe('the Air Power Availability Track now') });
export const ApplySupplyAttrition = z.strictObject({
  units: z
    .array(
      z.strictObject({
        unitId: playerId,
        kind: z.enum(['combat', 'hq']),
        outOfSupply: z.boolean(),
        atCadre: z.boolean().optional(),
        stackedWithCombatUnit: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(200),
});
export type ApplySupplyAttrition = z.infer<typeof ApplySupplyAttrition>;

export const CombatProcedureInput = z.strictObject({
  combatId: playerId.optional(),
  attackers: z
    .array(z.strictObject({ unitId: playerId.optional(), hex: hex.optional(), ...attackerFields }).refine((a) => a.hq || a.strength !== undefined, strengthNeeded))
    .min(1)
    .max(16),
  defenders: z.array(z.strictObject({ unitId: playerId.optional(), hex: hex.optional(), ...defenderFields })).min(1).max(16),
  ...declarationFields,
  airPower: z.boolean().optional().describe('air power allocated to this combat'),
});
export const CrdtInput = z.strictObject({
  ratioResult: z.int().min(1).max(5),
  defenderMorale: morale,
  attackerMorale: morale,
  kind: z.enum(COMBAT_KINDS),
});
export const AirPowerInput = z.strictObject({ availability: z.int().min(0).max(6) });

export const France44View = z.object({
  turn: z.int().describe('0 until the first StartTurn'),
  reactionPoints: z.object({ allied: z.int(), german: z.int() }),
  hqActivations: z.record(side, z.object({ byHq: z.record(z.string(), z.int()), last: z.string().nullable() })),
  reactionSegment: z.object({ side, spent: z.int(), units: z.array(z.string()), army: z.boolean() }).nullable(),
  attackIncrement: z
    .object({
      number: z.int(),
      attacker: side,
      airPowerTried: z.boolean(),
      combats: z.array(z.object({ combatId: z.string(), airPower: z.boolean(), resolved: z.boolean(), code: z.string().nullable() })),
    })
    .nullable(),
  incrementsPlayed: z.int(),
});
