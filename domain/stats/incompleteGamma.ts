/**
 * The regularized incomplete gamma functions P(a, x) and Q(a, x) = 1 − P(a, x), from which
 * the χ² distribution's tail is read. Series below a + 1, Lentz's continued fraction above
 * (Numerical Recipes §6.2): each converges fast on its side, and each side is computed
 * directly rather than as 1 − the other, so small tails keep their digits.
 */
const EPSILON = 1e-15;
const MAX_TERMS = 10_000;
const TINY = 1e-300;

/** ln Γ(z) for z > 0 (Lanczos, g = 7, n = 9: about 15 significant digits). */
export function logGamma(z: number): number {
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  const x = z - 1;
  let sum = c[0];
  for (let i = 1; i < c.length; i++) sum += c[i] / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
}

function lowerSeries(a: number, x: number): number {
  let term = 1 / a;
  let sum = term;
  for (let n = 1; n < MAX_TERMS; n++) {
    term *= x / (a + n);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPSILON) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
}

function upperFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_TERMS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
}

/** P(a, x) = γ(a, x) / Γ(a), for a > 0 and x ≥ 0. */
export function regularizedGammaP(a: number, x: number): number {
  if (!(a > 0) || !(x >= 0)) throw new RangeError(`P(a, x) needs a > 0 and x >= 0, not a = ${a}, x = ${x}`);
  if (x === 0) return 0;
  return x < a + 1 ? lowerSeries(a, x) : 1 - upperFraction(a, x);
}

/** Q(a, x) = Γ(a, x) / Γ(a) = 1 − P(a, x), for a > 0 and x ≥ 0. */
export function regularizedGammaQ(a: number, x: number): number {
  if (!(a > 0) || !(x >= 0)) throw new RangeError(`Q(a, x) needs a > 0 and x >= 0, not a = ${a}, x = ${x}`);
  if (x === 0) return 1;
  return x < a + 1 ? 1 - lowerSeries(a, x) : upperFraction(a, x);
}

/** The chance that a χ² variable with `df` degrees of freedom is at least `chiSquare`: the test's p-value. */
export function chiSquareTail(chiSquare: number, df: number): number {
  return regularizedGammaQ(df / 2, chiSquare / 2);
}
