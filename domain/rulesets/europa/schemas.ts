import * as z from 'zod';
import { playerId } from '../../playerText';
import { NATIONALITIES, TURN_DATE } from './aaFire';
import { FIRE_MISSIONS } from './aaStrength';
import { EXAMPLE_AA_TABLE, europaAATable } from './aaTable';
import { AIR_TYPES, UNIT_MISSIONS } from './allocation';
import { CHART_ROWS, HEX_ROWS, WEATHER_DRM } from './fortificationChart';
import { RULES_VERSIONS } from './rulesVersion';
import { SIDES, SITE_KINDS } from './state';

const side = z.enum(SIDES);

export const EuropaOptions = z.strictObject({
  aaTable: europaAATable
    .default(EXAMPLE_AA_TABLE)
    .describe(
      'the AA fire table of rule 37L as data (docs/tables.md): threshold columns from "-1" and "0", 2d6, shiftPastLeft "die-modifier", shiftPastRight "clamp", results "-" or a number. The default is an example holding only the known points of the rule: bring the published table',
    ),
  otherEuropaGames: z.boolean().default(false).describe('the column shifts for other Europa games: -1 in 1939–40, -1 for Soviet or minor-power AA'),
  // No default: commit 1 of a game created before version 2 records no rulesVersion, and must replay as it was recorded.
  rulesVersion: z
    .literal(RULES_VERSIONS)
    .optional()
    .describe(
      '3: the +1 for German or Allied AA applied from nationality, date and strength; harassment fired on each harassing unit; both halvings through an improved fortified hexside into a halving fortification; forts built in 2 turns (1 with quick construction); supply halving. 2: a step that changes many fortifications at once records one event with their count; 1: one event per hex, as first published. A game recorded without it plays 1; a calculator without it plays the current version',
    ),
});
export type EuropaOptions = z.infer<typeof EuropaOptions>;

const firingUnit = z.strictObject({
  unitId: playerId,
  aa: z.int().min(0).max(99).describe('its AA strength'),
  hex: playerId.optional().describe('the hex it stands in; left out: the target hex'),
  naval: z.boolean().optional(),
  cargo: z.boolean().optional().describe('transported cargo (never fires)'),
  light: z.boolean().optional().describe('light AA (does not fire at HB flying missions the table does not otherwise modify)'),
});

const airUnit = z.strictObject({
  unitId: playerId,
  type: z.enum(AIR_TYPES),
  df: z.int().min(0).max(20).describe('the printed defence factor, e.g. 9 for a P-47D25 (8F9)'),
  codeT: z.boolean().optional().describe('code T on the counter'),
  mission: z.enum(UNIT_MISSIONS).optional().describe("what it flies; left out: the fire's mission (escort: never fired at)"),
  dedicated: z.boolean().optional().describe('a dedicated mission, declared before any AA fires'),
});

const fireFields = {
  mission: z.enum(FIRE_MISSIONS).describe('what the AA fires at: a mission over the hex (GS, other bombing, air transport, airdrop), DAS, harassment, naval units bombed at sea or in port'),
  date: z.string().regex(TURN_DATE, 'a Europa turn such as "Jun II 44": the month (Jan to Dec), I or II, the year 39 to 45').describe('the game turn, e.g. "Jun II 44"'),
  night: z.boolean().optional(),
  nationality: z.enum(NATIONALITIES).describe('whose AA fires: german, allied (Western Allies), soviet, minor (any but France, UK, Germany, Italy, USA, USSR) or other'),
  germanOrAlliedShift: z
    .boolean()
    .optional()
    .describe('rules version 3: leave it out, the +1 for German or Allied AA (7 or more, after Dec II 42) is applied from nationality, date and strength; sent, it must agree (422 otherwise). Versions 1 and 2: claims the +1'),
  aa: z.array(firingUnit).min(1).max(60).describe('the units whose AA may fire'),
  prohibitedHexes: z.array(playerId).max(6).optional().describe('DAS: adjacent hexes across prohibited terrain'),
  seaHexes: z.array(playerId).max(6).optional().describe('harassment: adjacent hexes that are not land'),
  airUnits: z.array(airUnit).min(1).max(60).describe('the air units over the hex, escorts included if you like (never fired at)'),
};

export const AAFire = z.strictObject({ fireId: playerId.describe('names this fire, e.g. "GS on 2708"'), hex: playerId.describe('the target hex'), ...fireFields });
export type AAFire = z.infer<typeof AAFire>;
export const AAFireProcedureInput = z.strictObject({
  fireId: playerId.optional(),
  hex: playerId.optional(),
  ...fireFields,
  table: europaAATable.optional().describe("an AA fire table (docs/tables.md); left out: the game options' table, the example by default"),
});

