/** z of a two-sided 95% interval: the 97.5th percentile of the standard normal. */
export const Z_95 = 1.959963984540054;

/**
 * The Wilson score interval of a proportion: `successes` of `trials`. Unlike the plain
 * p ± z·√(p(1−p)/n), it stays inside [0, 1] and stays wide when the sample is small, so a
 * face seen 0 times in 6 rolls is not read as "never comes up".
 */
export function wilsonInterval(successes: number, trials: number, z = Z_95): { low: number; high: number } {
  if (trials <= 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
