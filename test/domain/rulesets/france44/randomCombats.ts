import { seededRandom } from '../../../support/seededRandom';

/** Random combat declarations from a seeded generator, so that every run checks the same cases. */
export function randomCombats(count: number, seed = 1944) {
  const { next, int, pick } = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const attackers = Array.from({ length: int(1, 9) }, (_, n) => (next() < 0.15 ? { unitId: `hq${n}`, hq: true, ...(next() < 0.5 ? { strength: int(0, 3) } : {}) } : { unitId: `a${n}`, strength: int(0, 12) }));
    if (attackers.every((a) => a.strength === undefined)) attackers.push({ unitId: 'a', strength: int(1, 9) });
    const defenders = Array.from({ length: int(1, 3) }, (_, n) => ({ unitId: `d${n}`, strength: int(1, 12), ...(next() < 0.3 ? { outOfSupply: true } : {}) }));
    const combat = {
      combatId: `r${i}`,
      kind: pick(['set-piece', 'mobile'] as const),
      attackers,
      defenders,
      attackerMorale: int(1, 6),
      defenderMorale: int(1, 6),
      ...(next() < 0.5 ? { terrainMoraleModifiers: Array.from({ length: int(1, 3) }, () => pick([1, 2] as const)) } : {}),
      ...(next() < 0.5 ? { otherMoraleModifiers: Array.from({ length: int(1, 3) }, (_, n) => ({ source: `m${n}`, value: int(-3, 3) })) } : {}),
      ...(next() < 0.3 ? { airPower: true } : {}),
    };
    return { combat, die: int(1, 6) };
  });
}
