import * as z from 'zod';
import type { EventData, EventOf } from '../../defineRuleset';
import { NATIONALITIES } from './aaFire';
import { FIRE_MISSIONS } from './aaStrength';
import { AIR_TYPES, UNIT_MISSIONS } from './allocation';
import { CHART_ROWS } from './fortificationChart';
import { SIDES, SITE_KINDS } from './sides';

const side = z.enum(SIDES);
const kind = z.enum(SITE_KINDS);
const condition = z.enum(['intact', 'improved', 'unimproved', 'destroyed', 'under-construction']);
const chartRow = z.enum(CHART_ROWS as [string, ...string[]]);
const Modifier = z.strictObject({ source: z.string(), value: z.int() });
const Place = z.strictObject({ index: z.int(), label: z.string() });

const resolution = z
  .strictObject({
    table: z.strictObject({ id: z.string(), title: z.string(), hash: z.string(), example: z.boolean() }),
    landing: z.strictObject({
      kind: z.literal('threshold'),
      value: z.number(),
      reads: z.string(),
      landedColumn: Place,
      shifts: z.strictObject({ total: z.int(), sources: z.array(Modifier) }),
      column: Place,
      dieModifier: z.int().describe('columns past the left end, as a minus die modifier on the -1 column'),
      lostShift: z.int().describe('columns past the right end, lost (ruling)'),
    }),
    roll: z.strictObject({ dice: z.literal('2d6'), faces: z.array(z.int()), natural: z.int(), modifiers: z.array(Modifier), modified: z.int(), row: Place }),
    code: z.string(),
    description: z.string().optional(),
    effects: z.array(z.strictObject({ effect: z.string(), side: z.enum(['attacker', 'defender']).optional(), value: z.number().optional(), note: z.string().optional() })),
  })
  .describe("the roll on the game's AA fire table, as domain/tables records it");

const AAFired = z.strictObject({
  target: z.string().optional().describe('rules version 3, harassment by several units: the harassing air unit this fire is on (one fire, and one event, per unit)'),
  fireId: z.string(),
  hex: z.string(),
  mission: z.enum(FIRE_MISSIONS),
  date: z.string(),
  night: z.boolean(),
  nationality: z.enum(NATIONALITIES),
  strength: z.strictObject({
    how: z.string(),
    units: z.array(z.strictObject({ unitId: z.string(), hex: z.string().nullable(), aa: z.int(), fires: z.boolean(), reason: z.string().optional() })),
    hexes: z.array(z.strictObject({ hex: z.string().nullable(), aa: z.int(), counted: z.boolean(), reason: z.string().optional() })).describe('DAS and harassment: the hexes averaged over'),
    total: z.int(),
    hexCount: z.int(),
    strength: z.number().describe('total / hexCount, never rounded'),
    text: z.string(),
  }),
  force: z.array(
    z.strictObject({ unitId: z.string(), type: z.enum(AIR_TYPES), mission: z.enum(UNIT_MISSIONS), printedDf: z.int(), df: z.int(), steps: z.array(z.string()), dedicated: z.boolean() }),
  ),
  escorts: z.array(z.string()),
  shifts: z.array(Modifier),
  resolution,
  result: z.int().nullable().describe("defence factors affected; null for '-'"),
  allocation: z.strictObject({
    forceDf: z.int(),
    atLeastForce: z.boolean().describe('result ≥ the force’s combined DF: odd selections abort, even ones return; else odd return, even abort'),
    selections: z.array(
      z.strictObject({
        order: z.int(),
        unitId: z.string(),
        die: z.strictObject({ sides: z.int(), value: z.int() }).nullable(),
        df: z.int(),
        before: z.int(),
        after: z.int(),
        outcome: z.enum(['returned', 'aborted', 'unaffected']),
        effect: z.enum(['returns', 'aborts', 'aborts after the mission', 'eliminated after the mission']).nullable(),
      }),
    ),
    unaffected: z.array(z.string()),
    affectedDf: z.int(),
  }),
});

/** The `data` of each event the europa ruleset records, by type (decide.ts). */
export const europaEvents = {
  AAFired,
  FortificationPlaced: z.strictObject({ site: z.string(), kind, owner: side, condition, level: z.int().optional(), chartRow }),
  OwnershipChanged: z.strictObject({ site: z.string(), kind, from: side, to: side }),
  FortificationRemoved: z.strictObject({ site: z.string(), kind, reason: z.enum(['enemy-gain', 'destroyed']) }),
  ConditionChanged: z.strictObject({
    site: z.string(),
    kind,
    from: condition,
    to: condition,
    reason: z.enum(['enemy-gain', 'allied-initial-phase', 'improvement', 'emergency-restoration', 'destroyed']),
    chartRow,
  }),
  ImprovementBegun: z.strictObject({ site: z.string(), turn: z.int(), turns: z.int(), completesOnTurn: z.int(), quickConstruction: z.boolean(), resourcePoints: z.int() }),
  FortConstructionBegun: z
    .strictObject({
      site: z.string(),
      owner: side,
      turn: z.int(),
      turns: z.int(),
      completesOnTurn: z.int(),
      quickConstruction: z.boolean(),
      builder: z.strictObject({ unitId: z.string(), construction: z.boolean(), defense: z.int() }).optional(),
    })
    .describe('rules version 3: a fort placed during play is built, in effect once the turn it completes on begins'),
  FortsCompleted: z.strictObject({ turn: z.int(), forts: z.int().describe('how many forts whose construction completes on this turn are now built (rules version 3)') }),
  ImprovementCancelled: z.strictObject({ site: z.string(), reason: z.literal('enemy-gain') }),
  EmergencyRestorationDeclared: z.strictObject({ turn: z.int(), axisPhase: z.int(), alliedGroundUnitIn: z.string(), restoredAtAxisPhase: z.int(), forfeits: z.array(z.string()) }),
  EmergencyRestorationContinued: z.strictObject({ turn: z.int(), axisPhase: z.int(), forfeits: z.array(z.string()) }),
  EmergencyRestorationCompleted: z.strictObject({
    turn: z.int(),
    axisPhase: z.int(),
    hexes: z.int().optional().describe('rulesVersion 2: how many Axis-owned unimproved Westwall hexes became improved'),
    sites: z.array(z.string()).optional().describe('rulesVersion 1: the Axis-owned Westwall hexes restored, each also in a ConditionChanged'),
  }),
  ImprovementsCompleted: z.strictObject({ turn: z.int(), hexes: z.int().describe('how many Westwall hexes whose improvement completes on this turn became improved (rulesVersion 2)') }),
  AlliedWestwallUnimproved: z.strictObject({ turn: z.int(), hexes: z.int().describe('how many Allied-owned improved Westwall hexes became unimproved (rulesVersion 2)') }),
  TurnBegan: z.strictObject({ turn: z.int() }),
  InitialPhaseBegan: z.strictObject({ turn: z.int(), side, axisPhase: z.int().nullable().describe('the Axis initial phases of the game so far, this one included') }),
} as const satisfies Record<string, z.ZodType>;

/** An event the europa ruleset records, its data as its schema describes it. */
export type EuropaEvent = EventOf<typeof europaEvents>;
export type EuropaEventData<T extends EuropaEvent['type']> = EventData<typeof europaEvents, T>;
