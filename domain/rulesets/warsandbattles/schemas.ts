import * as z from 'zod';
import { KINDS, SIDES, WEATHER } from './vocabulary';
import { RULES_VERSIONS } from './rulesVersion';
import { playerId, playerText } from '../../playerText';
import { tableDefinitionSchemaFor, type TableDefinition } from '../../tables';
import { EXAMPLE_COMMANDERS, EXAMPLE_TABLES, FIRST_EXAMPLE_TERRAIN, NOT_IN_SOURCE } from './exampleTables';
import { AvailabilityTables } from './availability';

export { KINDS, SIDES, WEATHER, type Kind, type Side, type Weather } from './vocabulary';
export const side = z.enum(SIDES);

export const QUALITIES = ['elite', 'veteran', 'experienced', 'conscript'] as const;
export type Quality = (typeof QUALITIES)[number];
export const IDENTIFICATION = ['identified', 'recognized', 'detected'] as const;
export type Identification = (typeof IDENTIFICATION)[number];
export const ROUTES = ['open', 'enemy-zoc', 'none'] as const;
export type Route = (typeof ROUTES)[number];

const kind = z.enum(KINDS);
const quality = z.enum(QUALITIES);
const combatValue = z.int().min(0).max(999);
const values = z
  .union([combatValue, z.tuple([combatValue, combatValue, combatValue, combatValue])])
  .describe('one value, or four: the value at status level 1, 2, 3 and 4');
const lp = z.int().min(0).max(99);
const terrainName = playerText(64);
const bonus = z.strictObject({ c: z.int().min(-9).max(9).default(0), l: z.int().min(-9).max(9).default(0) });

export const Unit = z
  .strictObject({
    unitId: playerId,
    side,
    kind,
    division: playerText(64).optional().describe('for the divisional integrity bonus'),
    quality: quality.describe('sets the energy below which fatigue costs a status level'),
    maxLp: z.int().min(1).max(99),
    lp: lp.min(1).optional().describe('LP now; default maxLp'),
    status: z
      .int()
      .min(1)
      .max(4)
      .optional()
      .describe('status level from the unit\'s LP, 1 (lowest) to 4; default 4. Rules version 2: the highest level its LP give it, falling with its LP. Leave out with statusLp'),
    statusLp: z
      .tuple([lp.min(1), lp.min(1), lp.min(1)])
      .optional()
      .describe('the least LP for status level 2, 3 and 4: the status level then follows the unit\'s LP (rules version 2 without it: four equal bands of maxLp)'),
    energy: z.int().min(0).max(100).default(100).describe('per cent; fatigue is 100 - energy'),
    attack: values.default(0),
    defence: values.default(0),
    tiger: z.boolean().optional().describe('a Tiger unit (Axis): C1 to its side, attacking or (rules version 2) defending'),
    commander: playerText(64).optional().describe('a commander unit: its name in the commanders table'),
    outOfSupply: z.boolean().optional().describe('out of supply at the start of the game (its first turn out of supply)'),
    replenishable: z.boolean().optional().describe('default true: the unit can be replenished'),
    smallerThanBattalion: z.boolean().optional().describe('a German unit smaller than a battalion: it stacks freely (8.1; Axis only)'),
  })
  .superRefine((unit, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (unit.lp !== undefined && unit.lp > unit.maxLp) issue('lp', `is ${unit.lp}, more than maxLp (${unit.maxLp})`);
    if (unit.status !== undefined && unit.statusLp !== undefined) issue('status', 'give status or statusLp, not both: with statusLp the status level follows the LP');
    if (unit.statusLp && !(unit.statusLp[0] <= unit.statusLp[1] && unit.statusLp[1] <= unit.statusLp[2])) issue('statusLp', 'the least LP of levels 2, 3 and 4 must not decrease');
    if (unit.statusLp && unit.statusLp[2] > unit.maxLp) issue('statusLp', `level 4 needs ${unit.statusLp[2]} LP, more than maxLp (${unit.maxLp})`);
    if (unit.tiger && (unit.side !== 'axis' || unit.kind !== 'armored')) issue('tiger', 'only an Axis armored unit can be a Tiger unit');
    if (unit.commander !== undefined && unit.kind !== 'commander') issue('commander', 'only a unit of kind "commander" names a commander');
    if (unit.kind === 'commander' && unit.commander === undefined) issue('commander', 'a commander unit names its entry in the commanders table');
    if (unit.smallerThanBattalion && unit.side !== 'axis') issue('smallerThanBattalion', 'only German (Axis) units smaller than a battalion stack freely (8.1)');
  });
