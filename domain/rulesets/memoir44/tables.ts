/**
 * Memoir '44 played with plain d6 (a fan variant), its tables as data, tested cell by
 * cell against the source (test/domain/rulesets/memoir44/tables.test.ts).
 */
import type { RulesVersion } from './rulesVersion';

export type UnitType = 'infantry' | 'armor' | 'artillery' | 'cavalry' | 'sniper';
export type Terrain = 'clear' | 'forest' | 'town' | 'hedgerow' | 'hill' | 'bunker' | 'hedgehog' | 'sandbags' | 'wire';

/** Battle dice per figure, and what a special unit adds to the unit. */
export const DICE_PER_FIGURE: Readonly<Record<UnitType, number>> = { infantry: 1, armor: 2, artillery: 2, cavalry: 1, sniper: 1 };
export const SPECIAL_BONUS: Readonly<Record<UnitType, number>> = { infantry: 1, armor: 0, artillery: 0, cavalry: 0, sniper: 1 };

/**
 * To hit: the lowest die (after reductions) that scores, by range 1–6; null when out of
 * range. Ruling: the sniper fires at range 1–5 (its standard range), hitting on 5–6.
 */
export const TO_HIT: Readonly<Record<UnitType, readonly (number | null)[]>> = {
  infantry: [4, 5, 6, null, null, null],
  armor: [4, 4, 4, null, null, null],
  artillery: [4, 4, 5, 5, 6, 6],
  cavalry: [5, 6, null, null, null, null],
  sniper: [5, 5, 5, 5, 5, null],
};

/** Reductions subtracted from every die: the target's terrain (battle in), by attacker column. */
export const BATTLE_IN: Readonly<Record<Terrain, { infantry: number; armor: number }>> = {
  clear: { infantry: 0, armor: 0 },
  forest: { infantry: 1, armor: 2 },
  town: { infantry: 1, armor: 2 },
  hedgerow: { infantry: 1, armor: 2 },
  hill: { infantry: 1, armor: 1 }, // only when attacking uphill
  bunker: { infantry: 1, armor: 2 },
  hedgehog: { infantry: 0, armor: 0 },
  sandbags: { infantry: 1, armor: 1 },
  wire: { infantry: 0, armor: 0 },
};

/** Reductions for the attacker's own terrain (battle out). */
export const BATTLE_OUT: Readonly<Partial<Record<Terrain, { infantry: number; armor: number }>>> = {
  town: { infantry: 0, armor: 2 },
  wire: { infantry: 1, armor: 0 },
};

/** Which terrain column an attacker reads; null: it ignores terrain (ruling for artillery and snipers). */
export const TERRAIN_COLUMN: Readonly<Record<UnitType, 'infantry' | 'armor' | null>> = {
  infantry: 'infantry',
  armor: 'armor',
  cavalry: 'armor', // ruling: cavalry fights like armor
  artillery: null,
  sniper: null,
};

/**
 * Rules version 2: the most figures a unit of each type has (Memoir '44's unit sizes; a sniper
 * is "a single figure"). Rulings: special armor (elite armor) has 4; cavalry, whose size the
 * source does not give, at most 4, so that no scenario's cavalry is refused.
 */
export const MAX_FIGURES: Readonly<Record<UnitType, number>> = { infantry: 4, armor: 3, artillery: 2, cavalry: 4, sniper: 1 };
export const MAX_FIGURES_SPECIAL: Readonly<Partial<Record<UnitType, number>>> = { armor: 4 };

/** Units that may battle again after taking ground (overrun): armor, and cavalry "like ARMOR for movement and combat". */
export const OVERRUN_TYPES: readonly UnitType[] = ['armor', 'cavalry'];

/** Targets that roll the defensive dice: armor; cavalry too from rules version 2 (it fights like armor). */
export const DEFENSIVE_ROLL_TYPES: Readonly<Record<RulesVersion, readonly UnitType[]>> = { 1: ['armor'], 2: ['armor', 'cavalry'] };

/** A raw 1 is always a flag (one hex of retreat). */
export const FLAG_FACE = 1;
/** Armor's defensive roll: one die per figure, each 5 or 6 cancels a hit. */
export const DEFENSIVE_SAVE_AT = 5;
/** Artillery in a bunker is hit on a raw 1 or 6, and nothing else. */
export const ARTILLERY_IN_BUNKER_HIT_FACES: readonly number[] = [1, 6];

export type CardSymbol = 'flag' | 'star' | 'infantry' | 'armor' | 'grenade';
/** Command card rolls: the symbol each face stands for. */
export const CARD_SYMBOLS: readonly CardSymbol[] = ['flag', 'star', 'infantry', 'infantry', 'armor', 'grenade'];
