import type { DiceSource } from '../../dice';

/** A unit that may take loss points: its place in the declaration, its combat value in this fight, its LP. */
export interface Candidate {
  unitId?: string;
  value: number;
  lp: number;
}

export interface LossPick {
  /** 1 for the first LP, 2 for the second, … */
  lp: number;
  rule: 'most-powerful' | 'random';
  /** most-powerful: the place in the ranking it aimed at (1 = the most powerful) */
  rank?: number;
  /** random: the die rolled, one face per unit still standing, in ranking order; none when one unit is left */
  die?: { sides: number; value: number };
  unitId?: string;
  /** the unit's place in the declaration (0 = first) */
  index: number;
}

export interface Allocation {
  /** indexes in the declaration, most powerful first */
  ranking: number[];
  picks: LossPick[];
  units: { unitId?: string; index: number; lost: number; lpAfter: number }[];
  /** LP the result called for that no unit was left to take */
  unallocated: number;
}

/**
 * §7.3.4: odd loss points go to the most powerful units in turn (1st LP to the most
 * powerful, 3rd to the second, 5th to the third, … then round again), even ones to a unit
 * drawn by a die among those still standing. Ruling: "most powerful" ranks by the value the
 * unit fights with (attack for attackers, defence for defenders), then by more LP, then by
 * its place in the declaration; a rank whose unit has no LP left passes to the next standing
 * unit in the ranking; no die is rolled when one unit is left.
 */
export function allocateLosses(candidates: readonly Candidate[], losses: number, dice: DiceSource): Allocation {
  const lp = candidates.map((c) => c.lp);
  const ranking = candidates.map((_, i) => i).sort((a, b) => candidates[b].value - candidates[a].value || candidates[b].lp - candidates[a].lp || a - b);
  const picks: LossPick[] = [];
  let unallocated = 0;
  let powerful = 0;
  for (let n = 1; n <= losses; n++) {
    const standing = ranking.filter((i) => lp[i] > 0);
    if (standing.length === 0) {
      unallocated = losses - n + 1;
      break;
    }
    let index: number;
    let pick: Omit<LossPick, 'unitId' | 'index'>;
    if (n % 2 === 1) {
      const rank = powerful % ranking.length;
      powerful += 1;
      index = ranking[rank];
      for (let step = 1; lp[index] === 0; step++) index = ranking[(rank + step) % ranking.length];
      pick = { lp: n, rule: 'most-powerful', rank: rank + 1 };
    } else if (standing.length === 1) {
      index = standing[0];
      pick = { lp: n, rule: 'random' };
    } else {
      const value = dice.roll(standing.length);
      index = standing[value - 1];
      pick = { lp: n, rule: 'random', die: { sides: standing.length, value } };
    }
    lp[index] -= 1;
    const unitId = candidates[index].unitId;
    picks.push({ ...pick, ...(unitId === undefined ? {} : { unitId }), index });
  }
  const units = candidates.map((c, index) => ({ ...(c.unitId === undefined ? {} : { unitId: c.unitId }), index, lost: c.lp - lp[index], lpAfter: lp[index] }));
  return { ranking, picks, units, unallocated };
}
