import { RuleViolation } from '../../errors';
import { mutuallyAdjacent, type HexGrid } from './hexGrid';

const AT_MOST_THREE_HEXES =
  'France 1944 Combat Declaration: at most 3 hexes — two attacking hexes against one defending hex, or one attacking hex against one or two defending hexes, all mutually adjacent';

/**
 * Standard Rules Clarifications, Combat Declaration. Skipped when a hex is left out
 * (the `combat` procedure allows it); a declared combat always names its hexes.
 */
export function checkCombatHexes(attackerHexes: readonly (string | undefined)[], defenderHexes: readonly (string | undefined)[], grid: HexGrid): void {
  if ([...attackerHexes, ...defenderHexes].some((h) => h === undefined)) return;
  const attacking = [...new Set(attackerHexes as string[])];
  const defending = [...new Set(defenderHexes as string[])];
  const shared = attacking.find((h) => defending.includes(h));
  if (shared) throw new RuleViolation(`Hex ${shared} can't both attack and defend in one combat.`, AT_MOST_THREE_HEXES);
  const shapeAllowed = (attacking.length === 2 && defending.length === 1) || (attacking.length === 1 && defending.length <= 2);
  if (!shapeAllowed) {
    throw new RuleViolation(
      `This combat involves ${attacking.length} attacking and ${defending.length} defending hexes; a combat may involve two attacking hexes against one defending hex, or one attacking hex against one or two defending hexes.`,
      AT_MOST_THREE_HEXES,
    );
  }
  const all = [...attacking, ...defending];
  if (!mutuallyAdjacent(all, grid)) {
    throw new RuleViolation(`Hexes ${all.join(', ')} are not all adjacent to one another: every hex of a combat must touch every other.`, AT_MOST_THREE_HEXES);
  }
}