const site = playerId.describe('a hex or hexside, as you name it');
const builder = z
  .strictObject({
    unitId: playerId,
    construction: z.boolean().describe('it has the construction symbol'),
    defense: z.int().min(0).max(99).describe('its defense strength'),
  })
  .describe('rules version 3: the unit performing quick construction by itself, a construction brigade with a defense strength of 2 or more');
export const FortificationEvent = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('place'),
    site,
    kind: z.enum(SITE_KINDS),
    owner: side,
    condition: z.enum(['improved', 'unimproved']).optional().describe('a fortress: as its order of battle says'),
    level: z.int().min(1).max(3).optional().describe('a Westwall hex: its level, [1] to [3]'),
    quickConstruction: z.boolean().optional().describe('rules version 3, a fort placed during play: built in 1 turn instead of 2 (a builder named must be able to perform it by itself)'),
    builder: builder.optional(),
  }),
  z.strictObject({ action: z.literal('gain'), site, side: side.describe('the side that gains the hex') }),
  z.strictObject({ action: z.literal('loss'), site, side: side.describe('the side that loses the hex') }),
  z.strictObject({ action: z.literal('destroy'), site }),
  z.strictObject({ action: z.literal('begin-improvement'), site, quickConstruction: z.boolean().optional(), builder: builder.optional() }),
  z.strictObject({ action: z.literal('emergency-restoration'), alliedGroundUnitIn: z.enum(['wehrkreis', 'benelux', 'french-region-adjacent-to-greater-germany']) }),
  z.strictObject({ action: z.literal('turn'), turn: z.int().min(1).max(999) }),
  z.strictObject({ action: z.literal('initial-phase'), side }),
]);
export type FortificationEvent = z.infer<typeof FortificationEvent>;

export const FortificationEffectsInput = z.strictObject({
  into: z.enum(HEX_ROWS).optional().describe("the fortification of the defender's hex, as the chart names its line"),
  across: z.enum(['unimproved', 'improved']).optional().describe('a fortified hexside the attack crosses'),
  attackers: z
    .array(
      z.strictObject({
        unitId: playerId.optional(),
        strength: z.number().min(0).max(999),
        kind: z.enum(['engineer', 'artillery', 'other']).optional(),
        acrossFortifiedHexside: z.boolean().optional().describe('left out: true when "across" is given'),
        outOfSupplyTurns: z.int().min(0).max(99).optional().describe('rules version 3: consecutive turns out of supply (0 or left out: in supply); halved from the second, or in the first if isolated'),
        isolated: z.boolean().optional().describe('rules version 3: isolated as well as out of supply'),
      }),
    )
    .max(40)
    .optional(),
  groundSupport: z.number().min(0).max(999).optional().describe('ground-support bombing factors'),
  weather: z.enum(Object.keys(WEATHER_DRM) as [keyof typeof WEATHER_DRM]).optional(),
  usAndUk: z.boolean().optional().describe('US and UK ground units in the same attack'),
});

const tableSummary = z.object({ id: z.string(), title: z.string(), hash: z.string(), example: z.boolean() });
export const EuropaView = z.object({
  aaTable: tableSummary.describe('the AA fire table the game was created with'),
  otherEuropaGames: z.boolean(),
  fires: z.int(),
  lastFire: z.object({ fireId: z.string(), hex: z.string(), column: z.string(), roll: z.int(), result: z.int().nullable(), affected: z.int() }).nullable(),
  turn: z.int(),
  phase: side.nullable().describe('the initial phase begun last this turn'),
  emergencyRestoration: z.object({ declaredOnTurn: z.int(), declaredAtAxisPhase: z.int(), status: z.enum(['declared', 'continuing', 'completed']) }).nullable(),
  sites: z.array(
    z.object({
      site: z.string(),
      kind: z.enum(SITE_KINDS),
      owner: side,
      condition: z.enum(['intact', 'improved', 'unimproved', 'destroyed', 'under-construction']),
      level: z.int().optional(),
      chartRow: z.enum(CHART_ROWS as [string, ...string[]]).nullable().describe('the chart line in effect; null for a fort under construction (rules version 3)'),
      improvement: z.object({ begunOnTurn: z.int(), completesOnTurn: z.int(), quickConstruction: z.boolean() }).nullable(),
      construction: z.object({ begunOnTurn: z.int(), completesOnTurn: z.int(), quickConstruction: z.boolean() }).optional().describe('a fort under construction (rules version 3)'),
    }),
  ),
});
