import * as z from 'zod';
import type { EventOf } from '../../defineRuleset';
import { DeclareAttack } from './schemas';
import { ODDS_COLUMNS, REINFORCEMENT_COSTS } from './tables';

const side = z.enum(['allied', 'german']);
const code = z.enum(['A1', 'A1/DR', 'DR', 'D1', 'A1/D1', 'EX', 'A1/D2', 'DH']);
const column = z.enum(ODDS_COLUMNS.map((c) => c.label) as [string, ...string[]]);
const army = z.enum(['omaha', 'arromanches']);
/** Factors are halved: 4.5 is a count. */
const factors = z.number();
const modifiers = z.array(z.strictObject({ modifier: z.string(), value: z.int() }));

const effects = {
  attackerSteps: z.int(),
  defenderSteps: z.int(),
  retreat: z.union([z.literal(0), z.literal(2), z.literal(4)]),
  determinedDefenseAllowed: z.boolean(),
  disorganized: z.boolean(),
  advance: z.enum(['none', 'normal', 'limited', 'normal-or-reserve']),
};

const attackBreakdown = z.strictObject({
  attackerSide: side,
  attackers: z.array(z.strictObject({ unitId: z.string().optional(), factors: z.int(), halvedFor: z.array(z.string()), counted: factors })),
  attack: z.strictObject({ total: factors, counted: factors, capped: z.boolean() }),
  defence: z.strictObject({ factors: z.int(), bdc: z.int(), total: z.int(), counted: z.int(), capped: z.boolean() }),
  odds: z.string(),
  baseColumn: column,
  shifts: z.array(z.strictObject({ shift: z.string(), columns: z.int(), applied: z.boolean(), reason: z.string().optional() })),
  netShift: z.int(),
  shiftsLost: z.int().describe('columns beyond the first or last column'),
  column,
  jabos: z.strictObject({ die: z.int(), shift: z.int() }).optional().describe('German attacks in clear weather only'),
  die: z.int(),
  code,
  defenderSteps: z.int().describe("the defenders' steps engaged"),
  effects: z.strictObject(effects),
});

const roll = { die: z.int(), modifiers, modifiedDie: z.int() };

/** The `data` of each event Normandy '44 records, by type (decide.ts). */
export const normandy44Events = {
  TurnStarted: z.strictObject({ turn: z.int(), reinforcementPoints: z.int(), forfeited: z.int().describe('Allied points left unspent last turn, now lost') }),
  AttackDeclared: z.strictObject({ attackId: z.string(), attacker: side, declaration: DeclareAttack, odds: z.string(), baseColumn: column }),
  AttackResolved: z.strictObject({ attackId: z.string(), code, column, ...effects, breakdown: attackBreakdown }),
  DeterminedDefenseRolled: z.strictObject({
    attackId: z.string(),
    leadUnitId: z.string(),
    code: z.string().describe('the table\'s entry: "-", "-1", "●-1", "●EX", "●PA-1*", …'),
    retreatCancelled: z.boolean(),
    leadUnitSteps: z.int(),
    attackerMafSteps: z.int(),
    attackerAnySteps: z.int(),
    fortifiedPositionEliminated: z.boolean(),
    column: z.enum(['flooded-clear', 'other', 'fortified-position', 'strongpoint-city']),
    ...roll,
  }),
  DeterminedDefenseDeclined: z.strictObject({ attackId: z.string() }),
  StrafingResolved: z.strictObject({ targetUnitId: z.string(), stepLoss: z.int(), ...roll }),
  IsolationAttritionResolved: z.strictObject({ side, unitId: z.string(), stepLoss: z.int(), ...roll }),
  ReinforcementsPurchased: z.strictObject({
    items: z.array(
      z.strictObject({ kind: z.enum(Object.keys(REINFORCEMENT_COSTS) as [keyof typeof REINFORCEMENT_COSTS]), army: army.optional(), cost: z.int() }),
    ),
    cost: z.int(),
    pointsLeft: z.int(),
  }),
  MulberryBuilt: z.strictObject({ army }),
} as const satisfies Record<string, z.ZodType>;

/** An event Normandy '44 records, its data as its schema describes it. */
export type Normandy44Event = EventOf<typeof normandy44Events>;
