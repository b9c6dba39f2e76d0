import * as z from 'zod';
import type { EventOf } from '../../defineRuleset';
import { IDENTIFICATION, ROUTES, side, WEATHER } from './schemas';

const Modifier = z.strictObject({ source: z.string(), value: z.number() });
const Place = z.strictObject({ index: z.int(), label: z.string() });
const Effect = z.strictObject({ effect: z.string(), side: z.enum(['attacker', 'defender']).optional(), value: z.number().optional(), note: z.string().optional() });

// The table structures are domain/tables' (TableLanding, TableResolution): open objects, as that module may add fields.
const Landing = z
  .object({
    kind: z.enum(['ratio', 'differential', 'threshold']),
    attack: z.number().optional(),
    defence: z.number().optional(),
    value: z.number().optional(),
    reads: z.string().describe('the input as it reads, e.g. "13:2 = 6.5:1"'),
    rounded: z.string().optional().describe('the ratio rounded to the nearest, halves to the defender, e.g. "6:1"'),
    landedColumn: Place.describe('before the C shifts'),
    shifts: z.strictObject({ total: z.number(), sources: z.array(Modifier) }),
    column: Place.describe('after the C shifts'),
    dieModifier: z.number(),
    lostShift: z.number(),
  })
  .describe('where the input lands on the table, then the shifts');

const Resolution = z
  .object({
    table: z.object({ id: z.string(), title: z.string(), hash: z.string(), example: z.boolean() }),
    landing: Landing,
    roll: z
      .object({ dice: z.string(), faces: z.array(z.int()), natural: z.int(), modifiers: z.array(Modifier), modified: z.number(), row: Place })
      .nullable()
      .describe('null for the support table, which has no dice'),
    code: z.string(),
    description: z.string().optional(),
    effects: z.array(Effect),
    unproven: z.boolean().describe('the cell is one the table\'s source does not show: no effect'),
  })
  .describe('a lookup on one of the game\'s tables (docs/tables.md)');

const unitLp = z.strictObject({ unitId: z.string(), lost: z.int(), lpAfter: z.int() });
const statusChange = { unitId: z.string(), energy: z.int(), threshold: z.int(), statusAfter: z.int() };

