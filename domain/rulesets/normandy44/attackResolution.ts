import type { DiceSource } from '../../dice';
import { RuleViolation } from '../../errors';
import { combatEffects, type CombatEffects } from './resultEffects';
import { COMBAT_RESULTS_TABLE, FACTOR_CAP, JABOS_SHIFTS, LAST_COLUMN, ODDS_COLUMNS, type CombatCode } from './tables';
import { HEX_TERRAIN, HEXSIDES, type Hexside, type HexTerrain } from './terrain';

export type Side = 'allied' | 'german';
type Favour = 'attacker' | 'defender';

export interface DefenderHex {
  terrain: HexTerrain;
  hilltop?: boolean;
  fortifiedPosition?: boolean;
  strongpoint?: boolean;
}
export interface Attacker {
  unitId?: string;
  factors: number;
  mainAttackForce: boolean;
  hexside?: Hexside;
  fromFloodedHex?: boolean;
  outOfSupply?: boolean;
  landingTurn?: boolean;
}
export interface Defender {
  unitId?: string;
  factors: number;
  steps: number;
}
export interface Shifts {
  troopQuality?: Favour;
  armorAdvantage?: Favour;
  tiger?: Favour;
  airSupport?: number;
  naval?: boolean;
  defenderStrategicMovement?: boolean;
  hq?: number;
}
export interface Attack {
  weather: 'clear' | 'overcast' | 'storm';
  defenderHex: DefenderHex;
  attackers: readonly Attacker[];
  defenders: readonly Defender[];
  shifts?: Shifts;
}

const RULE = {
  maf: "Normandy '44: an attack has a main attack force (MAF)",
  impassable: "Normandy '44 terrain chart: no unit crosses an impassable hexside and no zone of control reaches across it, so no attack goes across it (ruling)",
  odds: "Normandy '44: no attack below 1-3 (ruling)",
  landing: "Normandy '44 (6.5.2): only Allied reinforcements have a landing turn",
  factors: "Normandy '44: an attack needs attack factors",
};

export interface AttackerBreakdown {
  unitId?: string;
  factors: number;
  halvedFor: string[];
  counted: number;
}
export interface ShiftLine {
  shift: string;
  columns: number;
  applied: boolean;
  reason?: string;
}

const halves = (n: number) => (n % 2 === 0 ? String(n / 2) : `${(n - 1) / 2}.5`);
const isHexsideShift = (a: Attacker) => HEXSIDES[a.hexside ?? 'none'].shiftsLeft || a.fromFloodedHex === true;

/** Each attacker halved at most once, whatever the number of reasons; sums kept in half factors. */
export function attackerFactors(attack: Attack, side: Side): AttackerBreakdown[] {
  return attack.attackers.map((a) => {
    const reasons: string[] = [];
    if (!a.mainAttackForce) reasons.push('not in the main attack force');
    const hexside = HEXSIDES[a.hexside ?? 'none'];
    if (hexside.halves === true || (hexside.halves === 'allied' && side === 'allied')) reasons.push(`across a ${a.hexside} hexside`);
    // Into a flooded hex, unless from a flooded hex across a flooded hexside (which still halves, once).
    if (attack.defenderHex.terrain === 'flooded' && !(a.fromFloodedHex && a.hexside === 'flooded')) reasons.push('into a flooded hex');
    if (a.outOfSupply) reasons.push('out of supply');
    if (a.landingTurn) reasons.push('Allied reinforcement on its landing turn');
    return { unitId: a.unitId, factors: a.factors, halvedFor: reasons, counted: reasons.length ? a.factors / 2 : a.factors };
  });
}

/** Checks what makes an attack impossible, before any die. */
export function checkAttack(attack: Attack, side: Side) {
  if (!attack.attackers.some((a) => a.mainAttackForce)) throw new RuleViolation('An attack needs at least one unit in its main attack force (MAF).', RULE.maf);
  const blocked = attack.attackers.find((a) => HEXSIDES[a.hexside ?? 'none'].forbidden);
  if (blocked) {
    throw new RuleViolation(`${blocked.unitId ?? 'An attacker'} can't attack across an impassable hexside: no unit may cross it, nor exert a zone of control across it.`, RULE.impassable);
  }
  if (side === 'german' && attack.attackers.some((a) => a.landingTurn)) throw new RuleViolation('Only Allied reinforcements have a landing turn.', RULE.landing);
  const attackers = attackerFactors(attack, side);
  const attackHalves = attackers.reduce((sum, a) => sum + a.counted * 2, 0);
  const cappedAttack = Math.min(attackHalves, FACTOR_CAP * 2);
  if (cappedAttack === 0) throw new RuleViolation('The attackers have no attack factors.', RULE.factors);
  const defenderFactors = attack.defenders.reduce((sum, d) => sum + d.factors, 0);
  const bdc = HEX_TERRAIN[attack.defenderHex.terrain].bdc;
  const defence = Math.min(defenderFactors + bdc, FACTOR_CAP);
  let base: number | undefined;
  ODDS_COLUMNS.forEach((c, i) => {
    if (c.attack * defence * 2 <= cappedAttack * c.defence) base = i;
  });
  const odds = `${halves(cappedAttack)}:${defence}`;
  if (base === undefined) throw new RuleViolation(`Odds of ${odds} are below 1-3: an attack at less than 1-3 is not allowed.`, RULE.odds);
  return {
    attackers,
    attack: { total: attackHalves / 2, counted: cappedAttack / 2, capped: attackHalves > FACTOR_CAP * 2 },
    defence: { factors: defenderFactors, bdc, total: defenderFactors + bdc, counted: defence, capped: defenderFactors + bdc > FACTOR_CAP },
    odds,
    baseColumn: base,
  };
}

