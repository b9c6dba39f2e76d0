import { describe, expect, it } from 'vitest';
import { dieFigures, grouped, verdictWords } from '../../../domain/stats/dieFigures';
import { wilsonInterval } from '../../../domain/stats/wilson';

describe('the Wilson score interval', () => {
  it('gives the textbook 95% intervals, and stays wide on a small sample', () => {
    const zero = wilsonInterval(0, 10);
    expect(zero.low).toBe(0);
    expect(zero.high).toBeCloseTo(0.2775327998628892, 12);
    const half = wilsonInterval(5, 10);
    expect([half.low, half.high].map((v) => v.toFixed(12))).toEqual([0.236593090512564, 0.7634069094874361].map((v) => v.toFixed(12)));
    const fewer = wilsonInterval(5, 60);
    expect(fewer.low).toBeCloseTo(0.03612045660173077, 12);
    expect(fewer.high).toBeCloseTo(0.1806894201833441, 12);
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });
});

describe('the figures of one die size, cell by cell', () => {
  it('a d6 rolled 60 times: counts against 10 expected, χ² 5.8 on 5 df, about 1 game in 3', () => {
    const figures = dieFigures([15, 5, 10, 10, 12, 8]);
    expect(figures.sides).toBe(6);
    expect(figures.rolls).toBe(60);
    expect(figures.faces.map((f) => [f.face, f.count, f.expected])).toEqual([
      [1, 15, 10],
      [2, 5, 10],
      [3, 10, 10],
      [4, 10, 10],
      [5, 12, 10],
      [6, 8, 10],
    ]);
    expect(figures.faces[0].share).toBe(0.25);
    expect(figures.faces[0].low).toBeCloseTo(0.15776522530056675, 12);
    expect(figures.faces[0].high).toBeCloseTo(0.37232070077047824, 12);
    expect(figures.faces[1].low).toBeCloseTo(0.03612045660173077, 12);
    expect(figures.faces.every((f) => f.fairInside)).toBe(true);
    expect(figures.chiSquare).toBeCloseTo(5.8, 12);
    expect(figures.degreesOfFreedom).toBe(5);
    expect(figures.pValue).toBeCloseTo(0.3261688136935726, 12);
    expect(figures.verdict).toBe('nothing_unusual');
    expect(figures.words).toBe('nothing unusual: about 1 game in 3 looks at least this uneven by chance');
  });

  it('a coin-like d2 at 30 to 10: χ² 10, unusual but it happens, and face 2 outside its range', () => {
    const figures = dieFigures([30, 10]);
    expect(figures.chiSquare).toBe(10);
    expect(figures.pValue).toBeCloseTo(0.0015654022580025488, 12);
    expect(figures.verdict).toBe('unusual');
    expect(figures.words).toMatch(/^unusual, but it happens: about 1 game in 639 looks at least this uneven by chance/);
    expect(figures.faces.map((f) => f.fairInside)).toEqual([false, false]);
  });

  it('perfectly even dice: χ² 0, p 1, and no "1 game in 1"', () => {
    const figures = dieFigures([10, 10, 10, 10, 10, 10]);
    expect([figures.chiSquare, figures.pValue]).toEqual([0, 1]);
    expect(figures.words).toBe('nothing unusual: about half of fair games or more look at least this uneven by chance');
  });

  it('very uneven dice say so, and point at the verifier', () => {
    const figures = dieFigures([100, 0, 0, 0, 0, 0]);
    expect(figures.verdict).toBe('very_unusual');
    expect(figures.words).toMatch(/^very uneven: fewer than 1 fair game in 1,000 looks this uneven by chance \(less than 1 in a billion\); the verifier/);
  });

  it('small samples say so, and give no p-value to be misread', () => {
    const figures = dieFigures([3, 0, 1, 0, 2, 0]);
    expect(figures.rolls).toBe(6);
    expect([figures.chiSquare, figures.pValue, figures.verdict]).toEqual([null, null, 'too_few']);
    expect(figures.words).toBe('too few dice to tell: 6 rolls of d6 (a fair test needs at least 30, 5 for each face); small samples look uneven all the time');
    // 29 rolls of a d6 is still too few; 30 is enough.
    expect(dieFigures([5, 5, 5, 5, 5, 4]).verdict).toBe('too_few');
    expect(dieFigures([5, 5, 5, 5, 5, 5]).verdict).toBe('nothing_unusual');
    expect(dieFigures([0, 0]).verdict).toBe('no_rolls');
  });

  it('names what is compared, and groups its thousands', () => {
    expect(verdictWords(6, 600, 0.25, 'sample').words).toBe('nothing unusual: about 1 sample in 4 looks at least this uneven by chance');
    expect(grouped(1234567)).toBe('1,234,567');
    expect(grouped(999)).toBe('999');
  });
});
