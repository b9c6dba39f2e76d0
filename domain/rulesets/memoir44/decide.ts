import { RuleViolation } from '../../errors';
import type { Command, DecideContext, DomainEvent } from '../../ruleset';
import { readCardRoll, resolveBattle } from './battle';
import type { Battle } from './schemas';
import type { Memoir44State, Side } from './state';

const RULE = {
  turn: "Memoir '44: only the active side battles, and it passes the turn with EndTurn",
  once: "Memoir '44 d6: a unit may only battle once per turn",
  closeAssault: "Memoir '44 d6: a unit adjacent to an enemy must close assault one of them if it battles",
};

export function decideMemoir44(state: Memoir44State, command: Command, ctx: DecideContext): DomainEvent[] {
  const side = ctx.actor as Side;
  switch (command.type) {
    case 'Battle': {
      const battle = command.payload as Battle;
      activeOnly(state, side, 'battle');
      if (state.battledThisTurn.includes(battle.attacker.unitId)) {
        throw new RuleViolation(`${battle.attacker.unitId} already battled this turn.`, RULE.once);
      }
      const adjacent = battle.adjacentEnemyIds ?? [];
      if (adjacent.length > 0 && (battle.range !== 1 || !adjacent.includes(battle.target.unitId))) {
        throw new RuleViolation(
          `${battle.attacker.unitId} is adjacent to ${adjacent.join(', ')}: it must close assault one of them (range 1), not battle ${battle.target.unitId} at range ${battle.range}.`,
          RULE.closeAssault,
        );
      }
      const { result, breakdown } = resolveBattle(battle, ctx.dice);
      return [
        {
          type: 'BattleFought',
          data: { side, attacker: battle.attacker, target: battle.target, range: battle.range, starsHit: battle.starsHit === true, ...result, breakdown },
        },
      ];
    }
    case 'EndTurn': {
      activeOnly(state, side, 'end it');
      const next: Side = side === 'allies' ? 'axis' : 'allies';
      return [{ type: 'TurnEnded', data: { side, turn: state.turn, next } }];
    }
    case 'CardRoll': {
      const { dice, purpose } = command.payload as { dice: number; purpose: string };
      const { result, breakdown } = readCardRoll(ctx.dice, dice);
      return [{ type: 'CardRolled', data: { purpose, ...breakdown, ...result } }];
    }
    default:
      throw new RuleViolation(`${command.type} is not a Memoir '44 command.`, 'memoir44-d6: commands');
  }
}

function activeOnly(state: Memoir44State, side: Side, action: string): void {
  if (state.activeSide !== side) throw new RuleViolation(`It is the ${state.activeSide} side's turn: only it may ${action}.`, RULE.turn);
}
