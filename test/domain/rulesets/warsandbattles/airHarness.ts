import type { TableDefinition } from '../../../../domain/tables';
import { options } from './harness';

/** The events only a rules-version-2 game records (air missions, weather, availability). */
export const AIR_EVENTS = ['AirMissionsCancelled', 'WeatherSet', 'AirUnitsReturned', 'AvailabilityRolled'];

/** A rules-version-2 game's options (the harness's default is a version-1 game). */
export const v2 = (over: Record<string, unknown> = {}) => options({ rulesVersion: 2, ...over });

/**
 * Test availability tables (invented rates, in the format of availability.ts): air units fly
 * in sunny weather, on 1–50 in overcast, 1–20 in rain, never in storm; a maintenance issue on
 * 1–10 (any weather); ships on 1–70.
 */
const d100 = { dice: '1d100', rowsOffTable: 'clamp' as const };
const columns = (labels: string[]) => ({ kind: 'threshold' as const, labels, landing: 'defender' as const, belowFirst: 'refuse' as const, aboveLast: 'last-column' as const, shiftPastLeft: 'refuse' as const, shiftPastRight: 'refuse' as const });
const results = [
  { code: 'yes', effects: [{ effect: 'available' }] },
  { code: 'no', effects: [{ effect: 'unavailable' }] },
];
export const TEST_AVAILABILITY: { air: TableDefinition; maintenance: TableDefinition; ship: TableDefinition } = {
  air: {
    format: 'arbiter-table/1',
    id: 'test-air',
    title: 'Test air availability',
    ...d100,
    columns: columns(['1', '2', '3', '4']),
    rows: [{ from: 1, to: 20 }, { from: 21, to: 50 }, { from: 51, to: 100 }],
    results,
    cells: [
      ['yes', 'yes', 'yes', 'no'],
      ['yes', 'yes', 'no', 'no'],
      ['yes', 'no', 'no', 'no'],
    ],
  },
  maintenance: { format: 'arbiter-table/1', id: 'test-maintenance', title: 'Test maintenance', ...d100, columns: columns(['1']), rows: [{ from: 1, to: 10 }, { from: 11, to: 100 }], results, cells: [['no'], ['yes']] },
  ship: { format: 'arbiter-table/1', id: 'test-ship', title: 'Test ships', ...d100, columns: columns(['1']), rows: [{ from: 1, to: 70 }, { from: 71, to: 100 }], results, cells: [['yes'], ['no']] },
};