/** Why the attacker's armor advantage does not apply here, if it does not. */
export function armorAdvantageRefusal(attack: Attack): string | undefined {
  const hex = attack.defenderHex;
  if (hex.strongpoint) return 'not into a strongpoint';
  if (hex.fortifiedPosition) return 'not into a fortified position';
  if (!HEX_TERRAIN[hex.terrain].armorAdvantage) return `not into ${hex.terrain}`;
  const maf = attack.attackers.filter((a) => a.mainAttackForce);
  if (maf.some((a) => a.fromFloodedHex)) return 'not when a MAF unit attacks from a flooded hex';
  const across = maf.find((a) => !HEXSIDES[a.hexside ?? 'none'].armorAdvantage);
  if (across) return `not across a ${across.hexside} hexside`;
  return undefined;
}

/** The one left shift for terrain, at most one whatever the reasons, with the reason. */
export function terrainShiftReason(attack: Attack): string | undefined {
  const maf = attack.attackers.filter((a) => a.mainAttackForce);
  if (attack.defenderHex.hilltop) return 'hilltop';
  if (attack.defenderHex.terrain === 'flooded' && !maf.every((a) => a.fromFloodedHex && a.hexside === 'flooded')) return 'flooded hex';
  if (maf.length > 0 && maf.every(isHexsideShift)) return 'every MAF unit attacks across a major river, flooded hexside or causeway, or from a flooded hex';
  return undefined;
}

/** Every claimed shift, right (+) for the attacker and left (−) for the defender, with those refused. */
export function columnShifts(attack: Attack, jabosShift: number): ShiftLine[] {
  const s = attack.shifts ?? {};
  const lines: ShiftLine[] = [];
  const favour = (name: string, value: Favour | undefined) => {
    if (value) lines.push({ shift: `${name} (${value})`, columns: value === 'attacker' ? 1 : -1, applied: true });
  };
  favour('troop quality', s.troopQuality);
  if (s.armorAdvantage === 'attacker') {
    const refusal = armorAdvantageRefusal(attack);
    lines.push({ shift: 'armor advantage (attacker)', columns: 1, applied: !refusal, ...(refusal ? { reason: refusal } : {}) });
  } else favour('armor advantage', s.armorAdvantage);
  favour('Tiger', s.tiger);
  if (s.airSupport) lines.push({ shift: 'offensive air support', columns: s.airSupport, applied: true });
  if (s.naval) lines.push({ shift: 'naval support', columns: 1, applied: true });
  if (s.defenderStrategicMovement) lines.push({ shift: 'defender in strategic movement', columns: 1, applied: true });
  if (s.hq) lines.push({ shift: 'HQ', columns: s.hq, applied: true });
  const terrain = terrainShiftReason(attack);
  if (terrain) lines.push({ shift: `terrain: ${terrain}`, columns: -1, applied: true });
  if (jabosShift) lines.push({ shift: 'Jabos', columns: -jabosShift, applied: true });
  return lines;
}

export const jabosApply = (side: Side, weather: Attack['weather']) => side === 'german' && weather === 'clear';

export interface AttackResult extends CombatEffects {
  code: CombatCode;
  column: string;
}

/**
 * Resolves an attack: every rule is checked, then (German attacks in clear weather)
 * the Jabos die, then the combat die. Shared by ResolveAttack and the `combat` procedure.
 */
export function resolveAttack(attack: Attack, side: Side, dice: DiceSource) {
  const checked = checkAttack(attack, side);
  let jabos: { die: number; shift: number } | undefined;
  if (jabosApply(side, attack.weather)) {
    const die = dice.roll(6);
    jabos = { die, shift: JABOS_SHIFTS[die - 1] };
  }
  const shifts = columnShifts(attack, jabos?.shift ?? 0);
  const net = shifts.filter((l) => l.applied).reduce((sum, l) => sum + l.columns, 0);
  const unclamped = checked.baseColumn + net;
  const column = Math.max(0, Math.min(LAST_COLUMN, unclamped));
  const die = dice.roll(6);
  const code = COMBAT_RESULTS_TABLE[die - 1][column];
  const defenderSteps = attack.defenders.reduce((sum, d) => sum + d.steps, 0);
  const effects = combatEffects(code, defenderSteps);
  return {
    result: { code, column: ODDS_COLUMNS[column].label, ...effects } satisfies AttackResult,
    breakdown: {
      attackerSide: side,
      attackers: checked.attackers,
      attack: checked.attack,
      defence: checked.defence,
      odds: checked.odds,
      baseColumn: ODDS_COLUMNS[checked.baseColumn].label,
      shifts,
      netShift: net,
      shiftsLost: unclamped - column,
      column: ODDS_COLUMNS[column].label,
      ...(jabos ? { jabos } : {}),
      die,
      code,
      defenderSteps,
      effects,
    },
  };
}
