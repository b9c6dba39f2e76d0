import * as z from 'zod';
import { dieFigures } from '../../domain/stats/dieFigures';
import { publicStats } from '../../domain/stats/publicStats';

/** The answers of GET /games/{id}/stats and GET /stats (domain/stats), for the OpenAPI document. */
const FaceFigureShape = z.strictObject({
  face: z.int(),
  count: z.int(),
  expected: z.number().describe('rolls / sides: what a fair die gives on average'),
  share: z.number().describe('count / rolls'),
  low: z.number().describe('the 95% Wilson interval of the share, low end'),
  high: z.number().describe('the 95% Wilson interval of the share, high end'),
  fairInside: z.boolean().describe('whether 1/sides lies inside [low, high]'),
});

export const DieFiguresShape = z.strictObject({
  sides: z.int(),
  rolls: z.int(),
  faces: z.array(FaceFigureShape),
  chiSquare: z.number().nullable().describe("Pearson's χ² against a fair die; null with fewer than 5 rolls per face"),
  degreesOfFreedom: z.int(),
  pValue: z.number().nullable().describe('the chance that fair dice look at least this uneven; null with fewer than 5 rolls per face'),
  verdict: z.enum(['no_rolls', 'too_few', 'nothing_unusual', 'unusual', 'very_unusual']),
  words: z.string().describe('the verdict in plain words (docs/fairness-stats.md)'),
});

export const GameStatsShape = z.strictObject({
  gameId: z.string(),
  publicStats: z.boolean().describe('whether the game counts in GET /stats (its creation did not say "publicStats": false)'),
  dice: z.array(
    z.strictObject({
      sides: z.int(),
      all: DieFiguresShape,
      byRole: z.array(z.strictObject({ role: z.string().describe('the side (or organizer) that sent the commands that rolled'), figures: DieFiguresShape })),
    }),
  ),
});

export const PublicStatsShape = z.strictObject({
  dice: z.array(z.strictObject({ sides: z.int(), games: z.int().describe('the sealed games whose dice of this size are counted'), figures: DieFiguresShape })),
});

const exampleD6 = dieFigures([15, 5, 10, 10, 12, 8]);
export const gameStatsExample = { gameId: 'g-7rT2kQ9xLmN4pW8vYc3Z', publicStats: true, dice: [{ sides: 6, all: exampleD6, byRole: [{ role: 'player1', figures: dieFigures([9, 2, 6, 4, 7, 2]) }, { role: 'player2', figures: dieFigures([6, 3, 4, 6, 5, 6]) }] }] };
export const publicStatsExample = publicStats([{ sides: 6, counts: [1012, 987, 1003, 995, 1021, 982], games: 42 }]);
