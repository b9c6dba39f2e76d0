import { RuleViolation } from '../../errors';
import { RULE } from './rules';
import type { Kind, Side } from './schemas';

/** §8.1: a hex holds at most 3 units. */
export const STACKING_LIMIT = 3;

export interface Stacked {
  unitId?: string;
  kind: Kind;
  smallerThanBattalion?: boolean;
}

/** §10.1.1 "Stacking weight": 1 a unit, 0 for commanders and German units smaller than a battalion. */
export const stackingWeight = (side: Side, unit: Stacked): number => (unit.kind === 'commander' || (side === 'axis' && unit.smallerThanBattalion) ? 0 : 1);

/** Refuses a stack heavier than the limit: the units named in one hex are more than it may hold. */
export function checkStack(side: Side, units: readonly Stacked[], where: string): void {
  const weight = units.reduce((s, u) => s + stackingWeight(side, u), 0);
  if (weight <= STACKING_LIMIT) return;
  throw new RuleViolation(
    `${where} holds ${weight} units that count for stacking: a hex holds at most ${STACKING_LIMIT} (commanders and German units smaller than a battalion stack freely).`,
    RULE.stacking,
  );
}

/** The attackers that name their hex, stack by stack (a fight's attackers may come from several hexes). */
export function attackingStacks<T extends Stacked & { hex?: string }>(attackers: readonly T[]): [string, T[]][] {
  const byHex = new Map<string, T[]>();
  for (const unit of attackers) if (unit.hex !== undefined) byHex.set(unit.hex, [...(byHex.get(unit.hex) ?? []), unit]);
  return [...byHex.entries()];
}
