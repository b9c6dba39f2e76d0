/*
 * An independent implementation of the Normandy '44 combat procedure and Determined
 * Defense, written from the rules page (shared rules, normandy44) and nothing else of
 * this project: its own halving, caps, shifts, terrain reading and table copies (the
 * CRT laid out by column). A test oracle for /rulesets/normandy44/evaluate.
 */
const COLUMNS = ['1-3', '1-2', '1-1', '2-1', '3-1', '4-1', '5-1', '6-1', '7-1+'];
const RATIO = [1 / 3, 1 / 2, 1, 2, 3, 4, 5, 6, 7];
// By column, die 1..6.
const CRT = {
  '1-3': ['A1', 'A1', 'A1', 'A1', 'A1/DR', 'EX'],
  '1-2': ['A1', 'A1', 'A1', 'A1/DR', 'EX', 'DR'],
  '1-1': ['A1', 'A1', 'A1/DR', 'EX', 'DR', 'DR'],
  '2-1': ['A1', 'A1/DR', 'EX', 'DR', 'DR', 'A1/D1'],
  '3-1': ['A1/DR', 'EX', 'DR', 'DR', 'A1/D1', 'D1'],
  '4-1': ['EX', 'DR', 'DR', 'A1/D1', 'D1', 'D1'],
  '5-1': ['DR', 'DR', 'A1/D1', 'D1', 'D1', 'A1/D2'],
  '6-1': ['DR', 'A1/D1', 'D1', 'D1', 'A1/D2', 'DH'],
  '7-1+': ['A1/D1', 'D1', 'D1', 'A1/D2', 'DH', 'DH'],
};
const BDC = { clear: 0, mixed: 2, bocage: 3, woods: 2, village: 4, city: 5, flooded: 0 };

export function oracleAttack(input, dice) {
  const side = input.attackerSide;
  const maf = input.attackers.filter((a) => a.mainAttackForce);
  if (maf.length === 0) return { refused: 'maf' };
  if (input.attackers.some((a) => a.hexside === 'impassable')) return { refused: 'impassable' };
  if (side === 'german' && input.attackers.some((a) => a.landingTurn)) return { refused: 'landing' };
  let attack = 0;
  for (const a of input.attackers) {
    const h = a.hexside ?? 'none';
    const byHexside = ['minor-river', 'major-river', 'flooded', 'runway', 'causeway'].includes(h) || (h === 'cherbourg-perimeter' && side === 'allied');
    const intoFlood = input.defenderHex.terrain === 'flooded' && !(a.fromFloodedHex && h === 'flooded');
    const halved = !a.mainAttackForce || byHexside || intoFlood || a.outOfSupply || a.landingTurn;
    attack += halved ? a.factors / 2 : a.factors;
  }
  attack = Math.min(attack, 18);
  if (attack === 0) return { refused: 'factors' };
  let defence = BDC[input.defenderHex.terrain];
  for (const d of input.defenders) defence += d.factors;
  defence = Math.min(defence, 18);
  let base = -1;
  for (let i = 0; i < RATIO.length; i++) if (defence === 0 || attack / defence >= RATIO[i] - 1e-9) base = i;
  if (base < 0) return { refused: 'odds' };

  const s = input.shifts ?? {};
  let shift = 0;
  const fav = (v) => (v === 'attacker' ? 1 : v === 'defender' ? -1 : 0);
  shift += fav(s.troopQuality) + fav(s.tiger);
  if (s.armorAdvantage === 'defender') shift -= 1;
  if (s.armorAdvantage === 'attacker') {
    const hex = input.defenderHex;
    const okTerrain = ['clear', 'mixed', 'bocage', 'village'].includes(hex.terrain) && !hex.strongpoint && !hex.fortifiedPosition;
    const okUnits = maf.every((a) => !a.fromFloodedHex && ['none', 'minor-river', 'runway'].includes(a.hexside ?? 'none'));
    if (okTerrain && okUnits) shift += 1;
  }
  shift += (s.airSupport ?? 0) + (s.naval ? 1 : 0) + (s.defenderStrategicMovement ? 1 : 0) + (s.hq ?? 0);
  const hill = input.defenderHex.hilltop;
  const flood = input.defenderHex.terrain === 'flooded' && !maf.every((a) => a.fromFloodedHex && a.hexside === 'flooded');
  const across = maf.every((a) => ['major-river', 'flooded', 'causeway'].includes(a.hexside ?? 'none') || a.fromFloodedHex);
  if (hill || flood || across) shift -= 1;
  let next = 0;
  let jabos;
  if (side === 'german' && input.weather === 'clear') {
    jabos = dice[next++];
    shift -= [0, 0, 0, 1, 2, 3][jabos - 1];
  }
  const column = Math.max(0, Math.min(8, base + shift));
  const die = dice[next];
  const code = CRT[COLUMNS[column]][die - 1];
  const steps = input.defenders.reduce((t, d) => t + d.steps, 0);

  let attackerSteps = ['A1', 'A1/DR', 'A1/D1', 'EX', 'A1/D2'].includes(code) ? 1 : 0;
  let defenderSteps = { D1: 1, 'A1/D1': 1, EX: 1, 'A1/D2': 2, DH: Math.ceil(steps / 2) }[code] ?? 0;
  let retreat = { 'A1/DR': 2, DR: 2, D1: 2, 'A1/D1': 2, 'A1/D2': 4, DH: 4 }[code] ?? 0;
  let dd = ['A1/DR', 'DR', 'D1', 'A1/D1'].includes(code);
  let disorganized = code === 'A1/D2' || code === 'DH';
  let advance = code === 'A1' || code === 'EX' ? 'none' : code === 'A1/D2' || code === 'DH' ? 'normal-or-reserve' : 'normal';
  if (code === 'A1/D2' && steps === 1) attackerSteps = 0;
  if (code === 'EX' && steps === 1) advance = 'limited';
  if (defenderSteps > steps) defenderSteps = steps;
  if (defenderSteps === steps) {
    retreat = 0;
    dd = false;
    disorganized = false;
  }
  return { code, column: COLUMNS[column], attackerSteps, defenderSteps, retreat, determinedDefenseAllowed: dd, disorganized, advance, dice: next + 1 };
}

const DD = {
  'flooded-clear': ['-', '-', '-', '-', '-1', '●EX', '●PA'],
  other: ['-', '-', '-', '-', '●-1', '●EX', '●PA'],
  'fortified-position': ['-', '-', '-', '●-1', '●EX', '●PA*', '●PA'],
  'strongpoint-city': ['-', '-', '●-1', '●EX', '●EX', '●PA', '●PA'],
};

export function oracleDeterminedDefense(input, die) {
  const h = input.defenderHex;
  const column = h.strongpoint || h.terrain === 'city' ? 'strongpoint-city' : h.fortifiedPosition ? 'fortified-position' : h.terrain === 'clear' || h.terrain === 'flooded' ? 'flooded-clear' : 'other';
  const total = die + (input.troopQuality ?? input.armorComparison ?? 0) + (input.defensiveSupport ? 1 : 0);
  const code = DD[column][Math.min(7, Math.max(1, total)) - 1];
  return {
    code,
    retreatCancelled: code[0] === '●',
    leadUnitSteps: code.includes('-1') || code.includes('EX') ? 1 : 0,
    attackerMafSteps: code.includes('EX') ? 1 : 0,
    attackerAnySteps: code.includes('PA') ? 1 : 0,
    fortifiedPositionEliminated: code.includes('*'),
  };
}