export type Unit = z.infer<typeof Unit>;

const Terrain = z.strictObject({
  terrain: terrainName,
  c: z.int().min(-9).max(9).describe('columns towards the defender (C2: two columns left)'),
  note: playerText(300).optional().describe('where the figure comes from'),
});
const Commander = z.strictObject({
  commander: playerText(64),
  attack: bonus.default({ c: 0, l: 0 }).describe('when the commander attacks: C columns right, L added to the roll'),
  defence: bonus.default({ c: 0, l: 0 }).describe('when the commander defends: C columns left, L taken off the roll'),
});
export type Commander = z.infer<typeof Commander>;
export type TerrainEntry = z.infer<typeof Terrain>;

type Issue = { path: (string | number)[]; message: string };

/** What each table of the ruleset must be, beyond arbiter-table/1: its columns, dice and effects. */
const ROLE = {
  combat: { kind: 'ratio', dice: '2d6', effects: ['loss', 'retreat'], landing: 'nearest-defender' },
  bombardment: { kind: 'threshold', dice: '2d6', effects: ['loss'], landing: undefined },
  support: { kind: 'threshold', dice: 'none', effects: ['modifier'], landing: undefined },
} as const;
export type TableRole = keyof typeof ROLE;

export function tableRoleIssues(role: TableRole, table: TableDefinition): Issue[] {
  const want = ROLE[role];
  const issues: Issue[] = [];
  if (table.columns.kind !== want.kind) issues.push({ path: ['columns', 'kind'], message: `the ${role} table reads ${want.kind} columns, not ${table.columns.kind}` });
  if (table.dice !== want.dice) issues.push({ path: ['dice'], message: `the ${role} table ${want.dice === 'none' ? 'has no dice ("none")' : `rolls ${want.dice}`}, not ${JSON.stringify(table.dice)}` });
  if (want.landing && table.columns.landing !== want.landing) {
    issues.push({ path: ['columns', 'landing'], message: `the ${role} table rounds the ratio to the nearest, halves in the defender's favour: its landing is "${want.landing}"` });
  }
  table.results.forEach((result, r) =>
    result.effects.forEach((effect, e) => {
      const path = ['results', r, 'effects', e];
      if (effect.effect === NOT_IN_SOURCE) return;
      if (!(want.effects as readonly string[]).includes(effect.effect)) {
        issues.push({ path: [...path, 'effect'], message: `the ${role} table's effects are ${[...want.effects, NOT_IN_SOURCE].map((x) => JSON.stringify(x)).join(', ')}, not ${JSON.stringify(effect.effect)}` });
        return;
      }
      const value = effect.value;
      if (value === undefined || !Number.isInteger(value) || (effect.effect !== 'modifier' && value < 0)) {
        issues.push({ path: [...path, 'value'], message: `a ${effect.effect} effect needs a whole ${effect.effect === 'modifier' ? '' : 'non-negative '}value` });
      }
      if (effect.effect === 'loss' && role === 'combat' && effect.side === undefined) issues.push({ path: [...path, 'side'], message: 'a combat loss names its side: attacker or defender' });
      if (effect.effect === 'loss' && role === 'bombardment' && effect.side === 'attacker') issues.push({ path: [...path, 'side'], message: 'a bombardment costs the bombarding units nothing: its losses are the defender\'s' });
      if (effect.effect === 'retreat' && effect.side !== 'defender') issues.push({ path: [...path, 'side'], message: 'only the defender retreats: side "defender"' });
    }),
  );
  return issues;
}

