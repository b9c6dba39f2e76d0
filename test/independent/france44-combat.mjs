/*
 * An independent implementation of the France 1944 combat procedure, written from the
 * rules page (shared rules, "Resolving a combat") and nothing else of this project:
 * its own odds arithmetic, morale, control and shift code, and its own copy of Table 1
 * laid out by column. Used as a test oracle for /rulesets/france44/evaluate.
 */
const COLUMNS = ['1-4', '1-3', '1-2', '2-3', '1-1', '3-2', '2-1', '3-1', '4-1'];
const RATIOS = [[1, 4], [1, 3], [1, 2], [2, 3], [1, 1], [3, 2], [2, 1], [3, 1], [4, 1]];
// By column, die 1..6, set-piece then mobile letters.
const BY_COLUMN = {
  '1-4': ['AAAAAA', 'AAAAEE'],
  '1-3': ['AAAAAB', 'AAAEEB'],
  '1-2': ['AAAABB', 'AAEEBB'],
  '2-3': ['AAABBB', 'AEEBBB'],
  '1-1': ['AAABBD', 'EEEBBB'],
  '3-2': ['AABBDD', 'EEBBFF'],
  '2-1': ['ABBDDC', 'EBBFFC'],
  '3-1': ['BBDDCC', 'BBFFCC'],
  '4-1': ['BDDCCC', 'DFFCCC'],
};
const CONTROL = { 1: 1, 2: 3, 3: 4, 4: 6, 5: 8, 6: 8 };

export function oracleCombat(input, die, airPowerModifier = -1) {
  // Rules version 2 (issue 19, docs/rulesets/france44.md): 1 to 8 attacking units besides
  // HQs, and no out-of-supply HQ among the attackers.
  const attacking = input.attackers.filter((a) => !a.hq).length;
  if (attacking === 0 || attacking > 8 || input.attackers.some((a) => a.hq && a.outOfSupply)) return { refused: true };
  // Work in quarters of points to stay exact whatever halves appear.
  let attack = 0;
  for (const a of input.attackers) attack += (a.strength ?? 0) * 4;
  let defence = 0;
  for (const d of input.defenders) defence += d.outOfSupply ? d.strength * 2 : d.strength * 4;
  let base = -1;
  for (let i = 0; i < RATIOS.length; i++) if (attack * RATIOS[i][1] >= defence * RATIOS[i][0]) base = i;
  if (base < 0) return { refused: true };
  const terrain = input.terrainMoraleModifiers?.length ? Math.max(...input.terrainMoraleModifiers) : 0;
  let others = 0;
  for (const m of input.otherMoraleModifiers ?? []) others += m.value;
  if (input.airPower) others += airPowerModifier;
  const adjustment = Math.max(-3, Math.min(2, terrain + others));
  const defenderMorale = Math.max(1, Math.min(6, input.defenderMorale + adjustment));
  const units = input.attackers.filter((a) => !a.hq).length;
  const control = Math.min(0, CONTROL[input.attackerMorale] - units);
  const shift = input.attackerMorale - defenderMorale + control;
  let column = base + shift;
  let drm = 0;
  if (column > 8) {
    drm = column - 8;
    column = 8;
  } else if (column < 0) {
    drm = column;
    column = 0;
  }
  const adjusted = Math.max(1, Math.min(6, die + drm));
  const letters = BY_COLUMN[COLUMNS[column]][input.kind === 'set-piece' ? 0 : 1];
  return { code: letters[adjusted - 1], column: COLUMNS[column], dieModifier: drm, adjustedDie: adjusted };
}
