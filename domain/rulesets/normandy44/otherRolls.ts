import type { DiceSource } from '../../dice';
import type { DefenderHex } from './attackResolution';
import {
  DD_COLUMNS,
  DETERMINED_DEFENSE_TABLE,
  ISOLATION_LOSS_AT_MOST,
  ISOLATION_TRACE_BONUS,
  JABOS_SHIFTS,
  STRAFING_HIT_AT,
  STRAFING_MODIFIERS,
  type DeterminedDefenseColumn,
} from './tables';

/** The Determined Defense column of the defender's hex. */
export function determinedDefenseColumn(hex: DefenderHex): DeterminedDefenseColumn {
  if (hex.strongpoint || hex.terrain === 'city') return 'strongpoint-city';
  if (hex.fortifiedPosition) return 'fortified-position';
  if (hex.terrain === 'clear' || hex.terrain === 'flooded') return 'flooded-clear';
  return 'other';
}

export interface DeterminedDefenseInput {
  defenderHex: DefenderHex;
  troopQuality?: number;
  armorComparison?: number;
  defensiveSupport?: boolean;
}

/** Determined Defense (12.4): die + troop quality or armor comparison (one) + 1 for defensive support. */
export function rollDeterminedDefense(input: DeterminedDefenseInput, dice: DiceSource) {
  const column = determinedDefenseColumn(input.defenderHex);
  const die = dice.roll(6);
  const modifiers = [
    ...(input.troopQuality !== undefined ? [{ modifier: 'lead unit troop quality', value: input.troopQuality }] : []),
    ...(input.armorComparison !== undefined ? [{ modifier: 'armor value comparison', value: input.armorComparison }] : []),
    ...(input.defensiveSupport ? [{ modifier: 'defensive support', value: 1 }] : []),
  ];
  const modifiedDie = die + modifiers.reduce((sum, m) => sum + m.value, 0);
  const row = Math.max(0, Math.min(6, modifiedDie - 1));
  const code = DETERMINED_DEFENSE_TABLE[row][DD_COLUMNS.indexOf(column)];
  return {
    result: {
      code,
      retreatCancelled: code.startsWith('●'),
      leadUnitSteps: code.endsWith('-1') || code.includes('EX') ? 1 : 0,
      attackerMafSteps: code.includes('EX') ? 1 : 0,
      attackerAnySteps: code.includes('PA') ? 1 : 0,
      fortifiedPositionEliminated: code.endsWith('*'),
    },
    breakdown: { column, die, modifiers, modifiedDie },
  };
}

export function rollJabos(dice: DiceSource) {
  const die = dice.roll(6);
  return { result: { shift: JABOS_SHIFTS[die - 1] }, breakdown: { die } };
}

export function rollStrafing(input: { flak?: boolean; strategicMovement?: boolean }, dice: DiceSource) {
  const die = dice.roll(6);
  const modifiers = [
    ...(input.flak ? [{ modifier: 'Flak', value: STRAFING_MODIFIERS.flak }] : []),
    ...(input.strategicMovement ? [{ modifier: 'target in strategic movement', value: STRAFING_MODIFIERS.strategicMovement }] : []),
  ];
  const modifiedDie = die + modifiers.reduce((sum, m) => sum + m.value, 0);
  return { result: { stepLoss: modifiedDie >= STRAFING_HIT_AT ? 1 : 0 }, breakdown: { die, modifiers, modifiedDie } };
}

export function rollIsolation(input: { canTraceSupply: boolean; troopQuality: number }, dice: DiceSource) {
  const die = dice.roll(6);
  const modifiers = [
    ...(input.canTraceSupply ? [{ modifier: 'supply line to a friendly city, strongpoint, coast or HQ', value: ISOLATION_TRACE_BONUS }] : []),
    { modifier: 'troop quality', value: input.troopQuality },
  ];
  const modifiedDie = die + modifiers.reduce((sum, m) => sum + m.value, 0);
  return { result: { stepLoss: modifiedDie <= ISOLATION_LOSS_AT_MOST ? 1 : 0 }, breakdown: { die, modifiers, modifiedDie } };
}