const roleTable = (role: TableRole) =>
  tableDefinitionSchemaFor({ effects: [...ROLE[role].effects, NOT_IN_SOURCE] }).superRefine((table, ctx) => {
    for (const issue of tableRoleIssues(role, table)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });

export const Tables = z
  .strictObject({
    combat: roleTable('combat').describe('ratio columns, 2d6 rows; effects: loss (attacker or defender, LP), retreat (defender, hexes)'),
    bombardment: roleTable('bombardment').describe('threshold columns on bombardment points, 2d6 rows; effect: loss (LP)'),
    support: roleTable('support').describe('threshold columns on support points, no dice; effect: modifier (the L bonus)'),
  })
  .describe('the combat tables as data (docs/tables.md): all three, or none for the bundled worked-example tables')
  // One JSON document in forms, the three tables together (they come all three or none).
  .meta({ 'x-form': 'json' });
export type Tables = z.infer<typeof Tables>;
const TerrainTable = z.array(Terrain).max(100);
const CommanderTable = z.array(Commander).max(100);

function uniqueNames<T>(items: readonly T[], name: (item: T) => string, field: string, what: string, ctx: z.RefinementCtx, path: (string | number)[]) {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const key = name(item);
    const first = seen.get(key);
    if (first !== undefined) ctx.addIssue({ code: 'custom', path: [...path, index, field], message: `${JSON.stringify(key)} is already ${what} ${first}` });
    else seen.set(key, index);
  });
}

export const WarsAndBattlesOptions = z
  .strictObject({
    units: z.array(Unit).max(300).default([]).describe('every unit of the game, both sides'),
    tables: Tables.default(EXAMPLE_TABLES),
    // The default is the list of games created before clear was bundled: commit 1 replays through this schema, and a
    // game that named no terrain must replay with the list it had. New games are given EXAMPLE_TERRAIN (index.ts).
    terrain: TerrainTable.default(FIRST_EXAMPLE_TERRAIN).describe('terrain (and river) effects for the defender, as data; new games get the bundled list: marshes C2 (the manual\'s example) and clear C0 (ruling)'),
    commanders: CommanderTable.default(EXAMPLE_COMMANDERS).describe('commander bonuses, as data'),
    impulses: z.union([z.literal(1), z.literal(2)]).default(1).describe('impulses per turn'),
    firstSide: side.default('allied').describe('the side that plays first in each impulse'),
    activationPoints: z
      .strictObject({ allied: z.int().min(0).max(999), axis: z.int().min(0).max(999) })
      .optional()
      .describe('activation points per impulse for each side; none: every unit may act'),
    replenishment: z
      .strictObject({
        allied: z.boolean().default(false).describe('Allied units replenish automatically at the end of the turn'),
        axisPointsPerTurn: z.int().min(0).max(999).default(0).describe('Axis replenishment points each turn (1 point = 1 LP)'),
      })
      .default({ allied: false, axisPointsPerTurn: 0 })
      .refine((r) => r.axisPointsPerTurn === 0 || r.allied, { message: 'when the Axis may replenish, so may the Allies: set allied to true', path: ['allied'] }),
    zocRetreatLoss: z.int().min(0).max(99).default(1).describe('LP a unit loses retreating into an enemy zone of control (ruling: 1)'),
    // No default: commit 1 of a game created before version 2 records no rulesVersion, and must replay as it was recorded.
    rulesVersion: z
      .literal(RULES_VERSIONS)
      .optional()
      .describe('2: the current rules (docs/rulesets/wars-and-battles.md, "Rules versions"); 1: as first published. A game recorded without it plays 1; /evaluate uses 2 unless told'),
    weather: z.enum(WEATHER).optional().describe('the weather of turn 1 (rules version 2; default sunny); EndTurn sets the next turn\'s. In a storm every air unit is grounded (4.2.2)'),
    // No default: commit 1 of a game created before version 2 records none, and must replay as it was recorded. New games are given EXAMPLE_AVAILABILITY (index.ts).
    availability: AvailabilityTables.optional().describe('rules version 2: availability of air units (weather, maintenance) and ships, rolled at each turn change; the bundled tables hold only what the manual\'s text says'),
  })
  .superRefine((options, ctx) => {
    uniqueNames(options.units, (u) => u.unitId, 'unitId', 'the unitId of units', ctx, ['units']);
    uniqueNames(options.terrain, (t) => t.terrain, 'terrain', 'the terrain of entry', ctx, ['terrain']);
    uniqueNames(options.commanders, (c) => c.commander, 'commander', 'the commander of entry', ctx, ['commanders']);
    options.units.forEach((unit, index) => {
      if (unit.commander !== undefined && !options.commanders.some((c) => c.commander === unit.commander)) {
        ctx.addIssue({ code: 'custom', path: ['units', index, 'commander'], message: `${JSON.stringify(unit.commander)} is not in the commanders table` });
      }
    });
  });
