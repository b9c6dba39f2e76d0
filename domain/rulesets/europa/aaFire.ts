import type { DiceSource } from '../../dice';
import { RuleViolation } from '../../errors';
import type { Modifier, TableDefinition, TableResolution } from '../../tables';
import { aaStrength, AA_RULE, OVER_HEX, type AAStrength, type FireMission, type FiringUnit } from './aaStrength';
import { aaResult, checkAATable } from './aaTable';
import { allocate, modifiedDf, onlyHeavyAAFires, type AirUnit, type Allocation, type ModifiedDf, type UnitMission } from './allocation';
import { resolveOnTable } from '../../tables';
import type { RulesVersion } from './rulesVersion';

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
  /** version 1 and 2: claims +1 for German or Allied AA; version 3: a cross-check of the +1 the fire gets */
  germanOrAlliedShift?: boolean;
  aa: FiringUnit[];
  prohibitedHexes?: string[];
  seaHexes?: string[];
  airUnits: (Omit<AirUnit, 'mission'> & { mission?: UnitMission })[];
}

export interface AAFireOutcome {
  /** rules version 3, harassment by several units: the harassing unit this fire is on */
  target?: string;
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

const qualifiesForShift = (nationality: Nationality, turnIndex: number, strength: number) =>
  (nationality === 'german' || nationality === 'allied') && turnIndex > DEC_II_42 && strength >= 7;

/** Why the +1 for German or Allied AA does not apply to this fire, or null when it does. */
function shiftRefusal(input: AAFireInput, turnIndex: number, strength: AAStrength): string | null {
  if (turnIndex <= DEC_II_42) return `The +1 for German or Allied AA applies only after Dec II 42, and this fire is in ${input.date}.`;
  if (input.nationality !== 'german' && input.nationality !== 'allied') return `The +1 is for German or Allied AA only; this AA is ${input.nationality}.`;
  if (strength.strength < 7) return `The +1 for German or Allied AA needs an AA strength of 7 or more; it is ${strength.text}.`;
  return null;
}

/**
 * The +1 for German or Allied AA. Versions 1 and 2: only when the command claims it, and a
 * claim that does not hold is refused. Version 3: applied whenever nationality, date and
 * strength give it; the flag, if sent, must agree (a claim or a denial that contradicts them
 * is refused).
 */
function germanOrAlliedShift(input: AAFireInput, turnIndex: number, strength: AAStrength, rulesVersion: RulesVersion): Modifier | null {
  const shift = { source: `${input.nationality === 'german' ? 'German' : 'Allied'} AA of 7 or more`, value: 1 };
  const refusal = shiftRefusal(input, turnIndex, strength);
  if (input.germanOrAlliedShift === true && refusal) throw new RuleViolation(refusal, SHIFT_RULE);
  if (rulesVersion < 3) return input.germanOrAlliedShift ? shift : null;
  if (input.germanOrAlliedShift === false && !refusal) {
    throw new RuleViolation(
      `This fire gets the +1 for German or Allied AA (${input.nationality} AA of ${strength.text} in ${input.date}), so germanOrAlliedShift false contradicts it: leave the flag out, or correct the nationality.`,
      SHIFT_RULE,
    );
  }
  return qualifiesForShift(input.nationality, turnIndex, strength.strength) ? shift : null;
}

/** One fire's column shifts, in the order the rule lists them. */
function columnShifts(input: AAFireInput, strength: AAStrength, forceSize: number, otherEuropaGames: boolean, rulesVersion: RulesVersion): Modifier[] {
  const { year, index } = readTurn(input.date);
  const shifts: Modifier[] = [];
  if (input.night) shifts.push({ source: 'night', value: -3 });
  if (year >= 1944) shifts.push({ source: '1944–45', value: 1 });
  const national = germanOrAlliedShift(input, index, strength, rulesVersion);
  if (national) shifts.push(national);
  shifts.push({ source: `against ${forceSize} air ${forceSize === 1 ? 'unit' : 'units'}`, value: aircraftShift(forceSize) });
  if (otherEuropaGames && year <= 1940) shifts.push({ source: '1939–40 (other Europa games)', value: -1 });
  if (otherEuropaGames && (input.nationality === 'soviet' || input.nationality === 'minor')) shifts.push({ source: `${input.nationality === 'soviet' ? 'Soviet' : 'minor power'} AA (other Europa games)`, value: -1 });
  return shifts;
}

/**
 * Rule 37L: the AA strength, the column shifts, the roll on the game's AA fire table, and
 * the result allocated over the mission force. One fire, except harassment by several units
 * from rules version 3: "5 points of AA to be fired on each of the harassing air units", one
 * fire per unit, each against one air unit with its own 2d6 and allocation, in the order
 * listed. Every refusal, of every fire, comes before the first die.
 */
export function resolveAAFires(input: AAFireInput, table: TableDefinition, otherEuropaGames: boolean, dice: DiceSource, rulesVersion: RulesVersion): AAFireOutcome[] {
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
  const oneFirePerUnit = rulesVersion >= 3 && input.mission === 'harassment' && flying.length > 1;
  const forces = oneFirePerUnit ? flying.map((unit) => [unit]) : [flying];

  const fires = forces.map((group) => {
    const force = group.map(modifiedDf);
    const strength = aaStrength(input, force.length, group.some(onlyHeavyAAFires));
    const shifts = columnShifts(input, strength, force.length, otherEuropaGames, rulesVersion);
    checkAATable(table, strength.strength, shifts);
    return { target: oneFirePerUnit ? group[0].unitId : undefined, force, strength, shifts };
  });
  return fires.map(({ target, force, strength, shifts }) => {
    const resolution = resolveOnTable(table, { value: strength.strength, shifts }, dice);
    const result = aaResult(resolution.code);
    return {
      ...(target === undefined ? {} : { target }),
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
  });
}

/** One AA fire (any mission but harassment by several units from version 3, which is several fires). */
export function resolveAAFire(input: AAFireInput, table: TableDefinition, otherEuropaGames: boolean, dice: DiceSource, rulesVersion: RulesVersion): AAFireOutcome {
  const [outcome, ...more] = resolveAAFires(input, table, otherEuropaGames, dice, rulesVersion);
  if (more.length) throw new Error('resolveAAFire: this input is several fires (harassment by several units): use resolveAAFires');
  return outcome;
}
