/**
 * France 1944 tables (Savarese revisions v2.0.6), transcribed once as data and
 * tested cell by cell against the source (test/domain/rulesets/france44/tables.test.ts).
 */

export const COMBAT_KINDS = ['set-piece', 'mobile'] as const;
export type CombatKind = (typeof COMBAT_KINDS)[number];
export type ResultLetter = 'A' | 'B' | 'C' | 'D' | 'E' | 'F';

/** Odds columns of Table 1, left to right; each ratio is attack : defence. */
export const ODDS_COLUMNS = [
  { label: '1-4', attack: 1, defence: 4 },
  { label: '1-3', attack: 1, defence: 3 },
  { label: '1-2', attack: 1, defence: 2 },
  { label: '2-3', attack: 2, defence: 3 },
  { label: '1-1', attack: 1, defence: 1 },
  { label: '3-2', attack: 3, defence: 2 },
  { label: '2-1', attack: 2, defence: 1 },
  { label: '3-1', attack: 3, defence: 1 },
  { label: '4-1', attack: 4, defence: 1 },
] as const;
export const LAST_COLUMN = ODDS_COLUMNS.length - 1;

/**
 * Table 1, Revised Combat Table: one row per adjusted die 1–6, one "S/M" cell per
 * odds column (set-piece result / mobile result).
 */
export const REVISED_COMBAT_TABLE: readonly (readonly string[])[] = [
  /* 1 */ ['A/A', 'A/A', 'A/A', 'A/A', 'A/E', 'A/E', 'A/E', 'B/B', 'B/D'],
  /* 2 */ ['A/A', 'A/A', 'A/A', 'A/E', 'A/E', 'A/E', 'B/B', 'B/B', 'D/F'],
  /* 3 */ ['A/A', 'A/A', 'A/E', 'A/E', 'A/E', 'B/B', 'B/B', 'D/F', 'D/F'],
  /* 4 */ ['A/A', 'A/E', 'A/E', 'B/B', 'B/B', 'B/B', 'D/F', 'D/F', 'C/C'],
  /* 5 */ ['A/E', 'A/E', 'B/B', 'B/B', 'B/B', 'D/F', 'D/F', 'C/C', 'C/C'],
  /* 6 */ ['A/E', 'B/B', 'B/B', 'B/B', 'D/B', 'D/F', 'C/C', 'C/C', 'C/C'],
];

export function combatTableResult(adjustedDie: number, column: number, kind: CombatKind): ResultLetter {
  const [setPiece, mobile] = REVISED_COMBAT_TABLE[adjustedDie - 1][column].split('/');
  return (kind === 'set-piece' ? setPiece : mobile) as ResultLetter;
}

/** Table 2, Control Limit Table, by attacker morale. Ruling: morale 6 → 8, as morale 5. */
export const CONTROL_LIMITS: Readonly<Record<number, number>> = { 1: 1, 2: 3, 3: 4, 4: 6, 5: 8, 6: 8 };
/** Revisions, rule 5: the most attacking units a combat can hold, HQs not counted (why morale 5 is never penalized). */
export const MAX_ATTACKING_UNITS = 8;

/** Terrain morale modifiers allowed on the map's Combat Modifications listing. */
export const TERRAIN_MORALE_MODIFIERS = [1, 2] as const;
/** Defender morale adjustment bounds (Standard Rules Clarifications: Morale Adjustment). */
export const MORALE_ADJUSTMENT_MIN = -3;
export const MORALE_ADJUSTMENT_MAX = 2;

/**
 * Table 3, Alternative CRDT. For each ratio result RR 1–5: the rows for a defender
 * morale of RR or less and for more than RR, one letter per attacker morale 1–6.
 */
export const ALTERNATIVE_CRDT: Readonly<Record<number, { setPiece: [string, string]; mobile: [string, string] }>> = {
  1: { setPiece: ['DCCCCC', 'ABBBBB'], mobile: ['BCCCCC', 'EFFFFF'] },
  2: { setPiece: ['DDCCCC', 'AABBBB'], mobile: ['BBCCCC', 'EEFFFF'] },
  3: { setPiece: ['DDDCCC', 'AAABBB'], mobile: ['BBBCCC', 'EEEFFF'] },
  4: { setPiece: ['DDDDCC', 'AAAABB'], mobile: ['BBBBCC', 'EEEEFF'] },
  5: { setPiece: ['DDDDDC', 'AAAAAB'], mobile: ['BBBBBC', 'EEEEEF'] },
};

export function crdtResult(ratioResult: number, defenderMorale: number, attackerMorale: number, kind: CombatKind): ResultLetter {
  const entry = ALTERNATIVE_CRDT[ratioResult];
  const rows = kind === 'set-piece' ? entry.setPiece : entry.mobile;
  const row = defenderMorale <= ratioResult ? rows[0] : rows[1];
  return row[attackerMorale - 1] as ResultLetter;
}
