import { seededRandom } from '../../../support/seededRandom';

/** Random battles from a seeded generator, so that every run checks the same cases. */
export function randomBattles(count: number, seed = 44) {
  const { next, int, pick } = seededRandom(seed);
  const types = ['infantry', 'armor', 'artillery', 'cavalry', 'sniper'] as const;
  const terrains = ['clear', 'forest', 'town', 'hedgerow', 'hill', 'bunker', 'hedgehog', 'sandbags', 'wire'] as const;
  const unit = () => {
    const type = pick(types);
    return {
      type,
      figures: type === 'sniper' ? 1 : int(1, 4),
      ...(next() < 0.3 ? { special: true } : {}),
      ...(next() < 0.6 ? { terrain: pick(terrains) } : {}),
    };
  };
  return Array.from({ length: count }, () => ({
    input: {
      attacker: unit(),
      target: { ...unit(), ...(next() < 0.3 ? { uphill: true } : {}) },
      range: int(1, 6),
      ...(next() < 0.25 ? { starsHit: true } : {}),
    },
    dice: Array.from({ length: 16 }, () => int(1, 6)),
  }));
}
