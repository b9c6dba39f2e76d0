import type { Attack, Attacker } from '../../../../domain/rulesets/normandy44/attackResolution';
import { normandy44Ruleset } from '../../../../domain/rulesets/normandy44';
import { harness } from '../../../support/rulesetHarness';

export const { given, apply, refused } = harness(normandy44Ruleset);

/** An attacker of the main attack force. */
export const maf = (factors: number, extra: Partial<Attacker> = {}): Attacker => ({ factors, mainAttackForce: true, ...extra });

/** An attack as the resolution reads it: 6 against 3 in clear, overcast weather, unless changed. */
export const attack = (over: Partial<Attack> = {}): Attack => ({ weather: 'overcast', defenderHex: { terrain: 'clear' }, attackers: [maf(6)], defenders: [{ factors: 3, steps: 2 }], ...over });

/** A DeclareAttack payload: 12 against 3 (4-1) in clear, overcast weather, unless changed. */
export const declaration = (attackId: string, extra: Record<string, unknown> = {}) => ({
  attackId,
  weather: 'overcast',
  defenderHex: { terrain: 'clear' },
  attackers: [{ unitId: `${attackId}-a`, factors: 12, mainAttackForce: true }],
  defenders: [{ unitId: `${attackId}-d`, factors: 3, steps: 3 }],
  ...extra,
});
