export function oracleCombat(
  input: unknown,
  die: number,
  airPowerModifier?: number,
): { refused: true; code?: undefined } | { refused?: undefined; code: string; column: string; dieModifier: number; adjustedDie: number };
