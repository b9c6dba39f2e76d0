import type { DiceSource } from '../../dice';

export const AIR_TYPES = ['F', 'HF', 'A', 'D', 'B', 'SB', 'LB', 'HB', 'SHB', 'T', 'HT'] as const;
export type AirType = (typeof AIR_TYPES)[number];
export const UNIT_MISSIONS = ['ground-support', 'bombing', 'air-transport', 'airdrop', 'das', 'harassment', 'naval', 'escort'] as const;
export type UnitMission = (typeof UNIT_MISSIONS)[number];

export interface AirUnit {
  unitId: string;
  type: AirType;
  /** the printed defence factor */
  df: number;
  /** code T on the counter */
  codeT?: boolean;
  mission: UnitMission;
  /** declared before any AA fires */
  dedicated?: boolean;
}

/** Fighters, whose printed DF this table reads through FIGHTER_DF (ruling: F and HF). */
const FIGHTERS: readonly AirType[] = ['F', 'HF'];

/** Rule 37L's DF modifiers by type (or code T) and mission, as data; at most one applies to a unit. */
export const DF_MODIFIERS: readonly { types: readonly AirType[]; codeT?: true; missions: readonly UnitMission[]; value: number; text: string }[] = [
  { types: ['HB', 'SHB'], missions: ['harassment'], value: -2, text: 'HB and SHB on harassment' },
  { types: ['B', 'SB', 'HT', 'T'], missions: ['das', 'ground-support', 'harassment', 'airdrop'], value: -1, text: 'B, SB, HT and T on DAS, GS, harassment or airdrop' },
  { types: ['B', 'SB', 'LB', 'HT', 'T'], codeT: true, missions: ['naval'], value: -1, text: 'code T and B, SB, LB, HT and T bombing naval units' },
];

/** Fighters' printed DF as this table reads it: 1–4 as printed, 5–6 as 4, 7–8 as 5, 9 or more as 6. */
export const fighterDf = (printed: number) => (printed <= 4 ? printed : printed <= 6 ? 4 : printed <= 8 ? 5 : 6);

/** HB flying a mission the table does not otherwise modify: only heavy AA fires at it. */
export const onlyHeavyAAFires = (unit: Pick<AirUnit, 'type' | 'mission'>) => unit.type === 'HB' && unit.mission !== 'harassment' && unit.mission !== 'naval';

export interface ModifiedDf {
  unitId: string;
  type: AirType;
  mission: UnitMission;
  printedDf: number;
  df: number;
  /** how the printed DF became df, in words */
  steps: string[];
  dedicated: boolean;
}

export function modifiedDf(unit: AirUnit): ModifiedDf {
  const steps: string[] = [];
  let df = unit.df;
  if (FIGHTERS.includes(unit.type) && fighterDf(df) !== df) {
    df = fighterDf(df);
    steps.push(`fighter: printed ${unit.df} counts as ${df}`);
  }
  const modifier = DF_MODIFIERS.find((m) => m.missions.includes(unit.mission) && (m.types.includes(unit.type) || (m.codeT && unit.codeT)));
  if (modifier) {
    df += modifier.value;
    steps.push(`${modifier.value} for ${modifier.text}`);
  }
  // Ruling: a DF is never below 0.
  if (df < 0) {
    steps.push(`${df} counts as 0`);
    df = 0;
  }
  return { unitId: unit.unitId, type: unit.type, mission: unit.mission, printedDf: unit.df, df, steps, dedicated: unit.dedicated === true };
}

export type Outcome = 'returned' | 'aborted' | 'unaffected';
export type Effect = 'returns' | 'aborts' | 'aborts after the mission' | 'eliminated after the mission';

export interface Selection {
  order: number;
  unitId: string;
  /** the die that picked the unit among those left (null when one was left) */
  die: { sides: number; value: number } | null;
  df: number;
  before: number;
  after: number;
  outcome: Outcome;
  effect: Effect | null;
}

export interface Allocation {
  forceDf: number;
  /** the result is at least the force's combined DF: odd selections abort, even ones return */
  atLeastForce: boolean;
  selections: Selection[];
  unaffected: string[];
  affectedDf: number;
}

const EFFECTS: Record<'returned' | 'aborted', { plain: Effect; dedicated: Effect }> = {
  returned: { plain: 'returns', dedicated: 'aborts after the mission' },
  aborted: { plain: 'aborts', dedicated: 'eliminated after the mission' },
};

/**
 * Rule 37L4: the mission force's units are selected at random, one at a time, each by one
 * die over the units still unselected (in the order given), and each deducts its modified
 * DF from what remains of the result. The first selected unit whose DF exceeds what remains
 * is unaffected and ends the allocation (ruling); when no unit left could be affected, none
 * is selected and no die is rolled.
 */
export function allocate(result: number | null, force: readonly ModifiedDf[], dice: DiceSource): Allocation {
  const forceDf = force.reduce((s, u) => s + u.df, 0);
  const atLeastForce = result !== null && result >= forceDf;
  const selections: Selection[] = [];
  const left = [...force];
  let remaining = result ?? 0;
  while (result !== null && left.length && left.some((u) => u.df <= remaining)) {
    const die = left.length > 1 ? { sides: left.length, value: dice.roll(left.length) } : null;
    const [unit] = left.splice(die ? die.value - 1 : 0, 1);
    const order = selections.length + 1;
    if (unit.df > remaining) {
      selections.push({ order, unitId: unit.unitId, die, df: unit.df, before: remaining, after: remaining, outcome: 'unaffected', effect: null });
      break;
    }
    const outcome = (order % 2 === 1) === atLeastForce ? 'aborted' : 'returned';
    selections.push({ order, unitId: unit.unitId, die, df: unit.df, before: remaining, after: remaining - unit.df, outcome, effect: EFFECTS[outcome][unit.dedicated ? 'dedicated' : 'plain'] });
    remaining -= unit.df;
  }
  const affected = new Set(selections.filter((s) => s.outcome !== 'unaffected').map((s) => s.unitId));
  return {
    forceDf,
    atLeastForce,
    selections,
    unaffected: force.filter((u) => !affected.has(u.unitId)).map((u) => u.unitId),
    affectedDf: force.filter((u) => affected.has(u.unitId)).reduce((s, u) => s + u.df, 0),
  };
}