export type WarsAndBattlesOptions = z.infer<typeof WarsAndBattlesOptions>;

// ---------------------------------------------------------------- commands

const unitIds = (max: number) => z.array(playerId).min(1).max(max);
const supportEntry = z.strictObject({ unitId: playerId, points: z.int().min(0).max(999).describe('support points it brings') });
const bombarderEntry = supportEntry.extend({
  points: z.int().min(0).max(999).describe('bombardment points it brings'),
  range: z.int().min(0).max(999).optional().describe('hexes from the unit to the bombarded hex (rules version 2: artillery 2–3, ships 3–4; heavy bombers reach anywhere)'),
});
/** Anti-aircraft fire on an air unit of the mission, as the game reports it (7.4.4, 7.5.2, 7.6). */
const antiAircraftHit = z
  .strictObject({
    unitId: playerId,
    lp: z.int().min(0).max(99).default(0).describe('LP it loses'),
    aborted: z.boolean().optional().describe('rules version 2: the AA made it give up its mission: it delivers nothing'),
  })
  .refine((hit) => hit.lp > 0 || hit.aborted === true, { message: 'give the LP lost (at least 1), or aborted: true', path: ['lp'] });

export const Activate = z.strictObject({
  unitIds: unitIds(50).describe('your units to activate this impulse (to move them, say)'),
  strategic: z.boolean().optional().describe('they move strategically (6.3): none of them can attack this turn (rules version 2)'),
});
export type Activate = z.infer<typeof Activate>;

const attackGeometry = {
  terrain: terrainName.describe('the attacked hex\'s terrain, a name of the terrain table'),
  across: z.array(terrainName).max(6).default([]).describe('rivers or other terrain the attack crosses, names of the terrain table'),
  cherbourg: z.enum(['area', 'city']).optional().describe('an attack in the Cherbourg area, or on Cherbourg itself'),
};

export const DeclareAttack = z.strictObject({
  attackId: playerId,
  targetHex: playerId.describe('the attacked hex, as your map names it'),
  attackers: z.array(z.strictObject({ unitId: playerId, hex: playerId.describe('the hex it attacks from') })).min(1).max(20),
  defenders: unitIds(20).describe('every unit in the attacked hex'),
  support: z.array(supportEntry).max(10).default([]).describe('at most 3 support units (artillery, ships, aircraft)'),
  ...attackGeometry,
  antiAircraft: z.array(antiAircraftHit).max(10).default([]).describe('rules version 2: AA fire on your supporting aircraft: LP lost, mission aborted; one destroyed or aborted brings no support points'),
});
export type DeclareAttack = z.infer<typeof DeclareAttack>;

