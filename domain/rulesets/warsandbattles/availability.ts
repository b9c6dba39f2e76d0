import * as z from 'zod';
import type { DiceSource } from '../../dice';
import { landOnTable, resolveOnTable, tableDefinitionSchemaFor, tableHash, type TableDefinition } from '../../tables';
import { NOT_IN_SOURCE } from './exampleTables';
import type { Kind, Weather } from './vocabulary';

/**
 * §10.3 and §10.1.1: air units, heavy bombers and ships are not available every turn. The
 * manual prints their rates as pictures, so they come as data (arbiter-table/1): each table
 * is read on the turn's weather as a number (1 sunny, 2 overcast, 3 rain, 4 storm), rolls
 * 1d100, and each cell says `available` or `unavailable` (or `not-in-source`).
 */
export const WEATHER_NUMBER: Readonly<Record<Weather, number>> = { sunny: 1, overcast: 2, rain: 3, storm: 4 };
export const AVAILABILITY_EFFECTS = ['available', 'unavailable'] as const;

/** §10.3: "heavy bomber units … have to wait three turns before becoming available again". */
export const HEAVY_BOMBER_WAIT = 3;
/** §3.3: destroyed air units "recover two turns after their initial destruction". */
export const AIR_RETURN_TURNS = 2;

export const AIR_KINDS: readonly Kind[] = ['air', 'heavy-bomber'];

const availabilityTable = (what: string) =>
  tableDefinitionSchemaFor({ effects: [...AVAILABILITY_EFFECTS, NOT_IN_SOURCE] })
    .superRefine((table, ctx) => {
      if (table.columns.kind !== 'threshold') ctx.addIssue({ code: 'custom', path: ['columns', 'kind'], message: `the ${what} table reads threshold columns on the weather number (1 sunny … 4 storm)` });
      if (table.dice === 'none') ctx.addIssue({ code: 'custom', path: ['dice'], message: `the ${what} table is rolled (1d100 for a percentage)` });
      // Read at every turn change: each weather must land on a column, or EndTurn could not be played.
      else if (table.columns.kind === 'threshold') {
        for (const [weather, value] of Object.entries(WEATHER_NUMBER)) {
          try {
            landOnTable(table, { value });
          } catch {
            ctx.addIssue({ code: 'custom', path: ['columns'], message: `the ${what} table has no column for ${weather} (${value}): start at 1 or lower, and end at 4 or go on past the last column` });
          }
        }
      }
      table.results.forEach((result, r) => {
        const effects = result.effects.map((e) => e.effect);
        if (effects.length !== 1) ctx.addIssue({ code: 'custom', path: ['results', r, 'effects'], message: 'one effect: available, unavailable or not-in-source' });
      });
    })
    .describe(`${what}: threshold columns on the weather number (1 sunny, 2 overcast, 3 rain, 4 storm), rolled; effects available / unavailable`);

export const AvailabilityTables = z
  .strictObject({
    air: availabilityTable('air units by weather (§4.2.2, §10.3)'),
    maintenance: availabilityTable('air units\' maintenance (§10.3)'),
    ship: availabilityTable('ships (§10.1.1)'),
  })
  .describe('availability tables as data (docs/tables.md): air units by weather, their maintenance, ships; rolled for each unit at each turn change')
  .meta({ 'x-form': 'json' });
export type AvailabilityTables = z.infer<typeof AvailabilityTables>;

const unproven = { code: 'unproven', description: 'The manual\'s text does not give this rate (a picture): bring the full table.', effects: [{ effect: NOT_IN_SOURCE }] };
const oneRow = { rows: [{ from: 1, to: 100 }], rowsOffTable: 'clamp' as const, dice: '1d100' };
const weatherColumns = { kind: 'threshold' as const, labels: ['1', '2', '3', '4'], landing: 'defender' as const, belowFirst: 'refuse' as const, aboveLast: 'refuse' as const, shiftPastLeft: 'refuse' as const, shiftPastRight: 'refuse' as const };
const anyWeather = { ...weatherColumns, labels: ['1'], aboveLast: 'last-column' as const };

