import { france44Ruleset } from '../../../../domain/rulesets/france44';
import { harness } from '../../../support/rulesetHarness';

export const { given, apply, refused } = harness(france44Ruleset);

export const declaration = (combatId: string, overrides: Record<string, unknown> = {}) => ({
  combatId,
  kind: 'set-piece',
  attackers: [{ unitId: `${combatId}-a`, hex: '2708', strength: 6 }],
  defenders: [{ unitId: `${combatId}-d`, hex: '2709', strength: 3 }],
  attackerMorale: 3,
  defenderMorale: 3,
  ...overrides,
});
