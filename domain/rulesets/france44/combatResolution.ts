import type { DiceSource } from '../../dice';
import { RuleViolation } from '../../errors';
import {
  combatTableResult,
  CONTROL_LIMITS,
  LAST_COLUMN,
  MAX_ATTACKING_UNITS,
  MORALE_ADJUSTMENT_MAX,
  MORALE_ADJUSTMENT_MIN,
  ODDS_COLUMNS,
  type CombatKind,
  type ResultLetter,
} from './tables';
import type { RulesVersion } from './rulesVersion';

export interface CombatAttacker {
  unitId?: string;
  hex?: string;
  strength?: number;
  hq?: boolean;
  /** Revisions, Supply: an out-of-supply combat unit attacks at full strength; an out-of-supply HQ may not attack. */
  outOfSupply?: boolean;
}
export interface CombatDefender {
  unitId?: string;
  hex?: string;
  strength: number;
  outOfSupply?: boolean;
}
export interface MoraleModifier {
  source: string;
  value: number;
}

/** What a combat is resolved from: the declaration, plus air power when allocated. */
export interface CombatSituation {
  kind: CombatKind;
  attackers: readonly CombatAttacker[];
  defenders: readonly CombatDefender[];
  attackerMorale: number;
  defenderMorale: number;
  terrainMoraleModifiers?: readonly number[];
  otherMoraleModifiers?: readonly MoraleModifier[];
}

export interface CombatOptions {
  cAttackerLoss: boolean;
  airPowerMoraleModifier: number;
  rulesVersion: RulesVersion;
}

