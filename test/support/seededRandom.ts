/** A small seeded generator (xorshift32), so that every run checks the same random cases. */
export function seededRandom(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x1_0000_0000;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T,>(items: readonly T[]) => items[int(0, items.length - 1)];
  const maybe = <T,>(p: number, value: () => T) => (next() < p ? value() : undefined);
  return { next, int, pick, maybe };
}
