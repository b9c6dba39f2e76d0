import { Forbidden, RuleViolation } from '../../errors';
import { notACommand } from '../../defineRuleset';
import type { DecideContext } from '../../ruleset';
import { entryOf } from '../idRecord';
import { checkAttack, resolveAttack, type Side } from './attackResolution';
import { rollDeterminedDefense, rollIsolation, rollStrafing } from './otherRolls';
import type { Normandy44Event } from './events';
import type { Normandy44Command } from './commands';
import type { PurchaseReinforcements } from './schemas';
import type { Normandy44State } from './state';
import { ODDS_COLUMNS, REINFORCEMENT_COSTS } from './tables';

const RULE = {
  turns: "Normandy '44: game turns follow one another (StartTurn)",
  attacks: "Normandy '44: an attack is declared once and resolved once, by its attacker",
  dd: "Normandy '44 (12.4): Determined Defense follows A1/DR, DR, D1 or A1/D1 only, once, at the defender's choice",
  reinforcements: "Normandy '44 (6.5): Allied reinforcement points of the turn",
  mulberry: "Normandy '44 (6.5): supply points only once that army's Mulberry is built",
};

export function decideNormandy44(state: Normandy44State, command: Normandy44Command, ctx: DecideContext): Normandy44Event[] {
  // Who may send each command lets only the two sides through (index.ts).
  const side = ctx.actor as Side;
  switch (command.type) {
    case 'StartTurn': {
      const p = command.payload;
      if (p.turn !== state.turn + 1) throw new RuleViolation(`The next game turn is turn ${state.turn + 1}, not turn ${p.turn}.`, RULE.turns);
      // Ruling: unspent reinforcement points are lost at the next StartTurn.
      return [{ type: 'TurnStarted', data: { turn: p.turn, reinforcementPoints: p.reinforcementPoints ?? 0, forfeited: state.reinforcementPoints } }];
    }
    case 'DeclareAttack': {
      const declaration = command.payload;
      if (state.attackIds.includes(declaration.attackId)) throw new RuleViolation(`Attack ${declaration.attackId} was already declared.`, RULE.attacks);
      const checked = checkAttack(declaration, side);
      return [{ type: 'AttackDeclared', data: { attackId: declaration.attackId, attacker: side, declaration, odds: checked.odds, baseColumn: ODDS_COLUMNS[checked.baseColumn].label } }];
    }
    case 'ResolveAttack': {
      const p = command.payload;
      const attack = openAttack(state, p.attackId);
      if (attack.attacker !== side) throw new RuleViolation(`Attack ${p.attackId} is the ${attack.attacker} side's to resolve.`, RULE.attacks);
      if (attack.resolved) throw new RuleViolation(`Attack ${p.attackId} was already resolved.`, RULE.attacks);
      const { result, breakdown } = resolveAttack(attack.declaration, side, ctx.dice);
      return [{ type: 'AttackResolved', data: { attackId: p.attackId, ...result, breakdown } }];
    }
    case 'DeclineDeterminedDefense': {
      const { attackId } = command.payload;
      determinedDefenseOpen(state, attackId, side);
      return [{ type: 'DeterminedDefenseDeclined', data: { attackId } }];
    }
    case 'DeterminedDefense': {
      const p = command.payload;
      const attack = determinedDefenseOpen(state, p.attackId, side);
      if (!attack.declaration.defenders.some((d) => d.unitId === p.leadUnitId)) {
        throw new RuleViolation(`${p.leadUnitId} is not one of the defenders of attack ${p.attackId}.`, RULE.dd);
      }
      const { result, breakdown } = rollDeterminedDefense({ defenderHex: attack.declaration.defenderHex, ...p }, ctx.dice);
      return [{ type: 'DeterminedDefenseRolled', data: { attackId: p.attackId, leadUnitId: p.leadUnitId, ...result, ...breakdown } }];
    }
    case 'Strafe': {
      const p = command.payload;
      const { result, breakdown } = rollStrafing(p, ctx.dice);
      return [{ type: 'StrafingResolved', data: { targetUnitId: p.targetUnitId, ...result, ...breakdown } }];
    }
    case 'IsolationAttrition': {
      const p = command.payload;
      const { result, breakdown } = rollIsolation(p, ctx.dice);
      return [{ type: 'IsolationAttritionResolved', data: { side, unitId: p.unitId, ...result, ...breakdown } }];
    }
    case 'PurchaseReinforcements':
      return [purchase(state, command.payload)];
    case 'MulberryBuilt': {
      const { army } = command.payload;
      if (state.mulberries.includes(army)) throw new RuleViolation(`The ${army} Mulberry is already built.`, RULE.mulberry);
      return [{ type: 'MulberryBuilt', data: { army } }];
    }
    default:
      return notACommand(command, "Normandy '44", 'normandy44: commands');
  }
}

function openAttack(state: Normandy44State, attackId: string) {
  const attack = entryOf(state.open, attackId);
  if (!attack) {
    const reason = state.attackIds.includes(attackId) ? 'is settled' : 'was not declared';
    throw new RuleViolation(`Attack ${attackId} ${reason}.`, RULE.attacks);
  }
  return attack;
}

function determinedDefenseOpen(state: Normandy44State, attackId: string, side: Side) {
  const attack = entryOf(state.open, attackId);
  if (!attack && state.attackIds.includes(attackId)) {
    throw new RuleViolation(`Determined Defense is no longer open for attack ${attackId}: it was decided, or its result allowed none.`, RULE.dd);
  }
  const open = openAttack(state, attackId);
  if (open.attacker === side) throw new Forbidden(`Determined Defense is the defender's choice: the ${side} side attacked in ${attackId}.`);
  if (!open.resolved) throw new RuleViolation(`Attack ${attackId} is not resolved yet.`, RULE.dd);
  return open;
}

function purchase(state: Normandy44State, { items }: PurchaseReinforcements): Normandy44Event {
  const missing = items.find((i) => i.kind === 'supply-point' && !state.mulberries.includes(i.army!));
  if (missing) throw new RuleViolation(`A supply point for ${missing.army} needs the ${missing.army} Mulberry built first.`, RULE.mulberry);
  const priced = items.map((i) => ({ ...i, cost: REINFORCEMENT_COSTS[i.kind] }));
  const cost = priced.reduce((sum, i) => sum + i.cost, 0);
  if (cost > state.reinforcementPoints) {
    throw new RuleViolation(`These reinforcements cost ${cost} points; ${state.reinforcementPoints} are left this turn.`, RULE.reinforcements);
  }
  return { type: 'ReinforcementsPurchased', data: { items: priced, cost, pointsLeft: state.reinforcementPoints - cost } };
}
