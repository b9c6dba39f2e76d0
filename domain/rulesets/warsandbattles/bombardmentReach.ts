import { RuleViolation } from '../../errors';
import { RULE } from './rules';
import type { Kind } from './schemas';

/**
 * §7.5.1: "Artillery: their reach is 2 to 3 hexes", "Ships: their reach is 3 to 4 hexes",
 * "Heavy bombers: they can bomb the detected units anywhere on the map". Heavy bombers take no
 * range; the identification level of the bombardment says the target is seen (ruling: a
 * recognized or identified unit has been detected too).
 */
export const REACH: Readonly<Partial<Record<Kind, { min: number; max: number }>>> = {
  artillery: { min: 2, max: 3 },
  ship: { min: 3, max: 4 },
};

export function checkReach(kind: Kind, bombarder: { unitId: string; range?: number | undefined }): void {
  const reach = REACH[kind];
  if (!reach) return;
  const { unitId, range } = bombarder;
  if (range === undefined) {
    throw new RuleViolation(`Give the range from ${unitId} to the bombarded hex: ${kind === 'ship' ? 'a ship' : 'artillery'} bombards at ${reach.min} to ${reach.max} hexes.`, RULE.reach);
  }
  if (range < reach.min || range > reach.max) {
    throw new RuleViolation(`${unitId} is ${range} hex${range === 1 ? '' : 'es'} from the bombarded hex: ${kind === 'ship' ? 'a ship' : 'artillery'} bombards at ${reach.min} to ${reach.max} hexes.`, RULE.reach);
  }
}
