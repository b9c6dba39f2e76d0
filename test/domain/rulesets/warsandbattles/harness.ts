import type { TableDefinition } from '../../../../domain/tables';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';
import type { Fight } from '../../../../domain/rulesets/warsandbattles/fight';
import type { WarsAndBattlesState } from '../../../../domain/rulesets/warsandbattles/state';
import { harness, type Step } from '../../../support/rulesetHarness';

export const { given, apply, refused } = harness<WarsAndBattlesState>(warsAndBattlesRuleset);
export type { Step };

/**
 * Test tables: invented numbers in the format of the manual's tables, so that every column
 * and row resolves. They are test data, not the game's tables.
 */
const RATIOS = ['1:3', '1:2', '1:1', '2:1', '3:1', '4:1', '5:1', '6:1', '7:1', '8:1'];
const ROLLS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** Column c, roll r: the attacker loses max(0, 8 - r - c) LP, the defender max(0, c + r - 6); 5 or more for the defender is a retreat. */
export function testCombatCode(column: number, roll: number): string {
  const a = Math.max(0, 8 - roll - column);
  const d = Math.max(0, column + roll - 6);
  return `${a}/${d}${d >= 5 ? 'R' : ''}`;
}

function combatResults(): TableDefinition['results'] {
  const codes = new Set<string>();
  for (let c = 0; c < RATIOS.length; c++) for (const r of ROLLS) codes.add(testCombatCode(c, r));
  return [...codes].map((code) => {
    const [a, rest] = code.split('/');
    const d = Number.parseInt(rest, 10);
    return {
      code,
      effects: [
        { effect: 'loss', side: 'attacker' as const, value: Number(a) },
        { effect: 'loss', side: 'defender' as const, value: d },
        ...(rest.endsWith('R') ? [{ effect: 'retreat', side: 'defender' as const, value: 1 }] : []),
      ],
    };
  });
}

export const TEST_COMBAT_TABLE: TableDefinition = {
  format: 'arbiter-table/1',
  id: 'test-combat',
  title: 'Test combat table',
  source: 'invented for the tests',
  dice: '2d6',
  columns: { kind: 'ratio', labels: RATIOS, landing: 'nearest-defender', belowFirst: 'refuse', aboveLast: 'last-column', shiftPastLeft: 'clamp', shiftPastRight: 'clamp' },
  rows: [{ atMost: 2 }, ...ROLLS.slice(1, -1).map((roll) => ({ roll })), { atLeast: 12 }],
  rowsOffTable: 'clamp',
  results: combatResults(),
  cells: ROLLS.map((r) => RATIOS.map((_, c) => testCombatCode(c, r))),
};

/** 1 point: L0, 5: L1, 10: L2, 15: L3, 20: L4. */
export const TEST_SUPPORT_TABLE: TableDefinition = {
  format: 'arbiter-table/1',
  id: 'test-support',
  title: 'Test support table',
  dice: 'none',
  columns: { kind: 'threshold', labels: ['1', '5', '10', '15', '20'], landing: 'defender', belowFirst: 'refuse', aboveLast: 'last-column', shiftPastLeft: 'clamp', shiftPastRight: 'clamp' },
  results: [0, 1, 2, 3, 4].map((l) => ({ code: `L${l}`, effects: [{ effect: 'modifier', value: l }] })),
  cells: [['L0', 'L1', 'L2', 'L3', 'L4']],
};

const BOMB_COLUMNS = ['1', '5', '10', '15', '20'];
/** Column c, roll r: max(0, c + r - 7) LP. */
export const testBombardmentLoss = (column: number, roll: number) => Math.max(0, column + roll - 7);
export const TEST_BOMBARDMENT_TABLE: TableDefinition = {
  format: 'arbiter-table/1',
  id: 'test-bombardment',
  title: 'Test bombardment table',
  dice: '2d6',
  columns: { kind: 'threshold', labels: BOMB_COLUMNS, landing: 'defender', belowFirst: 'refuse', aboveLast: 'last-column', shiftPastLeft: 'clamp', shiftPastRight: 'clamp' },
  rows: ROLLS.map((roll) => ({ roll })),
  rowsOffTable: 'clamp',
  results: Array.from({ length: 10 }, (_, n) => ({ code: `${n}`, effects: [{ effect: 'loss', side: 'defender' as const, value: n }] })),
  cells: ROLLS.map((r) => BOMB_COLUMNS.map((_, c) => `${testBombardmentLoss(c, r)}`)),
};

export const TEST_TABLES = { combat: TEST_COMBAT_TABLE, bombardment: TEST_BOMBARDMENT_TABLE, support: TEST_SUPPORT_TABLE };

export const TEST_TERRAIN = [
  { terrain: 'clear', c: 0 },
  { terrain: 'hedgerows', c: 0 },
  { terrain: 'bocage', c: 1 },
  { terrain: 'marshes', c: 2 },
  { terrain: 'river', c: 1 },
];

