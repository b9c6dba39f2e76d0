import type { RulesVersion } from './rulesVersion';
import type { Kind, Quality, Side, Unit } from './schemas';
import { equalLpBands } from './unitStatus';

/** A unit as the game folds it (state.ts). Values by status level: index 0 is level 1. */
export interface UnitState {
  side: Side;
  kind: Kind;
  division: string | null;
  quality: Quality;
  lp: number;
  maxLp: number;
  /** The status level as created: LP give no more (version 1 without statusLp: the level, fixed). */
  baseStatus: number;
  /** The least LP of levels 2, 3 and 4: the game's, or in version 2 the equal bands of unitStatus.ts. */
  statusLp: readonly [number, number, number] | null;
  energy: number;
  fatigued: boolean;
  attack: readonly number[];
  defence: readonly number[];
  tiger: boolean;
  commander: string | null;
  outOfSupply: boolean;
  turnsOutOfSupply: number;
  replenishable: boolean;
  /** The impulse of this turn in which the unit was activated. */
  activatedInImpulse: number | null;
  /** Attacked, supported an attack or bombarded this turn (ruling: one of them per turn). */
  attackedThisTurn: boolean;
  out: 'destroyed' | 'surrendered' | null;
  /** §6.3: moved strategically this turn, so it cannot attack (version 2). */
  movedStrategically: boolean;
  /** §8.1: a German unit smaller than a battalion, which stacks freely. */
  smallerThanBattalion: boolean;
}

/** §8.4.3: the energy below which fatigue costs a status level, by quality. */
export const FATIGUE_THRESHOLD: Readonly<Record<Quality, number>> = { elite: 30, veteran: 50, experienced: 60, conscript: 70 };

/** §8.4.2, in points of energy (0–100). */
export const FATIGUE = { fight: 15, perLpLost: 1, retreat: 10, bombarded: 10 } as const;
export const RECOVERY = { endOfTurn: 10, notActivated: 20 } as const;

export const GROUND_KINDS: readonly Kind[] = ['infantry', 'mechanized', 'armored', 'artillery', 'commander', 'other'];
export const SUPPORT_KINDS: readonly Kind[] = ['artillery', 'ship', 'air'];
export const BOMBARD_KINDS: Readonly<Record<Side, readonly Kind[]>> = { allied: ['artillery', 'ship', 'heavy-bomber'], axis: ['artillery'] };

const fourValues = (v: number | readonly number[]) => (typeof v === 'number' ? [v, v, v, v] : [...v]);

export function unitFromOptions(unit: Unit, rulesVersion: RulesVersion = 1): UnitState {
  const lp = unit.lp ?? unit.maxLp;
  const state: UnitState = {
    side: unit.side,
    kind: unit.kind,
    division: unit.division ?? null,
    quality: unit.quality,
    lp,
    maxLp: unit.maxLp,
    baseStatus: unit.status ?? 4,
    statusLp: unit.statusLp ?? (rulesVersion >= 2 ? equalLpBands(unit.maxLp) : null),
    energy: unit.energy,
    fatigued: false,
    attack: fourValues(unit.attack),
    defence: fourValues(unit.defence),
    tiger: unit.tiger ?? false,
    commander: unit.commander ?? null,
    outOfSupply: unit.outOfSupply ?? false,
    turnsOutOfSupply: unit.outOfSupply ? 1 : 0,
    replenishable: unit.replenishable ?? true,
    activatedInImpulse: null,
    attackedThisTurn: false,
    out: null,
    movedStrategically: false,
    smallerThanBattalion: unit.smallerThanBattalion ?? false,
  };
  // A unit created below its threshold starts with the level already lost; at its last level it would surrender, so it keeps it (ruling).
  const fatigued = unit.energy < FATIGUE_THRESHOLD[unit.quality] && lpStatus(state) > 1;
  return { ...state, fatigued };
}

/** The status level LP give: from statusLp (never above the level it was created at), else as created. */
export function lpStatus(unit: Pick<UnitState, 'lp' | 'baseStatus' | 'statusLp'>): number {
  if (!unit.statusLp) return unit.baseStatus;
  return Math.min(unit.baseStatus, 1 + unit.statusLp.filter((least) => unit.lp >= least).length);
}

/** The status level now: LP's, less one while fatigue has cost a level; 0 once out of the game. */
export function statusLevel(unit: UnitState): number {
  if (unit.out) return 0;
  return lpStatus(unit) - (unit.fatigued ? 1 : 0);
}

/** The unit's attack or defence value at its status level now (level 1 at least). */
export function combatValueOf(unit: UnitState, which: 'attack' | 'defence'): number {
  const level = Math.max(1, statusLevel(unit));
  return unit[which][level - 1];
}

/**
 * §8.3.2: LP an Allied unit regains at the end of a turn: none in contact with the enemy or
 * having lost less than 25% of its LP; else 20% of its maximum, rounded to the nearest,
 * up to its maximum.
 */
export function alliedReplenishment(maxLp: number, lp: number, inContact: boolean) {
  const lost = maxLp - lp;
  const lostEnough = 4 * lost >= maxLp;
  // 20% of a whole number is never an exact half: rounding to the nearest is unambiguous.
  const allowance = Math.round(maxLp / 5);
  const gained = inContact || !lostEnough ? 0 : Math.min(lost, allowance);
  return { lost, lostPercent: Math.round((100 * lost) / maxLp), threshold: 25, allowance, inContact, gained, lpAfter: lp + gained };
}
