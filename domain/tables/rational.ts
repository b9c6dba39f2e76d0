/**
 * Exact rational numbers on BigInt, so that a table compares odds by cross-multiplication
 * and never by floating-point division: 2-3 and 4:6 are equal, 1:3 is not 0.333….
 *
 * A number the caller gives (an attack of 6.5) is read as the decimal it prints as
 * (String(6.5) = "6.5"), which is the number the player wrote; 0.1 is exactly 1/10.
 */
export interface Rational {
  /** numerator, any sign */
  readonly n: bigint;
  /** denominator, always > 0 */
  readonly d: bigint;
}

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function rational(n: bigint, d: bigint = 1n): Rational {
  if (d === 0n) throw new RangeError('a rational with denominator 0');
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d);
  return g > 1n ? { n: n / g, d: d / g } : { n, d };
}

/** A decimal as written ("6.5", "-3", "+2", "1e+21"), or undefined when it is not one. */
export function parseDecimal(text: string): Rational | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponent] = match;
  let n = BigInt(whole + fraction);
  let d = 10n ** BigInt(fraction.length);
  if (exponent !== undefined) {
    const e = Number(exponent);
    if (!Number.isSafeInteger(e) || Math.abs(e) > 400) return undefined;
    if (e >= 0) n *= 10n ** BigInt(e);
    else d *= 10n ** BigInt(-e);
  }
  return rational(sign === '-' ? -n : n, d);
}

/** A finite JavaScript number, exactly as the decimal it prints as. */
export function fromNumber(value: number): Rational {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const parsed = parseDecimal(String(value));
  if (!parsed) throw new RangeError(`cannot read ${value} as a decimal`);
  return parsed;
}

export const compare = (a: Rational, b: Rational): number => {
  const left = a.n * b.d;
  const right = b.n * a.d;
  return left < right ? -1 : left > right ? 1 : 0;
};

export const divide = (a: Rational, b: Rational): Rational => rational(a.n * b.d, a.d * b.n);
export const subtract = (a: Rational, b: Rational): Rational => rational(a.n * b.d - b.n * a.d, a.d * b.d);
export const isWhole = (a: Rational): boolean => a.d === 1n;

function floorDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d !== 0n && n < 0n !== d < 0n ? q - 1n : q;
}

/** The nearest whole number; an exact half goes up (`halfUp`) or down. */
export function roundHalf(a: Rational, halfUp: boolean): bigint {
  const floor = floorDiv(a.n, a.d);
  const twice = 2n * (a.n - floor * a.d); // twice the fractional part, over d
  if (twice > a.d) return floor + 1n;
  if (twice < a.d) return floor;
  return halfUp ? floor + 1n : floor;
}

/**
 * As a player reads it: "6.5", "-2", "0.25"; a fraction without a short decimal
 * ("3.33…" for 10/3) shows `places` decimals and `approximate` is true.
 */
export function showRational(a: Rational, places = 2): { text: string; approximate: boolean } {
  const negative = a.n < 0n;
  const n = negative ? -a.n : a.n;
  const whole = n / a.d;
  let rest = n % a.d;
  let digits = '';
  for (let i = 0; i < 6 && rest !== 0n; i++) {
    rest *= 10n;
    digits += String(rest / a.d);
    rest %= a.d;
  }
  const sign = negative ? '-' : '';
  if (rest === 0n) return { text: `${sign}${whole}${digits ? `.${digits}` : ''}`, approximate: false };
  // Not a short decimal: round to `places`.
  const scale = 10n ** BigInt(places);
  const scaled = roundHalf(rational(n * scale, a.d), true);
  const intPart = scaled / scale;
  const fracPart = String(scaled % scale).padStart(places, '0').replace(/0+$/, '');
  return { text: `${sign}${intPart}${fracPart ? `.${fracPart}` : ''}`, approximate: true };
}
