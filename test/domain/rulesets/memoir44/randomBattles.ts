import { seededRandom } from '../../../support/seededRandom';

/** Random battles from a seeded generator, so that every run checks the same cases. */
export function randomBattles(count: number, seed = 44) {
  const { next, int, pick } = seededRandom(seed);
  const types = ['infantry', 'armor', 'artillery', 'cavalry', 'sniper'] as const;
  const terrains = ['clear', 'forest', 'town', 'hedgerow', 'hill', 'bunker', 'hedgehog', 'sandbags', 'wire'] as const;
  // Unit sizes of rules version 2 (special armor 4); one unit in ten may exceed them, up to the command's 6.
  const sizes = { infantry: 4, armor: 3, artillery: 2, cavalry: 4, sniper: 1 };
  const unit = () => {
    const type = pick(types);
    const special = next() < 0.3;
    const size = type === 'armor' && special ? 4 : sizes[type];
    return {
      type,
      figures: type === 'sniper' ? 1 : next() < 0.9 ? int(1, size) : int(1, 6),
      ...(special ? { special: true } : {}),
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
