/** The words of the game the other modules share: sides, unit kinds, weather (no imports, so that any module may use them). */
export const SIDES = ['allied', 'axis'] as const;
export type Side = (typeof SIDES)[number];
export const KINDS = ['infantry', 'mechanized', 'armored', 'artillery', 'commander', 'ship', 'air', 'heavy-bomber', 'other'] as const;
export type Kind = (typeof KINDS)[number];
export const WEATHER = ['sunny', 'overcast', 'rain', 'storm'] as const;
export type Weather = (typeof WEATHER)[number];
