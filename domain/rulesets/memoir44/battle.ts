import type { DiceSource } from '../../dice';
import { RuleViolation } from '../../errors';
import {
  ARTILLERY_IN_BUNKER_HIT_FACES,
  BATTLE_IN,
  BATTLE_OUT,
  CARD_SYMBOLS,
  DEFENSIVE_ROLL_TYPES,
  DEFENSIVE_SAVE_AT,
  DICE_PER_FIGURE,
  FLAG_FACE,
  MAX_FIGURES,
  MAX_FIGURES_SPECIAL,
  SPECIAL_BONUS,
  TERRAIN_COLUMN,
  TO_HIT,
  type Terrain,
  type UnitType,
} from './tables';
import type { RulesVersion } from './rulesVersion';

export interface BattleUnit {
  unitId?: string;
  type: UnitType;
  figures: number;
  special?: boolean;
  terrain?: Terrain;
  uphill?: boolean;
}
export interface BattleInput {
  attacker: BattleUnit;
  target: BattleUnit;
  range: number;
  starsHit?: boolean;
}

const RULE = {
  range: "Memoir '44 d6: each unit battles within its range",
  impossible: "Memoir '44 d6: if modifiers leave no die able to hit, the battle cannot be made",
  figures: "Memoir '44: a unit has at most its type's figures — infantry 4, armor 3 (special armor 4), artillery 2, cavalry 4, sniper 1 (rules version 2)",
};

/** Rules version 2: no unit has more figures than its type's size. */
export function checkFigures(unit: BattleUnit, role: 'attacker' | 'target', rulesVersion: RulesVersion): void {
  if (rulesVersion < 2) return;
  const specialSize = MAX_FIGURES_SPECIAL[unit.type];
  const bySpecialSize = unit.special === true && specialSize !== undefined;
  const most = bySpecialSize ? specialSize : MAX_FIGURES[unit.type];
  if (unit.figures <= most) return;
  const who = unit.unitId ?? `The ${role}`;
  const size = bySpecialSize ? `special ${unit.type} has at most ${most}` : `${unit.type} has at most ${most}${specialSize ? ` (special ${unit.type} ${specialSize})` : ''}`;
  throw new RuleViolation(`${who} has ${unit.figures} figures: ${size}.`, RULE.figures);
}

export function battleDice(unit: BattleUnit): number {
  return unit.figures * DICE_PER_FIGURE[unit.type] + (unit.special || unit.type === 'sniper' ? SPECIAL_BONUS[unit.type] : 0);
}

/** The lowest die that hits, after starsHit (snipers already count stars). */
export function toHit(type: UnitType, range: number, starsHit: boolean): number | undefined {
  const base = TO_HIT[type][range - 1];
  if (base === null || base === undefined) return undefined;
  return starsHit && type !== 'sniper' ? base - 1 : base;
}

/** Every reduction applying to the attacker's dice, with its reason. */
export function reductions(input: BattleInput): { reason: string; value: number }[] {
  const column = TERRAIN_COLUMN[input.attacker.type];
  if (!column) return [];
  const list: { reason: string; value: number }[] = [];
  const outTerrain = input.attacker.terrain;
  const out = outTerrain ? BATTLE_OUT[outTerrain] : undefined;
  if (out && out[column]) list.push({ reason: `battle out: ${outTerrain}`, value: out[column] });
  const inTerrain = input.target.terrain ?? 'clear';
  const applies = inTerrain !== 'hill' || input.target.uphill === true;
  if (applies && BATTLE_IN[inTerrain][column]) list.push({ reason: inTerrain === 'hill' ? 'hill, uphill' : inTerrain, value: BATTLE_IN[inTerrain][column] });
  return list;
}

const artilleryInBunker = (target: BattleUnit) => target.type === 'artillery' && target.terrain === 'bunker';

/** Checks figures, range and whether any die can hit; the rules are checked before any die. */
export function checkBattle(input: BattleInput, rulesVersion: RulesVersion) {
  checkFigures(input.attacker, 'attacker', rulesVersion);
  checkFigures(input.target, 'target', rulesVersion);
  const threshold = toHit(input.attacker.type, input.range, input.starsHit === true);
  if (threshold === undefined) {
    throw new RuleViolation(`${input.attacker.type} can't battle at range ${input.range}: the target is out of its range.`, RULE.range);
  }
  const cuts = reductions(input);
  const total = cuts.reduce((sum, r) => sum + r.value, 0);
  if (!artilleryInBunker(input.target) && 6 - total < threshold) {
    const arithmetic = cuts.map((r) => `−${r.value} (${r.reason})`).join(' ');
    throw new RuleViolation(
      `No die can hit: ${input.attacker.type} needs ${threshold}+ at range ${input.range}, and a 6 ${arithmetic} is only ${6 - total}.`,
      RULE.impossible,
    );
  }
  return { threshold, reductions: cuts, reduction: total };
}

/** Resolves a battle: attack dice, then the armor defensive roll if any hit was scored. */
export function resolveBattle(input: BattleInput, dice: DiceSource, rulesVersion: RulesVersion) {
  const { threshold, reductions: cuts, reduction } = checkBattle(input, rulesVersion);
  const count = battleDice(input.attacker);
  const rolls = Array.from({ length: count }, () => dice.roll(6));
  const bunker = artilleryInBunker(input.target);
  // Artillery in a bunker: raw 1s and 6s hit, no modifiers; ruling: those 1s are hits, not flags.
  const hits = bunker ? rolls.filter((d) => ARTILLERY_IN_BUNKER_HIT_FACES.includes(d)).length : rolls.filter((d) => d - reduction >= threshold).length;
  const flags = bunker ? 0 : rolls.filter((d) => d === FLAG_FACE).length;
  let defensiveRolls: number[] = [];
  let cancelled = 0;
  if (DEFENSIVE_ROLL_TYPES[rulesVersion].includes(input.target.type) && hits > 0) {
    defensiveRolls = Array.from({ length: input.target.figures }, () => dice.roll(6));
    cancelled = Math.min(hits, defensiveRolls.filter((d) => d >= DEFENSIVE_SAVE_AT).length);
  }
  const figuresLost = Math.min(hits - cancelled, input.target.figures);
  return {
    result: { hits, flags, cancelled, figuresLost, eliminated: figuresLost === input.target.figures },
    breakdown: {
      dice: count,
      threshold: bunker ? 'raw 1 or 6 (artillery in a bunker)' : `${threshold}+`,
      reductions: bunker ? [] : cuts,
      reduction: bunker ? 0 : reduction,
      rolls,
      defensiveRolls,
    },
  };
}

export function readCardRoll(dice: DiceSource, count: number) {
  const rolls = Array.from({ length: count }, () => dice.roll(6));
  return { result: { symbols: rolls.map((d) => CARD_SYMBOLS[d - 1]) }, breakdown: { rolls } };
}
