import * as z from 'zod';
import { playerId } from '../../playerText';
import { REINFORCEMENT_COSTS } from './tables';

const favour = z.enum(['attacker', 'defender']);
const troopQuality = z.int().min(-3).max(3);

export const Normandy44Options = z.strictObject({});
export type Normandy44Options = z.infer<typeof Normandy44Options>;

export const DefenderHex = z.strictObject({
  terrain: z.enum(['clear', 'mixed', 'bocage', 'woods', 'village', 'city', 'flooded']),
  hilltop: z.boolean().optional(),
  fortifiedPosition: z.boolean().optional(),
  strongpoint: z.boolean().optional(),
});
const hexside = z.enum(['none', 'minor-river', 'major-river', 'flooded', 'runway', 'cherbourg-perimeter', 'causeway', 'impassable']);
const attackerFields = {
  factors: z.int().min(0).max(99),
  mainAttackForce: z.boolean(),
  hexside: hexside.optional(),
  fromFloodedHex: z.boolean().optional(),
  outOfSupply: z.boolean().optional(),
  landingTurn: z.boolean().optional().describe('an Allied reinforcement on its landing turn'),
};
const defenderFields = { factors: z.int().min(0).max(99), steps: z.int().min(1).max(20) };
const attackFields = {
  weather: z.enum(['clear', 'overcast', 'storm']),
  defenderHex: DefenderHex,
  shifts: z
    .strictObject({
      troopQuality: favour.optional(),
      armorAdvantage: favour.optional(),
      tiger: favour.optional(),
      airSupport: z.int().min(0).max(2).optional(),
      naval: z.boolean().optional(),
      defenderStrategicMovement: z.boolean().optional(),
      hq: z.int().min(0).max(2).optional(),
    })
    .default({}),
};

export const DeclareAttack = z.strictObject({
  attackId: playerId,
  ...attackFields,
  attackers: z.array(z.strictObject({ unitId: playerId, ...attackerFields })).min(1).max(20),
  defenders: z.array(z.strictObject({ unitId: playerId, ...defenderFields })).min(1).max(20),
});
export type DeclareAttack = z.infer<typeof DeclareAttack>;

export const CombatProcedureInput = z.strictObject({
  attackId: playerId.optional(),
  attackerSide: z.enum(['allied', 'german']),
  ...attackFields,
  attackers: z.array(z.strictObject({ unitId: playerId.optional(), ...attackerFields })).min(1).max(20),
  defenders: z.array(z.strictObject({ unitId: playerId.optional(), ...defenderFields })).min(1).max(20),
});

const oneModifier = { message: 'give the lead unit\'s troop quality or the armor comparison, not both', path: ['armorComparison'] };
const ddFields = { troopQuality: troopQuality.optional(), armorComparison: z.int().min(-6).max(6).optional(), defensiveSupport: z.boolean().optional() };
const notBoth = (d: { troopQuality?: number; armorComparison?: number }) => d.troopQuality === undefined || d.armorComparison === undefined;

export const DeterminedDefense = z.strictObject({ attackId: playerId, leadUnitId: playerId, ...ddFields }).refine(notBoth, oneModifier);
export const DeterminedDefenseInput = z.strictObject({ defenderHex: DefenderHex, ...ddFields }).refine(notBoth, oneModifier);
export const AttackRef = z.strictObject({ attackId: playerId });
export const StartTurn = z.strictObject({ turn: z.int().min(1).max(999), reinforcementPoints: z.int().min(0).max(99).optional() });
export const Strafe = z.strictObject({ targetUnitId: playerId, flak: z.boolean().optional(), strategicMovement: z.boolean().optional() });
export const StrafingInput = z.strictObject({ flak: z.boolean().optional(), strategicMovement: z.boolean().optional() });
export const IsolationAttrition = z.strictObject({ unitId: playerId, canTraceSupply: z.boolean(), troopQuality });
export const IsolationInput = z.strictObject({ canTraceSupply: z.boolean(), troopQuality });
export const JabosInput = z.strictObject({});
const army = z.enum(['omaha', 'arromanches']);
export const PurchaseReinforcements = z.strictObject({
  items: z
    .array(
      z
        .strictObject({ kind: z.enum(Object.keys(REINFORCEMENT_COSTS) as [keyof typeof REINFORCEMENT_COSTS]), army: army.optional() })
        .refine((i) => (i.kind === 'supply-point') === (i.army !== undefined), { message: 'a supply point names its army (omaha or arromanches); nothing else does', path: ['army'] }),
    )
    .min(1)
    .max(30),
});
export type PurchaseReinforcements = z.infer<typeof PurchaseReinforcements>;
export const MulberryBuilt = z.strictObject({ army });

export const Normandy44View = z.object({
  turn: z.int(),
  reinforcementPoints: z.int().describe('Allied points left this turn'),
  mulberries: z.array(army),
  attacksSettled: z.int().describe('attacks resolved, with any Determined Defense decided'),
  openAttacks: z.array(
    z.object({ attackId: z.string(), attacker: z.enum(['allied', 'german']), resolved: z.boolean(), code: z.string().nullable(), determinedDefense: z.enum(['open', 'rolled', 'declined', 'not-allowed']).nullable() }),
  ),
});
