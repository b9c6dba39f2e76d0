/**
 * Normandy '44 tables (GMT; French player aid), transcribed once as data and tested
 * cell by cell against the source (test/domain/rulesets/normandy44/tables.test.ts).
 * Codes are the source's; their effects are spelled out in resultEffects.ts.
 */

export const ODDS_COLUMNS = [
  { label: '1-3', attack: 1, defence: 3 },
  { label: '1-2', attack: 1, defence: 2 },
  { label: '1-1', attack: 1, defence: 1 },
  { label: '2-1', attack: 2, defence: 1 },
  { label: '3-1', attack: 3, defence: 1 },
  { label: '4-1', attack: 4, defence: 1 },
  { label: '5-1', attack: 5, defence: 1 },
  { label: '6-1', attack: 6, defence: 1 },
  { label: '7-1+', attack: 7, defence: 1 },
] as const;
export const LAST_COLUMN = ODDS_COLUMNS.length - 1;

export type CombatCode = 'A1' | 'A1/DR' | 'DR' | 'D1' | 'A1/D1' | 'EX' | 'A1/D2' | 'DH';

/** Combat Results Table: one row per (unmodified) die 1–6, one code per odds column. */
export const COMBAT_RESULTS_TABLE: readonly (readonly CombatCode[])[] = [
  /* 1 */ ['A1', 'A1', 'A1', 'A1', 'A1/DR', 'EX', 'DR', 'DR', 'A1/D1'],
  /* 2 */ ['A1', 'A1', 'A1', 'A1/DR', 'EX', 'DR', 'DR', 'A1/D1', 'D1'],
  /* 3 */ ['A1', 'A1', 'A1/DR', 'EX', 'DR', 'DR', 'A1/D1', 'D1', 'D1'],
  /* 4 */ ['A1', 'A1/DR', 'EX', 'DR', 'DR', 'A1/D1', 'D1', 'D1', 'A1/D2'],
  /* 5 */ ['A1/DR', 'EX', 'DR', 'DR', 'A1/D1', 'D1', 'D1', 'A1/D2', 'DH'],
  /* 6 */ ['EX', 'DR', 'DR', 'A1/D1', 'D1', 'D1', 'A1/D2', 'DH', 'DH'],
];

/** At most 18 factors a side in one combat (the defender's include its BDC). */
export const FACTOR_CAP = 18;

export const DD_COLUMNS = ['flooded-clear', 'other', 'fortified-position', 'strongpoint-city'] as const;
export type DeterminedDefenseColumn = (typeof DD_COLUMNS)[number];

/**
 * Determined Defense table (12.4): rows for a modified die of 1 or less, 2, 3, 4, 5, 6,
 * 7 or more; one code per column. ● cancels the retreat; -1 the lead unit loses a step;
 * EX the lead unit and one attacking MAF unit lose a step; PA one attacking unit loses a
 * step; * the defender's fortified position is eliminated.
 */
export const DETERMINED_DEFENSE_TABLE: readonly (readonly string[])[] = [
  /* ≤1 */ ['-', '-', '-', '-'],
  /* 2 */ ['-', '-', '-', '-'],
  /* 3 */ ['-', '-', '-', '●-1'],
  /* 4 */ ['-', '-', '●-1', '●EX'],
  /* 5 */ ['-1', '●-1', '●EX', '●EX'],
  /* 6 */ ['●EX', '●EX', '●PA*', '●PA'],
  /* 7+ */ ['●PA', '●PA', '●PA', '●PA'],
];

/** Jabos table (19.1.3): column shifts left for the die 1–6. */
export const JABOS_SHIFTS: readonly number[] = [0, 0, 0, 1, 2, 3];

/** Strafing table: a modified die of 6 or more costs the armored target a step. */
export const STRAFING_HIT_AT = 6;
export const STRAFING_MODIFIERS = { flak: -1, strategicMovement: 1 } as const;

/** Isolation attrition table (18.5): 4 or less loses a step; +2 when a supply line can be traced. */
export const ISOLATION_LOSS_AT_MOST = 4;
export const ISOLATION_TRACE_BONUS = 2;

/** Allied reinforcement points (6.5): the cost of each kind. */
export const REINFORCEMENT_COSTS = {
  'british-armored-brigade': 4,
  'us-combat-command': 4,
  'us-regiment': 3,
  'cw-infantry-brigade': 3,
  'cw-motorized-brigade': 3,
  'supply-point': 3,
  hq: 2,
  'armor-2-step': 2,
  'one-step-unit': 1,
} as const;
export type ReinforcementKind = keyof typeof REINFORCEMENT_COSTS;
