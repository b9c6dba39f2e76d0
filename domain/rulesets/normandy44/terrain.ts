/** The terrain chart's combat columns, as data (the movement columns play no part here). */

export type HexTerrain = 'clear' | 'mixed' | 'bocage' | 'woods' | 'village' | 'city' | 'flooded';
export type Hexside = 'none' | 'minor-river' | 'major-river' | 'flooded' | 'runway' | 'cherbourg-perimeter' | 'causeway' | 'impassable';

/** Hex: the defensive combat bonus (BDC) it adds, and whether the attacker's armor advantage may apply. */
export const HEX_TERRAIN: Readonly<Record<HexTerrain, { bdc: number; armorAdvantage: boolean }>> = {
  clear: { bdc: 0, armorAdvantage: true },
  mixed: { bdc: 2, armorAdvantage: true },
  bocage: { bdc: 3, armorAdvantage: true },
  woods: { bdc: 2, armorAdvantage: false },
  village: { bdc: 4, armorAdvantage: true },
  city: { bdc: 5, armorAdvantage: false },
  // Attackers into a flooded hex are halved and shifted one column left (see attackOdds.ts).
  flooded: { bdc: 0, armorAdvantage: false },
};

/**
 * Hexside: whether it halves an attacker across it (`allied`: Allied attackers only),
 * whether it counts toward the one left shift when every MAF unit attacks across it,
 * whether the attacker's armor advantage survives it, and whether attacking across is allowed.
 */
export const HEXSIDES: Readonly<Record<Hexside, { halves: boolean | 'allied'; shiftsLeft: boolean; armorAdvantage: boolean; forbidden: boolean }>> = {
  none: { halves: false, shiftsLeft: false, armorAdvantage: true, forbidden: false },
  'minor-river': { halves: true, shiftsLeft: false, armorAdvantage: true, forbidden: false },
  'major-river': { halves: true, shiftsLeft: true, armorAdvantage: false, forbidden: false },
  flooded: { halves: true, shiftsLeft: true, armorAdvantage: false, forbidden: false },
  runway: { halves: true, shiftsLeft: false, armorAdvantage: true, forbidden: false },
  'cherbourg-perimeter': { halves: 'allied', shiftsLeft: false, armorAdvantage: false, forbidden: false },
  causeway: { halves: true, shiftsLeft: true, armorAdvantage: false, forbidden: false },
  // Ruling: the chart forbids crossing it and any zone of control across it; its "-" combat effect is read as "does not arise".
  impassable: { halves: false, shiftsLeft: false, armorAdvantage: false, forbidden: true },
};
