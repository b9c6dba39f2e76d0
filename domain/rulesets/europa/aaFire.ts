import type { DiceSource } from '../../dice';
import { RuleViolation } from '../../errors';
import type { Modifier, TableDefinition, TableResolution } from '../../tables';
import { aaStrength, AA_RULE, OVER_HEX, type AAStrength, type FireMission, type FiringUnit } from './aaStrength';
import { aaResult, resolveOnAATable } from './aaTable';
import { allocate, modifiedDf, onlyHeavyAAFires, type AirUnit, type Allocation, type ModifiedDf, type UnitMission } from './allocation';

export const NATIONALITIES = ['german', 'allied', 'soviet', 'minor', 'other'] as const;
export type Nationality = (typeof NATIONALITIES)[number];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** A Europa game turn: "Jun II 44". */
export const TURN_DATE = /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (I|II) (39|40|41|42|43|44|45)$/;

/** The year and the turn's place in time (two turns a month). */
export function readTurn(date: string): { year: number; index: number } {
  const [, month, half, year] = TURN_DATE.exec(date)!;
  return { year: 1900 + Number(year), index: (Number(year) * 12 + MONTHS.indexOf(month)) * 2 + (half === 'II' ? 1 : 0) };
}
const DEC_II_42 = readTurn('Dec II 42').index;

export interface AAFireInput {
  fireId?: string;
  hex?: string;
  mission: FireMission;
  date: string;
  night?: boolean;
  nationality: Nationality;
  /** claims +1 for German or Allied AA */
  germanOrAlliedShift?: boolean;
  aa: FiringUnit[];
  prohibitedHexes?: string[];
  seaHexes?: string[];
  airUnits: (Omit<AirUnit, 'mission'> & { mission?: UnitMission })[];
}

export interface AAFireOutcome {
  mission: FireMission;
  date: string;
  night: boolean;
  nationality: Nationality;
  strength: AAStrength;
  force: ModifiedDf[];
  escorts: string[];
  shifts: Modifier[];
  resolution: TableResolution;
  /** defence factors affected; null for '-' */
  result: number | null;
  allocation: Allocation;
}

const SHIFT_RULE = 'europa 37L column shifts: +1 for German or Allied AA, only with an AA strength of 7 or more, only after Dec II 42';

/** -3 against 1 air unit, -2 against 2, -1 against 3, 0 against 4–5, +1 against 6–9, +2 against 10 or more. */
export const aircraftShift = (n: number) => (n >= 10 ? 2 : n >= 6 ? 1 : n >= 4 ? 0 : n - 4);

/** The missions that one fire's units may fly, by the fire's mission, and what a unit flies unless it says. */
function missionsOf(mission: FireMission): { allowed: readonly UnitMission[]; unit: UnitMission } {
  if (OVER_HEX.includes(mission)) return { allowed: OVER_HEX as readonly UnitMission[], unit: mission as UnitMission };
  if (mission === 'das' || mission === 'harassment') return { allowed: [mission], unit: mission };
  return { allowed: ['naval'], unit: 'naval' };
}

/**
 * Rule 37L: the AA strength, the column shifts, the roll on the game's AA fire table, and
 * the result allocated over the mission force. Every refusal comes before the first die.
 */
export function resolveAAFire(input: AAFireInput, table: TableDefinition, otherEuropaGames: boolean, dice: DiceSource): AAFireOutcome {
  const { allowed, unit: defaultMission } = missionsOf(input.mission);
  const seen = new Set<string>();
  const units: AirUnit[] = input.airUnits.map((unit) => {
    if (seen.has(unit.unitId)) throw new RuleViolation(`${JSON.stringify(unit.unitId)} is listed twice among the air units.`, AA_RULE.ids);
    seen.add(unit.unitId);
    const mission = unit.mission ?? defaultMission;
    if (mission !== 'escort' && !allowed.includes(mission)) {
      throw new RuleViolation(
        `${JSON.stringify(unit.unitId)} flies ${mission}, which this fire (${input.mission}) does not fire at: AA against ${allowed.join(', ')} is one fire, against other missions another.`,
        AA_RULE.where,
      );
    }
    return { ...unit, mission };
  });
  const escorts = units.filter((u) => u.mission === 'escort').map((u) => u.unitId);
  const flying = units.filter((u) => u.mission !== 'escort');
  if (!flying.length) throw new RuleViolation('AA fires at the mission force, never at its escorts: no air unit here flies a mission AA may fire at.', 'europa 37L1: escorts are never fired at');
  const force = flying.map(modifiedDf);
  const strength = aaStrength(input, force.length, flying.some(onlyHeavyAAFires));
  const { year, index } = readTurn(input.date);

  const shifts: Modifier[] = [];
  if (input.night) shifts.push({ source: 'night', value: -3 });
  if (year >= 1944) shifts.push({ source: '1944–45', value: 1 });
  if (input.germanOrAlliedShift) {
    if (index <= DEC_II_42) throw new RuleViolation(`The +1 for German or Allied AA applies only after Dec II 42, and this fire is in ${input.date}.`, SHIFT_RULE);
    if (input.nationality !== 'german' && input.nationality !== 'allied') throw new RuleViolation(`The +1 is for German or Allied AA only; this AA is ${input.nationality}.`, SHIFT_RULE);
    if (strength.strength < 7) throw new RuleViolation(`The +1 for German or Allied AA needs an AA strength of 7 or more; it is ${strength.text}.`, SHIFT_RULE);
    shifts.push({ source: `${input.nationality === 'german' ? 'German' : 'Allied'} AA of 7 or more`, value: 1 });
  }
  shifts.push({ source: `against ${force.length} air ${force.length === 1 ? 'unit' : 'units'}`, value: aircraftShift(force.length) });
  if (otherEuropaGames && year <= 1940) shifts.push({ source: '1939–40 (other Europa games)', value: -1 });
  if (otherEuropaGames && (input.nationality === 'soviet' || input.nationality === 'minor')) shifts.push({ source: `${input.nationality === 'soviet' ? 'Soviet' : 'minor power'} AA (other Europa games)`, value: -1 });

  const resolution = resolveOnAATable(table, strength.strength, shifts, dice);
  const result = aaResult(resolution.code);
  return {
    mission: input.mission,
    date: input.date,
    night: input.night === true,
    nationality: input.nationality,
    strength,
    force,
    escorts,
    shifts,
    resolution,
    result,
    allocation: allocate(result, force, dice),
  };
}