const ATTACKER_RULE = {
  outOfSupplyHq: 'France 1944 revisions, Supply: an out-of-supply HQ adds nothing to an attack',
  hqAlone: 'France 1944: an HQ adds its strength to an attacking unit, so an attack needs a unit that is not an HQ (rules version 2)',
  atMostEight: 'France 1944 revisions, rule 5: at most 8 attacking units in a combat, HQs not counted (rules version 2)',
};
/** Which units may attack together; checked when a combat is declared and again before its die. */
export function checkAttackers(attackers: readonly CombatAttacker[], rulesVersion: RulesVersion): void {
  // No game recorded before version 2 could name an out-of-supply attacker: this holds for every version.
  const outOfSupplyHq = attackers.find((a) => a.hq && a.outOfSupply);
  if (outOfSupplyHq) {
    const hq = outOfSupplyHq.unitId === undefined ? 'An HQ' : `HQ ${outOfSupplyHq.unitId}`;
    throw new RuleViolation(`${hq} is out of supply: it can't add its strength to an attack.`, ATTACKER_RULE.outOfSupplyHq);
  }
  if (rulesVersion < 2) return;
  const units = attackers.filter((a) => !a.hq).length;
  if (units === 0) throw new RuleViolation('Only HQs attack here: an HQ adds its strength to an attacking unit, so a combat needs at least one unit that is not an HQ.', ATTACKER_RULE.hqAlone);
  if (units > MAX_ATTACKING_UNITS) {
    throw new RuleViolation(`${units} units attack in this combat: at most ${MAX_ATTACKING_UNITS} may, HQs not counted.`, ATTACKER_RULE.atMostEight);
  }
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Strengths in half points, so that an out-of-supply defender's half counts exactly. */
export function strengthsInHalves(situation: Pick<CombatSituation, 'attackers' | 'defenders'>) {
  const attack = situation.attackers.reduce((sum, a) => sum + 2 * (a.strength ?? 0), 0);
  const defence = situation.defenders.reduce((sum, d) => sum + (d.outOfSupply ? d.strength : 2 * d.strength), 0);
  return { attack, defence };
}

/** Rule 2: the rightmost column whose ratio is at most attack/defence; rounding favours the defender. */
export function baseOddsColumn(attackHalves: number, defenceHalves: number): number | undefined {
  let column: number | undefined;
  ODDS_COLUMNS.forEach((c, index) => {
    if (c.attack * defenceHalves <= attackHalves * c.defence) column = index;
  });
  return column;
}

/** Standard Rules Clarifications: the single best terrain modifier, plus all others, within −3..+2; morale within 1..6. */
export function adjustedDefenderMorale(base: number, terrain: readonly number[], others: readonly MoraleModifier[]) {
  const bestTerrain = terrain.length ? Math.max(...terrain) : 0;
  const otherTotal = others.reduce((sum, m) => sum + m.value, 0);
  const adjustment = clamp(bestTerrain + otherTotal, MORALE_ADJUSTMENT_MIN, MORALE_ADJUSTMENT_MAX);
  return { bestTerrain, otherTotal, adjustment, adjusted: clamp(base + adjustment, 1, 6) };
}

/** Rule 5: one less for every attacking non-HQ unit above the control limit; never positive. */
export function controlModifier(attackerMorale: number, attackingUnits: number) {
  const limit = CONTROL_LIMITS[attackerMorale];
  return { limit, units: attackingUnits, modifier: Math.min(0, limit - attackingUnits) };
}

/** Rules 2–3: shift the column; shifts past 4-1 or 1-4 become a die modifier. */
export function columnShift(baseColumn: number, combatModifier: number) {
  const shifted = baseColumn + combatModifier;
  if (shifted > LAST_COLUMN) return { column: LAST_COLUMN, dieModifier: shifted - LAST_COLUMN };
  if (shifted < 0) return { column: 0, dieModifier: shifted };
  return { column: shifted, dieModifier: 0 };
}

export function formatStrength(halves: number): string {
  return halves % 2 === 0 ? String(halves / 2) : `${(halves - 1) / 2}.5`;
}

export function checkOdds(situation: Pick<CombatSituation, 'attackers' | 'defenders'>): { attack: number; defence: number; baseColumn: number } {
  const { attack, defence } = strengthsInHalves(situation);
  const baseColumn = baseOddsColumn(attack, defence);
  if (baseColumn === undefined) {
    throw new RuleViolation(
      `Odds of ${formatStrength(attack)}:${formatStrength(defence)} are below 1-4: an attack at less than 1-4 is not allowed.`,
      'france44 Combat Resolution: no attack below 1-4 odds (ruling)',
    );
  }
  return { attack, defence, baseColumn };
}

export interface CombatBreakdown {
  attack: number;
  defence: number;
  odds: string;
  baseColumn: string;
  morale: {
    attacker: number;
    defenderBase: number;
    terrainModifiers: number[];
    bestTerrain: number;
    otherModifiers: MoraleModifier[];
    otherTotal: number;
    adjustment: number;
    adjustedDefender: number;
    modifier: number;
  };
  control: { limit: number; units: number; modifier: number };
  combatModifier: number;
  column: string;
  dieModifier: number;
  die: number;
  adjustedDie: number;
  kind: CombatKind;
  code: ResultLetter;
  /** What the source says of the letter: C is 2 defender steps (and 1 attacker step with cAttackerLoss). */
  stepLosses: { defender: number; attacker: number } | null;
}

/**
 * Resolves one combat on the Revised Combat Table: every rule is checked before the
 * one die is rolled. Shared by ResolveCombat and the `combat` procedure.
 */
export function resolveCombat(situation: CombatSituation, options: CombatOptions, airPower: boolean, dice: DiceSource): CombatBreakdown {
  checkAttackers(situation.attackers, options.rulesVersion);
  const { attack, defence, baseColumn } = checkOdds(situation);
  const terrain = [...(situation.terrainMoraleModifiers ?? [])];
  const others = [...(situation.otherMoraleModifiers ?? [])];
  if (airPower) others.push({ source: 'air power', value: options.airPowerMoraleModifier });
  const morale = adjustedDefenderMorale(situation.defenderMorale, terrain, others);
  const moraleModifier = situation.attackerMorale - morale.adjusted;
  const control = controlModifier(situation.attackerMorale, situation.attackers.filter((a) => !a.hq).length);
  const combatModifier = moraleModifier + control.modifier;
  const { column, dieModifier } = columnShift(baseColumn, combatModifier);

  const die = dice.roll(6);
  const adjustedDie = clamp(die + dieModifier, 1, 6);
  const code = combatTableResult(adjustedDie, column, situation.kind);
  return {
    attack: attack / 2,
    defence: defence / 2,
    odds: `${formatStrength(attack)}:${formatStrength(defence)}`,
    baseColumn: ODDS_COLUMNS[baseColumn].label,
    morale: {
      attacker: situation.attackerMorale,
      defenderBase: situation.defenderMorale,
      terrainModifiers: terrain,
      bestTerrain: morale.bestTerrain,
      otherModifiers: others,
      otherTotal: morale.otherTotal,
      adjustment: morale.adjustment,
      adjustedDefender: morale.adjusted,
      modifier: moraleModifier,
    },
    control,
    combatModifier,
    column: ODDS_COLUMNS[column].label,
    dieModifier,
    die,
    adjustedDie,
    kind: situation.kind,
    code,
    stepLosses: code === 'C' ? { defender: 2, attacker: options.cAttackerLoss ? 1 : 0 } : null,
  };
}

/** The air power roll: one d6, allocated when the die is at most the track's value (ruling). */
export function rollAirPower(availability: number, dice: DiceSource) {
  const die = dice.roll(6);
  return { die, availability, allocated: die <= availability };
}