const Retreats = z
  .array(z.strictObject({ unitId: playerId, route: z.enum(ROUTES).describe('open: a free hex; enemy-zoc: only into an enemy zone of control; none: no retreat possible') }))
  .max(20)
  .default([])
  .describe('where each defender can retreat, as the map shows, if the result makes it retreat; unlisted units retreat freely');

export const ResolveAttack = z.strictObject({ attackId: playerId, retreats: Retreats });
export type ResolveAttack = z.infer<typeof ResolveAttack>;

export const Sight = z.strictObject({
  distance: z.int().min(0).max(999).describe('hexes from the nearest observing unit to the target'),
  viewDistance: z.int().min(1).max(99).describe('that unit\'s view distance in hexes'),
  weather: z.enum(WEATHER),
});
export type Sight = z.infer<typeof Sight>;

const oneIdentification = {
  message: 'give the identification level or the sight (distance, view distance, weather), exactly one',
  path: ['identification'],
};
const exactlyOne = (b: { identification?: unknown; sight?: unknown }) => (b.identification === undefined) !== (b.sight === undefined);

export const Bombard = z
  .strictObject({
    bombardmentId: playerId.optional(),
    targetHex: playerId,
    targets: unitIds(20).describe('every unit in the bombarded hex'),
    bombarders: z.array(bombarderEntry).min(1).max(10).describe('artillery, ships or heavy bombers, with their bombardment points (rules version 2: one unit, each bombardment its own roll)'),
    identification: z.enum(IDENTIFICATION).optional(),
    sight: Sight.optional(),
    antiAircraft: z
      .array(antiAircraftHit)
      .max(10)
      .default([])
      .describe('LP your heavy bombers lose to anti-aircraft fire on this mission; rules version 2: a bomber destroyed or aborted delivers nothing'),
  })
  .refine(exactlyOne, oneIdentification);
export type Bombard = z.infer<typeof Bombard>;

export const Replenish = z.strictObject({
  units: z
    .array(z.strictObject({ unitId: playerId, lp: z.int().min(1).max(99).describe('LP to restore, one replenishment point each') }))
    .min(1)
    .max(50),
});
export type Replenish = z.infer<typeof Replenish>;

export const Empty = z.strictObject({});

export const EndTurn = z.strictObject({
  outOfSupply: z.array(playerId).max(300).default([]).describe('units out of supply for the next turn, as the map shows'),
  inContact: z.array(playerId).max(300).default([]).describe('units adjacent to an enemy unit now (Allied replenishment needs none)'),
  weather: z.enum(WEATHER).optional().describe('the next turn\'s weather (rules version 2); none: as this turn'),
});
export type EndTurn = z.infer<typeof EndTurn>;

// ---------------------------------------------------------------- procedures

const fightUnit = {
  unitId: playerId.optional(),
  kind,
  lp: lp.optional().describe('its LP now, to allocate losses'),
  commander: playerText(64).optional().describe('a commander: its name in the commanders table'),
  tiger: z.boolean().optional().describe('a Tiger unit (Axis): C1 to its side, attacking or (rules version 2) defending'),
  smallerThanBattalion: z.boolean().optional().describe('a German unit smaller than a battalion: stacks freely (8.1)'),
};
const tableData = {
  terrainTable: TerrainTable.optional().describe('default: the game options\' terrain (bundled: marshes C2, clear C0)'),
  commanders: CommanderTable.optional(),
};

