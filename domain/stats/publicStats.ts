import { dieFigures, type DieFigures } from './dieFigures';

/** One die size over every sealed game that counts publicly: the face counts, and how many games added to them. */
export interface DieSizeAggregate {
  sides: number;
  counts: number[];
  games: number;
}

export interface PublicStats {
  dice: { sides: number; games: number; figures: DieFigures }[];
}

/** The public figures, the same computation as a game's: many games together are one sample. */
export function publicStats(aggregates: readonly DieSizeAggregate[]): PublicStats {
  return {
    dice: [...aggregates].sort((a, b) => a.sides - b.sides).map(({ sides, counts, games }) => ({ sides, games, figures: dieFigures(counts, 'sample') })),
  };
}
