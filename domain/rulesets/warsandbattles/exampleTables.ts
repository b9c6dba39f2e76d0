import type { TableDefinition } from '../../tables';

/**
 * The tables a Wars and Battles game gets unless it brings its own. The manual printed its
 * combat, bombardment, ground-support, terrain and commander tables as pictures, so its text
 * holds only a few worked examples: these tables hold exactly those. Their one column is
 * the example's (6:1, 15 points), so that any other input is refused by the table itself
 * (belowFirst / aboveLast "refuse"); the format wants a row for every roll of 2d6, so the
 * rolls the example does not show are "unproven" cells (effect `not-in-source`): a roll
 * landing on one is recorded with no effect (ruling, coverage.ts).
 * Bring the full tables as data (docs/tables.md) to play a real game.
 */

/** The effect that marks a cell the source does not show. */
export const NOT_IN_SOURCE = 'not-in-source';

const unproven = {
  code: 'unproven',
  description: 'Not shown by the manual\'s worked examples: bring the full table to resolve this.',
  effects: [{ effect: NOT_IN_SOURCE }],
};

const refuseOffEdges = {
  belowFirst: 'refuse',
  aboveLast: 'refuse',
  shiftPastLeft: 'refuse',
  shiftPastRight: 'refuse',
} as const;

/** §7.3.3's example: at 6:1, a modified roll of 7 costs the attacker 1 LP, the defender 13 LP and a one-hex retreat. */
export const EXAMPLE_COMBAT_TABLE: TableDefinition = {
  format: 'arbiter-table/1',
  id: 'wb-normandy-combat-example',
  title: 'Wars and Battles: Normandy 1944, combat table (worked example only)',
  source: 'Wars and Battles: Normandy 1944 manual, 7.3.3: only the worked example (6:1, modified roll 7) is known; the full table is a picture in the manual',
  example: true,
  dice: '2d6',
  columns: { kind: 'ratio', labels: ['6:1'], landing: 'nearest-defender', ...refuseOffEdges },
  rows: [{ atMost: 6 }, { roll: 7 }, { atLeast: 8 }],
  rowsOffTable: 'clamp',
  results: [
    {
      code: '1/13R',
      description: 'The attacker loses 1 LP; the defender loses 13 LP and retreats one hex.',
      effects: [
        { effect: 'loss', side: 'attacker', value: 1 },
        { effect: 'loss', side: 'defender', value: 13 },
        { effect: 'retreat', side: 'defender', value: 1 },
      ],
    },
    unproven,
  ],
  cells: [['unproven'], ['1/13R'], ['unproven']],
};

/** §7.5.2's example: 15 bombardment points and a roll of 7 cost the bombarded stack 4 LP. */
export const EXAMPLE_BOMBARDMENT_TABLE: TableDefinition = {
  format: 'arbiter-table/1',
  id: 'wb-normandy-bombardment-example',
  title: 'Wars and Battles: Normandy 1944, bombardment table (worked example only)',
  source: 'Wars and Battles: Normandy 1944 manual, 7.5.2: only the worked example (15 points, roll 7) is known; the full table is a picture in the manual',
  example: true,
  dice: '2d6',
  columns: { kind: 'threshold', labels: ['15'], landing: 'defender', ...refuseOffEdges },
  rows: [{ atMost: 6 }, { roll: 7 }, { atLeast: 8 }],
  rowsOffTable: 'clamp',
  results: [{ code: '4', description: 'The bombarded stack loses 4 LP.', effects: [{ effect: 'loss', side: 'defender', value: 4 }] }, unproven],
  cells: [['unproven'], ['4'], ['unproven']],
};

/** §7.4.4's example: 15 support points give L3, +3 on the attacker's roll. */
export const EXAMPLE_SUPPORT_TABLE: TableDefinition = {
  format: 'arbiter-table/1',
  id: 'wb-normandy-support-example',
  title: 'Wars and Battles: Normandy 1944, ground support table (worked example only)',
  source: 'Wars and Battles: Normandy 1944 manual, 7.4.4: only the worked example (15 points give L3) is known; the full table is a picture in the manual',
  example: true,
  dice: 'none',
  columns: { kind: 'threshold', labels: ['15'], landing: 'defender', ...refuseOffEdges },
  results: [{ code: 'L3', description: '+3 on the attacker\'s roll.', effects: [{ effect: 'modifier', value: 3 }] }],
  cells: [['L3']],
};

export const EXAMPLE_TABLES = {
  combat: EXAMPLE_COMBAT_TABLE,
  bombardment: EXAMPLE_BOMBARDMENT_TABLE,
  support: EXAMPLE_SUPPORT_TABLE,
};

/**
 * The terrain the manual's text gives a figure for: marshes C2 (§7.4.3's example), and clear
 * terrain, which gives the defender nothing (ruling: §7.4.8 makes clear terrain the attacker's
 * ground, and §7.4.3 says only "some types of terrain impact combat"), so that a fight in the
 * open is not refused. Each entry says where it comes from.
 */
/** The bundled terrain of games created before rules version 2 (the options schema's default, so that they replay). */
export const FIRST_EXAMPLE_TERRAIN = [{ terrain: 'marshes', c: 2 }];

export const EXAMPLE_TERRAIN = [
  { terrain: 'marshes', c: 2, note: 'manual 7.4.3, worked example: a defender in marshes benefits from C2' },
  { terrain: 'clear', c: 0, note: 'ruling on manual 7.4.3 and 7.4.8: clear terrain has no effect for the defender; 7.4.8 gives the attacker its bonus there' },
];

/** The manual's commander bonuses are a picture, with no worked example: none bundled. */
export const EXAMPLE_COMMANDERS: { commander: string; attack: { c: number; l: number }; defence: { c: number; l: number } }[] = [];
