import { seededRandom } from '../../../support/seededRandom';

/** Random attacks from a seeded generator, so that every run checks the same cases. */
export function randomAttacks(count: number, seed = 1944) {
  const { next, int, pick, maybe } = seededRandom(seed);
  const hexsides = ['none', 'minor-river', 'major-river', 'flooded', 'runway', 'cherbourg-perimeter', 'causeway', 'impassable'] as const;
  const favour = () => maybe(0.3, () => pick(['attacker', 'defender'] as const));
  return Array.from({ length: count }, () => {
    const attackers = Array.from({ length: int(1, 5) }, () => ({
      factors: int(0, 12),
      mainAttackForce: next() < 0.7,
      ...(next() < 0.5 ? { hexside: next() < 0.97 ? pick(hexsides.slice(0, 7)) : 'impassable' } : {}),
      ...(next() < 0.15 ? { fromFloodedHex: true } : {}),
      ...(next() < 0.15 ? { outOfSupply: true } : {}),
      ...(next() < 0.05 ? { landingTurn: true } : {}),
    }));
    const shifts = Object.fromEntries(
      Object.entries({
        troopQuality: favour(),
        armorAdvantage: favour(),
        tiger: favour(),
        airSupport: maybe(0.3, () => int(0, 2)),
        naval: maybe(0.2, () => true),
        defenderStrategicMovement: maybe(0.1, () => true),
        hq: maybe(0.3, () => int(0, 2)),
      }).filter(([, v]) => v !== undefined),
    );
    const input = {
      attackerSide: pick(['allied', 'german'] as const),
      weather: pick(['clear', 'overcast', 'storm'] as const),
      defenderHex: {
        terrain: pick(['clear', 'mixed', 'bocage', 'woods', 'village', 'city', 'flooded'] as const),
        ...(next() < 0.2 ? { hilltop: true } : {}),
        ...(next() < 0.1 ? { fortifiedPosition: true } : {}),
        ...(next() < 0.1 ? { strongpoint: true } : {}),
      },
      attackers,
      defenders: Array.from({ length: int(1, 3) }, () => ({ factors: int(0, 8), steps: int(1, 4) })),
      shifts,
    };
    return { input, dice: [int(1, 6), int(1, 6)] };
  });
}
