/** A player-chosen name of exactly 64 characters (the longest a name may be), unique by `prefix` and `n`. */
export const longName = (prefix: string, n: number) => `${prefix} ${String(n).padStart(4, '0')} `.padEnd(64, 'x');

/**
 * An AA fire of rule 37L at the size its schema allows: 60 AA units in the target hex, 60 air
 * units, every name 64 characters (about 16 KB of payload, a commit of about 48 KB). Only the
 * first AA unit has strength, so that it resolves on a table whose columns clamp.
 */
export const largeFire = (n: number, units = 60) => ({
  fireId: longName(`fire ${n}`, n),
  hex: longName('target', n),
  mission: 'ground-support',
  date: 'Jun II 44',
  nationality: 'german',
  germanOrAlliedShift: true,
  aa: Array.from({ length: units }, (_, i) => ({ unitId: longName(`flak ${n}`, i), aa: i === 0 ? 11 : 0, naval: false, cargo: false, light: false })),
  airUnits: Array.from({ length: units }, (_, i) => ({ unitId: longName(`P-47 ${n}`, i), type: 'F', df: 9, codeT: false, mission: 'ground-support', dedicated: true })),
});