export const TEST_COMMANDERS = [
  { commander: 'Bradley', attack: { c: 1, l: 0 }, defence: { c: 0, l: 1 } },
  { commander: 'Rommel', attack: { c: 0, l: 2 }, defence: { c: 1, l: 0 } },
];

const unit = (unitId: string, side: 'allied' | 'axis', kind: string, extra: Record<string, unknown> = {}) => ({ unitId, side, kind, quality: 'veteran', maxLp: 8, ...extra });

/** Both sides of a small game. Values at status 4 unless four are given. */
export const ROSTER = [
  unit('us-inf-1', 'allied', 'infantry', { division: '29th', attack: 4, defence: 4 }),
  unit('us-inf-2', 'allied', 'infantry', { division: '29th', attack: 4, defence: 4, quality: 'experienced' }),
  unit('us-arm', 'allied', 'armored', { division: '2nd Armored', attack: [5, 6, 7, 8], defence: 5 }),
  unit('us-arm-2', 'allied', 'armored', { division: '2nd Armored', attack: 8, defence: 5 }),
  unit('us-mech', 'allied', 'mechanized', { attack: 6, defence: 4 }),
  unit('us-art', 'allied', 'artillery', { maxLp: 4, attack: 0, defence: 1 }),
  unit('us-ship', 'allied', 'ship', { maxLp: 4 }),
  unit('us-air', 'allied', 'air', { maxLp: 4 }),
  unit('us-air-2', 'allied', 'air', { maxLp: 4 }),
  unit('us-bomber', 'allied', 'heavy-bomber', { maxLp: 4 }),
  unit('bradley', 'allied', 'commander', { maxLp: 2, commander: 'Bradley' }),
  unit('gr-916', 'axis', 'infantry', { division: '352nd', attack: 4, defence: 2 }),
  unit('gr-915', 'axis', 'infantry', { division: '352nd', attack: 4, defence: 2, quality: 'conscript' }),
  unit('gr-914', 'axis', 'infantry', { division: '352nd', attack: 4, defence: 2 }),
  unit('pz-iv', 'axis', 'armored', { attack: 8, defence: 4, quality: 'elite' }),
  unit('tiger', 'axis', 'armored', { attack: 10, defence: 6, tiger: true, quality: 'elite' }),
  unit('de-art', 'axis', 'artillery', { maxLp: 4, attack: 0, defence: 1 }),
  unit('rommel', 'axis', 'commander', { maxLp: 2, commander: 'Rommel' }),
];

/** Game options with the test tables, terrain and commanders, the roster above, and `over`. */
export const options = (over: Record<string, unknown> = {}) => ({
  units: ROSTER,
  tables: TEST_TABLES,
  terrain: TEST_TERRAIN,
  commanders: TEST_COMMANDERS,
  ...over,
});

/** A DeclareAttack payload: us-inf-1 from 0811 on gr-916 in 0812 (hedgerows: C0), unless changed. */
export const declaration = (attackId: string, extra: Record<string, unknown> = {}) => ({
  attackId,
  targetHex: '0812',
  attackers: [{ unitId: 'us-inf-1', hex: '0811' }],
  defenders: ['gr-916'],
  terrain: 'hedgerows',
  ...extra,
});

/** Steps that end the allied impulse, then the axis one: with one impulse, EndTurn comes next. */
export const endBothImpulses: Step[] = [
  ['allied', 'EndImpulse'],
  ['axis', 'EndImpulse'],
];

export const unitOf = (state: WarsAndBattlesState, unitId: string) => Object.entries(state.units).find(([id]) => id === unitId)![1];

/** The test tables as a fight reads them. */
export const FIGHT_DATA = { combatTable: TEST_COMBAT_TABLE, supportTable: TEST_SUPPORT_TABLE, terrain: TEST_TERRAIN, commanders: TEST_COMMANDERS };

/** An Allied infantry unit (4) attacking an infantry unit (2) in hedgerows, nothing else: change what a test is about. */
export const plainFight = (over: Partial<Fight> = {}): Fight => ({
  attackerSide: 'allied',
  attackers: [{ kind: 'infantry', value: 4, hex: 'a' }],
  defenders: [{ kind: 'infantry', value: 2 }],
  support: [],
  terrain: 'hedgerows',
  across: [],
  divisionalIntegrity: { attacker: false, defender: false },
  ...over,
});

/** An Axis armored unit with Rommel (L2 in attack) against one Allied infantry unit of 16 LP: 12 against 2 is 6:1, the manual's §7.3.3 example. */
export const SIX_TO_ONE = {
  units: [
    { unitId: 'pz', side: 'axis', kind: 'armored', quality: 'elite', maxLp: 8, attack: 12, defence: 6 },
    { unitId: 'rommel', side: 'axis', kind: 'commander', quality: 'elite', maxLp: 2, commander: 'Rommel' },
    { unitId: 'us', side: 'allied', kind: 'infantry', quality: 'veteran', maxLp: 16, attack: 4, defence: 2 },
  ],
  terrain: [{ terrain: 'hedgerows', c: 0 }],
  commanders: [{ commander: 'Rommel', attack: { l: 2 } }],
  firstSide: 'axis',
};