/** §4.2.2 in words: sunny, every air unit flies; storm, none; overcast and rain are in a picture (§10.3). */
export const EXAMPLE_AIR_AVAILABILITY: TableDefinition = {
  format: 'arbiter-table/1',
  id: 'wb-normandy-air-weather-example',
  title: 'Wars and Battles: Normandy 1944, air units by weather (text only)',
  source: 'Wars and Battles: Normandy 1944 manual, 4.2.2: sunny, all air units fly; storm, all are grounded. Overcast and rain are a picture in 10.3: not in the source',
  example: true,
  ...oneRow,
  columns: weatherColumns,
  results: [
    { code: 'flies', description: 'The air unit is available this turn.', effects: [{ effect: 'available' }] },
    { code: 'grounded', description: 'The air unit is grounded this turn.', effects: [{ effect: 'unavailable' }] },
    unproven,
  ],
  cells: [['flies', 'unproven', 'unproven', 'grounded']],
};

export const EXAMPLE_MAINTENANCE: TableDefinition = {
  format: 'arbiter-table/1',
  id: 'wb-normandy-air-maintenance-example',
  title: 'Wars and Battles: Normandy 1944, air units\' maintenance (not in the text)',
  source: 'Wars and Battles: Normandy 1944 manual, 10.3: each air unit has a maintenance issue rate, in a picture: not in the source',
  example: true,
  ...oneRow,
  columns: anyWeather,
  results: [unproven],
  cells: [['unproven']],
};

export const EXAMPLE_SHIP_AVAILABILITY: TableDefinition = {
  format: 'arbiter-table/1',
  id: 'wb-normandy-ship-example',
  title: 'Wars and Battles: Normandy 1944, ships\' availability (not in the text)',
  source: 'Wars and Battles: Normandy 1944 manual, 10.1.1: "Ships are not available every turn"; the probability is in a picture: not in the source',
  example: true,
  ...oneRow,
  columns: anyWeather,
  results: [unproven],
  cells: [['unproven']],
};

export const EXAMPLE_AVAILABILITY: AvailabilityTables = { air: EXAMPLE_AIR_AVAILABILITY, maintenance: EXAMPLE_MAINTENANCE, ship: EXAMPLE_SHIP_AVAILABILITY };

export type AvailabilityRole = keyof AvailabilityTables;

export interface AvailabilityCheck {
  role: AvailabilityRole;
  table: { id: string; hash: string; example: boolean };
  column: string;
  /** null: every row of the column says the same, nothing rolled */
  roll: { dice: string; natural: number } | null;
  code: string;
  /** the cell is one the table's source does not show: no effect (ruling) */
  unproven: boolean;
  available: boolean;
}

/** One table on the turn's weather: a roll only when the column's rows differ. */
export function checkAvailability(role: AvailabilityRole, table: TableDefinition, weather: Weather, dice: DiceSource): AvailabilityCheck {
  const column = landOnTable(table, { value: WEATHER_NUMBER[weather] }).column;
  const codes = table.cells.map((row) => row[column.index]);
  let roll: AvailabilityCheck['roll'] = null;
  let code = codes[0];
  if (new Set(codes).size > 1) {
    const resolution = resolveOnTable(table, { value: WEATHER_NUMBER[weather] }, dice);
    code = resolution.code;
    roll = { dice: table.dice, natural: resolution.roll!.natural };
  }
  const effects = table.results.find((r) => r.code === code)?.effects ?? [];
  const unprovenCell = effects.some((e) => e.effect === NOT_IN_SOURCE);
  return {
    role,
    table: { id: table.id, hash: tableHash(table), example: table.example === true },
    column: column.label,
    roll,
    code,
    unproven: unprovenCell,
    available: unprovenCell || !effects.some((e) => e.effect === 'unavailable'),
  };
}

/** The tables a unit of this kind rolls at the turn change, in order; the first "unavailable" ends it. */
export function rolesFor(kind: Kind): AvailabilityRole[] {
  if (AIR_KINDS.includes(kind)) return ['air', 'maintenance'];
  if (kind === 'ship') return ['ship'];
  return [];
}

/** Rolls every table of a unit until one says unavailable. */
export function rollAvailability(kind: Kind, tables: AvailabilityTables, weather: Weather, dice: DiceSource) {
  const checks: AvailabilityCheck[] = [];
  for (const role of rolesFor(kind)) {
    const check = checkAvailability(role, tables[role], weather, dice);
    checks.push(check);
    if (!check.available) break;
  }
  return { available: checks.every((c) => c.available), checks };
}