export const CombatInput = z.strictObject({
  attackerSide: side,
  attackers: z
    .array(z.strictObject({ ...fightUnit, attack: combatValue, hex: playerId.optional().describe('attackers in one hex are stacked; none given: one stack (not checked against the stacking limit)') }))
    .min(1)
    .max(20),
  defenders: z.array(z.strictObject({ ...fightUnit, defence: combatValue })).min(1).max(20),
  support: z.array(supportEntry.extend({ unitId: playerId.optional() })).max(10).default([]),
  ...attackGeometry,
  divisionalIntegrity: z
    .strictObject({ attacker: z.boolean().default(false), defender: z.boolean().default(false) })
    .default({ attacker: false, defender: false })
    .describe('whether every unit of a division is in the fight, on that side'),
  retreats: Retreats,
  tables: z.strictObject({ combat: roleTable('combat').optional(), support: roleTable('support').optional() }).optional(),
  ...tableData,
});
export type CombatInput = z.infer<typeof CombatInput>;

export const BombardmentInput = z
  .strictObject({
    points: z.int().min(0).max(9999).describe('bombardment points before identification'),
    identification: z.enum(IDENTIFICATION).optional(),
    sight: Sight.optional(),
    targets: z
      .array(z.strictObject({ unitId: playerId.optional(), defence: combatValue, lp }))
      .max(20)
      .default([])
      .describe('the bombarded stack, to allocate the losses'),
    tables: z.strictObject({ bombardment: roleTable('bombardment').optional() }).optional(),
  })
  .refine(exactlyOne, oneIdentification);
export type BombardmentInput = z.infer<typeof BombardmentInput>;

export const SupportInput = z.strictObject({
  support: z.array(supportEntry.extend({ unitId: playerId.optional() })).min(1).max(10),
  tables: z.strictObject({ support: roleTable('support').optional() }).optional(),
});
export type SupportInput = z.infer<typeof SupportInput>;

export const IdentificationInput = Sight;

export const ReplenishmentInput = z
  .strictObject({
    maxLp: z.int().min(1).max(99),
    lp: lp.describe('LP now'),
    inContact: z.boolean().default(false).describe('adjacent to an enemy unit'),
  })
  .refine((r) => r.lp <= r.maxLp, { message: 'lp is at most maxLp', path: ['lp'] });

// ---------------------------------------------------------------- view

const unitView = z.object({
  unitId: z.string(),
  side,
  kind,
  quality,
  lp: z.int(),
  maxLp: z.int(),
  status: z.int().describe('status level now: from LP, less one while fatigue has cost a level; 0 once out of the game'),
  energy: z.int(),
  fatigued: z.boolean().describe('a status level lost to fatigue'),
  outOfSupply: z.boolean(),
  turnsOutOfSupply: z.int(),
  activatedInImpulse: z.int().nullable(),
  attackedThisTurn: z.boolean(),
  out: z.enum(['destroyed', 'surrendered']).nullable(),
  attack: z.int().describe('its attack value at its status level now'),
  defence: z.int().describe('its defence value at its status level now'),
  movedStrategically: z.boolean().describe('moved strategically this turn: it cannot attack (6.3)'),
});

export const WarsAndBattlesView = z.object({
  turn: z.int(),
  impulse: z.int(),
  impulses: z.int(),
  phasing: side.nullable().describe('whose impulse it is; null once every impulse is played and the turn awaits EndTurn'),
  activationPointsLeft: z.int().nullable().describe('the phasing side\'s points left this impulse; null: unlimited'),
  axisReplenishmentPoints: z.int(),
  openAttack: z.object({ attackId: z.string(), attacker: side, targetHex: z.string() }).nullable(),
  hexesAttacked: z.array(z.string()).describe('hexes attacked this turn'),
  units: z.array(unitView),
  tables: z.array(z.object({ role: z.enum(['combat', 'bombardment', 'support']), id: z.string(), title: z.string(), hash: z.string(), example: z.boolean() })),
  weather: z.enum(WEATHER).nullable().describe('the turn\'s weather (rules version 2; null in a version-1 game)'),
  unavailable: z
    .array(z.object({ unitId: z.string(), reason: z.enum(['weather', 'maintenance', 'not-available', 'waiting']), untilTurn: z.int().nullable() }))
    .describe('air units and ships that cannot fly or fire this turn (rules version 2)'),
});
