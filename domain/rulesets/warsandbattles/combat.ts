import type { DiceSource } from '../../dice';
import { RuleViolation } from '../../errors';
import { landOnTable, type Modifier, type TableDefinition, type TableLanding } from '../../tables';
import { checkCovered, effectTotal, resolveCovered, type CoveredResolution } from './coverage';
import { RULE } from './rules';
import { cherbourgShifts, clearTerrainShifts, tigerShifts } from './fightBonuses';
import type { Fight, Fighter } from './fight';
import type { Commander, TerrainEntry } from './schemas';
import { attackingStacks, checkStack } from './stacking';

export type { Fight, Fighter } from './fight';

export interface FightData {
  combatTable: TableDefinition;
  supportTable: TableDefinition;
  terrain: readonly TerrainEntry[];
  commanders: readonly Commander[];
}

export const MAX_SUPPORT_UNITS = 3;

/** Steps 2 and 3 of §7.3.1, no dice: the values, the C shifts and L modifiers, the support bonus and where the fight lands. */
export interface FightAssessment {
  attack: number;
  defence: number;
  /** C: column shifts, + towards the attacker */
  shifts: Modifier[];
  /** L: added to the attacker's 2d6 */
  modifiers: Modifier[];
  support: { points: number; bonus: number; lookup: CoveredResolution | null };
  landing: TableLanding;
}

function terrainShift(data: FightData, name: string, what: string): number {
  const entry = data.terrain.find((t) => t.terrain === name);
  if (!entry) {
    const known = data.terrain.length ? data.terrain.map((t) => JSON.stringify(t.terrain)).join(', ') : 'none';
    throw new RuleViolation(`The terrain table has no ${JSON.stringify(name)} (${what}); its terrain: ${known}.`, RULE.terrain);
  }
  return entry.c;
}

function commanderOf(data: FightData, name: string): Commander {
  const entry = data.commanders.find((c) => c.commander === name);
  if (!entry) throw new RuleViolation(`The commanders table has no ${JSON.stringify(name)}.`, RULE.units);
  return entry;
}

/** Tanks and infantry stacked together: in one hex among the attackers, or in the defending stack. */
const combinedArms = (units: readonly Fighter[]) => units.some((u) => u.kind === 'armored') && units.some((u) => u.kind === 'infantry');

function stacks(units: readonly Fighter[]): Fighter[][] {
  const byHex = new Map<string, Fighter[]>();
  for (const unit of units) byHex.set(unit.hex ?? '', [...(byHex.get(unit.hex ?? '') ?? []), unit]);
  return [...byHex.values()];
}

/** Every C and L modifier of §7.4, cumulative, each with its source. */
export function fightModifiers(fight: Fight, data: FightData): { shifts: Modifier[]; modifiers: Modifier[] } {
  const shifts: Modifier[] = [];
  const modifiers: Modifier[] = [];
  if (fight.divisionalIntegrity.attacker) shifts.push({ source: 'divisional integrity (attacker)', value: 1 });
  if (fight.divisionalIntegrity.defender) shifts.push({ source: 'divisional integrity (defender)', value: -1 });
  if (stacks(fight.attackers).some(combinedArms)) shifts.push({ source: 'combined arms (attacker)', value: 1 });
  if (combinedArms(fight.defenders)) shifts.push({ source: 'combined arms (defender)', value: -1 });
  shifts.push({ source: `terrain: ${fight.terrain}`, value: -terrainShift(data, fight.terrain, 'the attacked hex') });
  for (const name of fight.across) shifts.push({ source: `across: ${name}`, value: -terrainShift(data, name, 'crossed by the attack') });
  for (const unit of fight.attackers) {
    if (!unit.commander) continue;
    const { attack } = commanderOf(data, unit.commander);
    if (attack.c) shifts.push({ source: `commander ${unit.commander} (attacker)`, value: attack.c });
    if (attack.l) modifiers.push({ source: `commander ${unit.commander} (attacker)`, value: attack.l });
  }
  for (const unit of fight.defenders) {
    if (!unit.commander) continue;
    const { defence } = commanderOf(data, unit.commander);
    if (defence.c) shifts.push({ source: `commander ${unit.commander} (defender)`, value: -defence.c });
    if (defence.l) modifiers.push({ source: `commander ${unit.commander} (defender)`, value: -defence.l });
  }
  shifts.push(...tigerShifts(fight), ...cherbourgShifts(fight), ...clearTerrainShifts(fight));
  return { shifts, modifiers };
}

