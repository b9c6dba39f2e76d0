/**
 * §3.2: "When the LP decrease, the State of the unit also decreases." The manual's unit
 * tables (§10.1), which would give each unit's figures, are pictures; its text gives none.
 * Ruling (rules version 2): without the game's own `statusLp`, the four status levels are
 * four equal bands of the unit's maximum LP: level 4 above three quarters of it, level 3
 * above half, level 2 above a quarter, level 1 at a quarter or less (8 LP: 7–8, 5–6, 3–4,
 * 1–2). Quality does not move the bands: the manual gives figures for quality only for
 * fatigue (§8.4.3).
 */
export function equalLpBands(maxLp: number): readonly [number, number, number] {
  const least = (quarters: number) => Math.floor((quarters * maxLp) / 4) + 1;
  return [least(1), least(2), least(3)];
}
