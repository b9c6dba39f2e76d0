import { describe, expect, it } from 'vitest';
import { chiSquareTail, logGamma, regularizedGammaP, regularizedGammaQ } from '../../../domain/stats/incompleteGamma';

// Reference values: χ² tables, and scipy.stats.chi2.sf / scipy.special.gammainc(c) to 15 digits.
describe('the regularized incomplete gamma function and the χ² tail', () => {
  it('gives the χ² table values: 3.84 with 1 degree of freedom is p ≈ 0.05, and the df = 5 row', () => {
    expect(chiSquareTail(3.84, 1)).toBeCloseTo(0.05004352124870519, 12);
    expect(chiSquareTail(11.07, 5)).toBeCloseTo(0.050009618622405425, 12);
    expect(chiSquareTail(15.086, 5)).toBeCloseTo(0.010001124762185854, 12);
    expect(chiSquareTail(20.515, 5)).toBeCloseTo(0.0010000024510678572, 12);
    expect(chiSquareTail(1, 5)).toBeCloseTo(0.9625657732472964, 12);
    expect(chiSquareTail(5.8, 5)).toBeCloseTo(0.3261688136935726, 12);
    expect(chiSquareTail(0.001, 1)).toBeCloseTo(0.9747728793699604, 12);
  });

  it('keeps its digits far in the tail and for a d1000 (999 degrees of freedom)', () => {
    expect(chiSquareTail(200, 5) / 2.8406228986415534e-41).toBeCloseTo(1, 9);
    expect(chiSquareTail(40, 3) / 1.065509033425585e-8).toBeCloseTo(1, 9);
    expect(chiSquareTail(1073.64, 999)).toBeCloseTo(0.050005829893926344, 9);
  });

  it('agrees with the closed forms and with scipy on both sides of a + 1', () => {
    for (const x of [0.1, 1, 2.5, 7, 30]) expect(regularizedGammaQ(1, x)).toBeCloseTo(Math.exp(-x), 14);
    for (const c of [0.5, 2, 9]) expect(chiSquareTail(c, 2)).toBeCloseTo(Math.exp(-c / 2), 14);
    expect(regularizedGammaP(3.5, 2)).toBeCloseTo(0.22022259152428406, 13);
    expect(regularizedGammaQ(0.5, 10)).toBeCloseTo(7.744216431044088e-6, 16);
    expect(regularizedGammaP(100, 90)).toBeCloseTo(0.15822098918643007, 11);
    expect(regularizedGammaP(4, 3) + regularizedGammaQ(4, 3)).toBeCloseTo(1, 14);
    expect([regularizedGammaP(2, 0), regularizedGammaQ(2, 0)]).toEqual([0, 1]);
  });

  it('has ln Γ of the factorials', () => {
    expect(logGamma(1)).toBeCloseTo(0, 13);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 13);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 13);
    expect(logGamma(171)).toBeCloseTo(706.5730622457874, 8);
  });

  it('refuses arguments outside its domain rather than answering NaN', () => {
    expect(() => regularizedGammaQ(0, 1)).toThrow(RangeError);
    expect(() => regularizedGammaP(1, -1)).toThrow(RangeError);
    expect(() => regularizedGammaQ(Number.NaN, 1)).toThrow(RangeError);
  });
});
