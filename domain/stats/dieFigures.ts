import { chiSquareTail } from './incompleteGamma';
import { wilsonInterval } from './wilson';

/** A χ² test is trusted when every face expects at least this many rolls (the usual rule of thumb). */
export const MIN_EXPECTED_PER_FACE = 5;

export interface FaceFigure {
  face: number;
  count: number;
  /** rolls / sides: what a fair die gives on average. */
  expected: number;
  /** count / rolls. */
  share: number;
  /** The 95% Wilson interval of the face's share: where its true share plausibly lies, given this many rolls. */
  low: number;
  high: number;
  /** Whether 1/sides lies inside [low, high]. */
  fairInside: boolean;
}

export type Verdict = 'no_rolls' | 'too_few' | 'nothing_unusual' | 'unusual' | 'very_unusual';

/** The figures of one die size: counts per face against expectation, the χ² test and its plain words. */
export interface DieFigures {
  sides: number;
  rolls: number;
  faces: FaceFigure[];
  /** Pearson's χ² against a fair die; null with too few rolls to trust it. */
  chiSquare: number | null;
  degreesOfFreedom: number;
  /** The chance that fair dice look at least this uneven; null with too few rolls. */
  pValue: number | null;
  verdict: Verdict;
  words: string;
}

/** 12345 → "12,345", the same on every platform. */
export function grouped(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `noun` names what is compared: "game" for one game's dice, "sample" for many games' together. */
export function verdictWords(sides: number, rolls: number, pValue: number | null, noun = 'game'): { verdict: Verdict; words: string } {
  if (rolls === 0) return { verdict: 'no_rolls', words: `no d${sides} rolled` };
  if (pValue === null) {
    return {
      verdict: 'too_few',
      words: `too few dice to tell: ${grouped(rolls)} rolls of d${sides} (a fair test needs at least ${grouped(MIN_EXPECTED_PER_FACE * sides)}, ${MIN_EXPECTED_PER_FACE} for each face); small samples look uneven all the time`,
    };
  }
  const oneIn = pValue > 0 ? Math.round(1 / pValue) : Infinity;
  if (pValue >= 0.05) {
    const howOften = oneIn <= 2 ? `about half of fair ${noun}s or more look at least this uneven by chance` : `about 1 ${noun} in ${grouped(oneIn)} looks at least this uneven by chance`;
    return { verdict: 'nothing_unusual', words: `nothing unusual: ${howOften}` };
  }
  if (pValue >= 0.001) {
    return {
      verdict: 'unusual',
      words: `unusual, but it happens: about 1 ${noun} in ${grouped(oneIn)} looks at least this uneven by chance, and with several die sizes and sides looked at, one of them often does`,
    };
  }
  const rarity = oneIn <= 1e9 ? `about 1 in ${grouped(oneIn)}` : 'less than 1 in a billion';
  return {
    verdict: 'very_unusual',
    words: `very uneven: fewer than 1 fair ${noun} in 1,000 looks this uneven by chance (${rarity}); the verifier re-draws every die from the sealed seed, so whether they were drawn as promised can be checked`,
  };
}

/** The figures of `counts` (counts[i] is how often face i + 1 came up) of a die with `counts.length` sides. */
export function dieFigures(counts: readonly number[], noun = 'game'): DieFigures {
  const sides = counts.length;
  const rolls = counts.reduce((sum, n) => sum + n, 0);
  const expected = rolls / sides;
  const faces = counts.map((count, i): FaceFigure => {
    const { low, high } = wilsonInterval(count, rolls);
    const fair = 1 / sides;
    return { face: i + 1, count, expected, share: rolls > 0 ? count / rolls : 0, low, high, fairInside: rolls === 0 || (low <= fair && fair <= high) };
  });
  const enough = rolls > 0 && expected >= MIN_EXPECTED_PER_FACE;
  const chiSquare = enough ? counts.reduce((sum, n) => sum + ((n - expected) * (n - expected)) / expected, 0) : null;
  const pValue = chiSquare === null ? null : chiSquareTail(chiSquare, sides - 1);
  return { sides, rolls, faces, chiSquare, degreesOfFreedom: sides - 1, pValue, ...verdictWords(sides, rolls, pValue, noun) };
}
