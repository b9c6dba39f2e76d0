/*
 * An independent implementation of a Memoir '44 d6 battle, written from the rules page
 * (shared rules, memoir44) and nothing else of this project. A test oracle for
 * /rulesets/memoir44-d6/evaluate. `dice` are the values in draw order.
 */
const PER_FIGURE = { infantry: 1, armor: 2, artillery: 2, cavalry: 1, sniper: 1 };
const HIT = {
  infantry: { 1: 4, 2: 5, 3: 6 },
  armor: { 1: 4, 2: 4, 3: 4 },
  artillery: { 1: 4, 2: 4, 3: 5, 4: 5, 5: 6, 6: 6 },
  cavalry: { 1: 5, 2: 6 },
  sniper: { 1: 5, 2: 5, 3: 5, 4: 5, 5: 5 },
};
// [infantry, armor] columns.
const IN = { forest: [1, 2], town: [1, 2], hedgerow: [1, 2], hill: [1, 1], bunker: [1, 2], sandbags: [1, 1] };
const OUT = { town: [0, 2], wire: [1, 0] };
// Rules version 2 (issue 19, docs/rulesets/memoir44.md): figures bounded by unit type (special
// armor 4), and a cavalry target rolls the armor defensive dice.
const MOST_FIGURES = { infantry: 4, armor: 3, artillery: 2, cavalry: 4, sniper: 1 };
const DEFENDS = ['armor', 'cavalry'];

export function oracleBattle({ attacker, target, range, starsHit }, dice) {
  for (const unit of [attacker, target]) {
    if (unit.figures > (unit.type === 'armor' && unit.special ? 4 : MOST_FIGURES[unit.type])) return { refused: 'figures' };
  }
  let need = HIT[attacker.type][range];
  if (need === undefined) return { refused: 'range' };
  if (starsHit && attacker.type !== 'sniper') need -= 1;
  let cut = 0;
  if (attacker.type !== 'artillery' && attacker.type !== 'sniper') {
    const col = attacker.type === 'infantry' ? 0 : 1;
    if (OUT[attacker.terrain]) cut += OUT[attacker.terrain][col];
    const t = target.terrain;
    if (IN[t] && (t !== 'hill' || target.uphill)) cut += IN[t][col];
  }
  const bunkerArtillery = target.type === 'artillery' && target.terrain === 'bunker';
  if (!bunkerArtillery && 6 - cut < need) return { refused: 'impossible' };
  let count = attacker.figures * PER_FIGURE[attacker.type];
  if (attacker.type === 'sniper' || (attacker.type === 'infantry' && attacker.special)) count += 1;
  const rolls = dice.slice(0, count);
  let hits = 0;
  let flags = 0;
  for (const d of rolls) {
    if (bunkerArtillery) {
      if (d === 1 || d === 6) hits++;
    } else {
      if (d - cut >= need) hits++;
      if (d === 1) flags++;
    }
  }
  let cancelled = 0;
  let used = count;
  if (DEFENDS.includes(target.type) && hits > 0) {
    const saves = dice.slice(count, count + target.figures);
    used += target.figures;
    cancelled = Math.min(hits, saves.filter((d) => d >= 5).length);
  }
  const figuresLost = Math.min(hits - cancelled, target.figures);
  return { hits, flags, cancelled, figuresLost, eliminated: figuresLost === target.figures, used };
}
