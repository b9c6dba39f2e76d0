import { RuleViolation } from '../../errors';
import { notACommand } from '../../defineRuleset';
import type { DecideContext } from '../../ruleset';
import { readCardRoll, resolveBattle } from './battle';
import type { Memoir44Event } from './events';
import type { Memoir44Command } from './commands';
import type { Battle } from './schemas';
import type { Memoir44State, Side } from './state';
import { OVERRUN_TYPES } from './tables';

const RULE = {
  turn: "Memoir '44: only the active side battles, and it passes the turn with EndTurn",
  once: "Memoir '44 d6: a unit battles once per turn; armor and cavalry may battle once more after taking ground (overrun)",
  takeGround: "Memoir '44: a unit takes ground right after a close assault that eliminated its target or made it retreat",
  closeAssault: "Memoir '44 d6: a unit adjacent to an enemy must close assault one of them if it battles",
};

export function decideMemoir44(state: Memoir44State, command: Memoir44Command, ctx: DecideContext): Memoir44Event[] {
  // Who may send each command lets only the two sides through (index.ts).
  const side = ctx.actor as Side;
  switch (command.type) {
    case 'Battle': {
      const battle = command.payload;
      activeOnly(state, side, 'battle');
      const overrun = state.battledThisTurn.includes(battle.attacker.unitId);
      if (overrun) checkOverrun(state, battle);
      const adjacent = battle.adjacentEnemyIds ?? [];
      if (adjacent.length > 0 && (battle.range !== 1 || !adjacent.includes(battle.target.unitId))) {
        throw new RuleViolation(
          `${battle.attacker.unitId} is adjacent to ${adjacent.join(', ')}: it must close assault one of them (range 1), not battle ${battle.target.unitId} at range ${battle.range}.`,
          RULE.closeAssault,
        );
      }
      const { result, breakdown } = resolveBattle(battle, ctx.dice, state.rulesVersion);
      return [
        {
          type: 'BattleFought',
          // `overrun` only when true: battles recorded before it existed carry no such field.
          data: { side, attacker: battle.attacker, target: battle.target, range: battle.range, starsHit: battle.starsHit === true, ...(overrun ? { overrun: true } : {}), ...result, breakdown },
        },
      ];
    }
    case 'TakeGround': {
      const { unitId } = command.payload;
      activeOnly(state, side, 'take ground');
      return [takeGround(state, side, unitId)];
    }
    case 'EndTurn': {
      activeOnly(state, side, 'end it');
      const next: Side = side === 'allies' ? 'axis' : 'allies';
      return [{ type: 'TurnEnded', data: { side, turn: state.turn, next } }];
    }
    case 'CardRoll': {
      const { dice, purpose } = command.payload;
      const { result, breakdown } = readCardRoll(ctx.dice, dice);
      return [{ type: 'CardRolled', data: { purpose, ...breakdown, ...result } }];
    }
    default:
      return notACommand(command, "Memoir '44", 'memoir44-d6: commands');
  }
}

function activeOnly(state: Memoir44State, side: Side, action: string): void {
  if (state.activeSide !== side) throw new RuleViolation(`It is the ${state.activeSide} side's turn: only it may ${action}.`, RULE.turn);
}

/**
 * A unit's second battle this turn is its overrun: armor or cavalry, straight after it took
 * ground from its own close assault, and once a turn (its overrun is not followed by another).
 */
function checkOverrun(state: Memoir44State, battle: Battle): void {
  const { unitId, type } = battle.attacker;
  const last = state.lastBattle;
  const mayOverrun = last !== null && last.unitId === unitId && last.groundTaken && !last.overrun && OVERRUN_TYPES.includes(last.type);
  if (!mayOverrun) throw new RuleViolation(`${unitId} already battled this turn.`, RULE.once);
  if (type !== last.type) throw new RuleViolation(`${unitId} battled as ${last.type} this turn; it can't overrun as ${type}.`, RULE.once);
}

function takeGround(state: Memoir44State, side: Side, unitId: string): Memoir44Event {
  const last = state.lastBattle;
  if (last === null || last.unitId !== unitId) {
    const why = state.battledThisTurn.includes(unitId) ? 'another battle has been fought since its own' : 'it has not battled this turn';
    throw new RuleViolation(`${unitId} can't take ground: ${why}.`, RULE.takeGround);
  }
  if (last.groundTaken) throw new RuleViolation(`${unitId} already took ground after this battle.`, RULE.takeGround);
  if (!last.emptiedHex) {
    throw new RuleViolation(`${unitId} can't take ground: its battle was not a close assault that eliminated ${last.targetId} or rolled a flag.`, RULE.takeGround);
  }
  const mayOverrun = OVERRUN_TYPES.includes(last.type) && !last.overrun;
  return { type: 'GroundTaken', data: { side, unitId, targetId: last.targetId, mayOverrun } };
}