/** The `data` of each event Wars and Battles records, by type (decide.ts). */
export const warsAndBattlesEvents = {
  UnitsActivated: z.strictObject({
    side,
    turn: z.int(),
    impulse: z.int(),
    unitIds: z.array(z.string()).describe('activated now, one point each'),
    alreadyActive: z.array(z.string()).describe('already active this impulse: no point'),
    pointsSpent: z.int(),
    pointsLeft: z.int().nullable().describe('null: unlimited'),
    strategic: z.array(z.string()).optional().describe('units that move strategically (6.3): they cannot attack this turn'),
  }),
  AttackDeclared: z.strictObject({
    attackId: z.string(),
    attacker: side,
    targetHex: z.string(),
    attackers: z.array(z.strictObject({ unitId: z.string(), hex: z.string(), attack: z.int(), status: z.int() })),
    defenders: z.array(z.strictObject({ unitId: z.string(), defence: z.int(), status: z.int() })),
    support: z.array(z.strictObject({ unitId: z.string(), points: z.int() })),
    terrain: z.string(),
    across: z.array(z.string()),
    cherbourg: z.enum(['area', 'city']).optional(),
    divisionalIntegrity: z.strictObject({ attacker: z.array(z.string()), defender: z.array(z.string()) }).describe('divisions with every unit in the fight'),
    ratio: z.strictObject({ attack: z.int(), defence: z.int() }),
    shifts: z.array(Modifier).describe('C: column shifts, + towards the attacker'),
    modifiers: z.array(Modifier).describe('L: added to the attacker\'s 2d6'),
    supportLookup: z.strictObject({ points: z.int(), bonus: z.int(), lookup: Resolution }).nullable(),
    landing: Landing,
  }),
  AttackResolved: z.strictObject({
    attackId: z.string(),
    resolution: Resolution,
    unproven: z.boolean(),
    attackerLoss: z.int(),
    defenderLoss: z.int(),
    retreat: z.boolean(),
  }),
  LossesAllocated: z.strictObject({
    cause: z.enum(['combat', 'bombardment']),
    ref: z.string().nullable().describe('the attack id, or the bombardment id if given'),
    side: z.enum(['attacker', 'defender']),
    losses: z.int(),
    ranking: z.array(z.string()).describe('most powerful first'),
    picks: z.array(
      z.strictObject({
        lp: z.int(),
        rule: z.enum(['most-powerful', 'random']),
        rank: z.int().optional(),
        die: z.strictObject({ sides: z.int(), value: z.int() }).optional(),
        unitId: z.string().optional(),
      }),
    ),
    units: z.array(unitLp),
    unallocated: z.int(),
  }),
  UnitDestroyed: z.strictObject({ unitId: z.string() }),
  UnitRetreated: z.strictObject({ attackId: z.string(), unitId: z.string(), route: z.enum(ROUTES).exclude(['none']), lpLost: z.int(), lpAfter: z.int() }),
  UnitSurrendered: z.strictObject({
    unitId: z.string(),
    reason: z.enum(['no-retreat', 'fatigue']),
    energy: z.int().optional(),
    threshold: z.int().optional(),
  }),
  FatigueGained: z.strictObject({
    unitId: z.string(),
    causes: z.array(z.strictObject({ cause: z.enum(['fight', 'lp-lost', 'retreat', 'bombarded']), points: z.int() })),
    energyBefore: z.int(),
    energyAfter: z.int(),
  }),
  StatusLevelLost: z.strictObject(statusChange),
  StatusLevelRecovered: z.strictObject(statusChange),
  AntiAircraftLosses: z.strictObject({ units: z.array(unitLp) }),
  BombardmentResolved: z.strictObject({
    bombardmentId: z.string().optional(),
    side,
    targetHex: z.string(),
    targets: z.array(z.string()),
    bombarders: z.array(z.strictObject({ unitId: z.string(), points: z.int() })),
    sight: z
      .strictObject({
        distance: z.int(),
        viewDistance: z.int(),
        weather: z.enum(WEATHER),
        weatherEffect: z.string(),
        effectiveView: z.string(),
        identifiedUpTo: z.string(),
        recognizedUpTo: z.string(),
      })
      .optional(),
    identification: z.enum(IDENTIFICATION),
    effectiveness: z.int().describe('per cent of the points that count'),
    points: z.int(),
    effectivePoints: z.int(),
    resolution: Resolution,
    unproven: z.boolean(),
    loss: z.int(),
  }),
  UnitsReplenished: z.strictObject({
    side,
    automatic: z.boolean(),
    units: z.array(z.strictObject({ unitId: z.string(), lp: z.int().describe('LP regained'), lpAfter: z.int(), lost: z.int().optional() })),
    pointsSpent: z.int().optional(),
    pointsLeft: z.int().optional(),
  }),
  ImpulseEnded: z.strictObject({
    turn: z.int(),
    impulse: z.int(),
    side,
    activationPointsUnused: z.int().nullable(),
    next: z.strictObject({ impulse: z.int(), side, activationPoints: z.int().nullable() }).nullable().describe('null: every impulse played, EndTurn next'),
  }),
  EnergyRecovered: z.strictObject({ units: z.array(z.strictObject({ unitId: z.string(), activated: z.boolean(), points: z.int(), energyAfter: z.int() })) }),
  ReplenishmentPointsLost: z.strictObject({ side, points: z.int() }),
  SupplyChecked: z.strictObject({
    outOfSupply: z.array(z.strictObject({ unitId: z.string(), turnsOutOfSupply: z.int() })),
    backInSupply: z.array(z.string()),
  }),
  SupplyAttrition: z.strictObject({ units: z.array(z.strictObject({ unitId: z.string(), turnsOutOfSupply: z.int(), lpAfter: z.int() })) }),
  TurnStarted: z.strictObject({ turn: z.int(), side, activationPoints: z.int().nullable(), axisReplenishmentPoints: z.int() }),
  // Rules version 2 (issue 31): air missions, weather, availability.
  AirMissionsCancelled: z
    .strictObject({
      mission: z.enum(['bombardment', 'support']),
      ref: z.string().nullable().describe('the attack id, or the bombardment id if given'),
      targetHex: z.string(),
      units: z.array(z.strictObject({ unitId: z.string(), reason: z.enum(['aborted', 'destroyed']) })),
    })
    .describe('7.4.4, 7.5.2: air units the AA shot down or made give up: they deliver nothing'),
  WeatherSet: z.strictObject({ turn: z.int(), weather: z.enum(WEATHER) }).describe('the weather of a turn (4.2)'),
  AirUnitsReturned: z
    .strictObject({ units: z.array(z.strictObject({ unitId: z.string(), destroyedInTurn: z.int(), lpAfter: z.int() })) })
    .describe('3.3: destroyed air units back two turns after their destruction'),
  AvailabilityRolled: z
    .strictObject({
      turn: z.int(),
      weather: z.enum(WEATHER),
      units: z.array(
        z.strictObject({
          unitId: z.string(),
          available: z.boolean(),
          checks: z.array(
            z.strictObject({
              role: z.enum(['air', 'maintenance', 'ship']),
              table: z.strictObject({ id: z.string(), hash: z.string(), example: z.boolean() }),
              column: z.string(),
              roll: z.strictObject({ dice: z.string(), natural: z.int() }).nullable().describe('null: the column says the same on every row'),
              code: z.string(),
              unproven: z.boolean(),
              available: z.boolean(),
            }),
          ),
        }),
      ),
    })
    .describe('10.3, 10.1.1: which air units and ships are available this turn'),
} as const satisfies Record<string, z.ZodType>;

/** An event Wars and Battles records, its data as its schema describes it. */
export type WarsAndBattlesEvent = EventOf<typeof warsAndBattlesEvents>;
