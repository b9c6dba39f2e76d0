import { RuleViolation } from '../../errors';
import { entryOf } from '../idRecord';
import { RULE } from './rules';
import type { WarsAndBattlesState } from './state';

/**
 * §6.3: "following a strategic move, a unit cannot attack". The map is the players': an
 * `Activate` with `strategic: true` records that its units move strategically this turn
 * (UnitsActivated.strategic); the game then refuses their attack until the turn ends.
 */
export function strategicMovers(state: WarsAndBattlesState, unitIds: readonly string[], strategic: boolean | undefined): string[] {
  if (!strategic) return [];
  if (state.rulesVersion < 2) {
    throw new RuleViolation('This game plays rules version 1, which does not record strategic movement: activate the units without "strategic".', RULE.strategicMove);
  }
  return [...unitIds];
}

/** Version 2: refuses a unit that moved strategically this turn; `does` says what it would do ("attack", "support an attack", "bombard"). */
export function refuseStrategicMovers(state: WarsAndBattlesState, unitIds: readonly string[], does: string): void {
  if (state.rulesVersion < 2) return;
  for (const id of unitIds) {
    if (entryOf(state.units, id)?.movedStrategically) {
      throw new RuleViolation(`${id} moved strategically this turn: following a strategic move, a unit cannot ${does} until the next turn.`, RULE.strategicMove);
    }
  }
}
