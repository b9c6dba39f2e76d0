import type { CombatCode } from './tables';

export type Advance = 'none' | 'normal' | 'limited' | 'normal-or-reserve';

export interface CombatEffects {
  attackerSteps: number;
  defenderSteps: number;
  retreat: 0 | 2 | 4;
  determinedDefenseAllowed: boolean;
  disorganized: boolean;
  advance: Advance;
}

/** What each code does, as the player aid's legend says, before the defender's steps are counted. */
const BASE: Record<CombatCode, CombatEffects> = {
  A1: { attackerSteps: 1, defenderSteps: 0, retreat: 0, determinedDefenseAllowed: false, disorganized: false, advance: 'none' },
  'A1/DR': { attackerSteps: 1, defenderSteps: 0, retreat: 2, determinedDefenseAllowed: true, disorganized: false, advance: 'normal' },
  DR: { attackerSteps: 0, defenderSteps: 0, retreat: 2, determinedDefenseAllowed: true, disorganized: false, advance: 'normal' },
  D1: { attackerSteps: 0, defenderSteps: 1, retreat: 2, determinedDefenseAllowed: true, disorganized: false, advance: 'normal' },
  'A1/D1': { attackerSteps: 1, defenderSteps: 1, retreat: 2, determinedDefenseAllowed: true, disorganized: false, advance: 'normal' },
  EX: { attackerSteps: 1, defenderSteps: 1, retreat: 0, determinedDefenseAllowed: false, disorganized: false, advance: 'none' },
  'A1/D2': { attackerSteps: 1, defenderSteps: 2, retreat: 4, determinedDefenseAllowed: false, disorganized: true, advance: 'normal-or-reserve' },
  DH: { attackerSteps: 0, defenderSteps: 0, retreat: 4, determinedDefenseAllowed: false, disorganized: true, advance: 'normal-or-reserve' },
};

/** The effects of a code for a defender with `defenderTotalSteps` steps engaged. */
export function combatEffects(code: CombatCode, defenderTotalSteps: number): CombatEffects {
  const effects = { ...BASE[code] };
  if (code === 'DH') effects.defenderSteps = Math.ceil(defenderTotalSteps / 2);
  // A1/D2: the attacker loses nothing when the defender had only one step to lose.
  if (code === 'A1/D2' && defenderTotalSteps <= 1) effects.attackerSteps = 0;
  // EX: a defender with a single step engaged lets the attacker make a limited advance.
  if (code === 'EX' && defenderTotalSteps === 1) effects.advance = 'limited';
  effects.defenderSteps = Math.min(effects.defenderSteps, defenderTotalSteps);
  // Ruling — no survivors: nothing is left to retreat, stand or be disorganized.
  if (effects.defenderSteps >= defenderTotalSteps) {
    effects.retreat = 0;
    effects.determinedDefenseAllowed = false;
    effects.disorganized = false;
  }
  return effects;
}