/** §7.4.4: the support points of at most 3 units, through the support table, give the L bonus. */
export function supportBonus(support: Fight['support'], table: TableDefinition, dice: DiceSource) {
  if (support.length > MAX_SUPPORT_UNITS) {
    throw new RuleViolation(`A fight takes at most ${MAX_SUPPORT_UNITS} support units; this one has ${support.length}.`, RULE.supports);
  }
  const points = support.reduce((s, u) => s + u.points, 0);
  if (points === 0) return { points, bonus: 0, lookup: null };
  const lookup = resolveCovered(table, { value: points }, dice);
  return { points, bonus: effectTotal(lookup, 'modifier'), lookup };
}

/** Step 1 (§7.3.1), version 2: the defending stack, and each attacking stack that names its hex, within the stacking limit (§8.1). */
export function checkStacking(fight: Fight): void {
  if ((fight.rulesVersion ?? 1) < 2) return;
  const defenderSide = fight.attackerSide === 'allied' ? 'axis' : 'allied';
  checkStack(defenderSide, fight.defenders, 'The attacked hex');
  for (const [hex, stack] of attackingStacks(fight.attackers)) checkStack(fight.attackerSide, stack, `Hex ${hex}`);
}

/** Steps 2–3 (§7.3.1): refuses what the rules or the tables refuse, before any die. */
export function assessFight(fight: Fight, data: FightData, dice: DiceSource): FightAssessment {
  checkStacking(fight);
  const attack = fight.attackers.reduce((s, u) => s + u.value, 0);
  const defence = fight.defenders.reduce((s, u) => s + u.value, 0);
  if (attack <= 0) throw new RuleViolation('The attacking units have no attack value: there is no ratio to read.', RULE.strengths);
  if (defence <= 0) throw new RuleViolation('The defending units have no defence value: there is no ratio to read (ruling: such a fight is not resolved on the table).', RULE.strengths);
  const { shifts, modifiers } = fightModifiers(fight, data);
  // The support table has no dice: the lookup draws none.
  const support = supportBonus(fight.support, data.supportTable, dice);
  if (support.bonus) modifiers.push({ source: `support (${support.points} points)`, value: support.bonus });
  const input = { attack, defence, shifts, modifiers };
  const landing = landOnTable(data.combatTable, input);
  checkCovered(data.combatTable, input);
  return { attack, defence, shifts, modifiers, support, landing };
}

export interface FightResult {
  resolution: CoveredResolution;
  attackerLoss: number;
  defenderLoss: number;
  retreat: boolean;
}

/** Steps 4–5: the 2d6 plus L on the column, and what the cell says. */
export function rollFight(assessment: Pick<FightAssessment, 'attack' | 'defence' | 'shifts' | 'modifiers'>, table: TableDefinition, dice: DiceSource): FightResult {
  const { attack, defence, shifts, modifiers } = assessment;
  const resolution = resolveCovered(table, { attack, defence, shifts, modifiers }, dice);
  if (resolution.unproven) return { resolution, attackerLoss: 0, defenderLoss: 0, retreat: false };
  return {
    resolution,
    attackerLoss: effectTotal(resolution, 'loss', 'attacker'),
    defenderLoss: effectTotal(resolution, 'loss', 'defender'),
    retreat: effectTotal(resolution, 'retreat', 'defender') > 0,
  };
}
