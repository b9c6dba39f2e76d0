/** A row of a table with dice: the modified rolls it holds. */
export type TableRow = { roll: number } | { from: number; to: number } | { atMost: number } | { atLeast: number };

/** The dice of a table, as read from its `dice` field. */
export type TableDice = { kind: 'sum'; count: number; sides: number } | { kind: 'd66' } | { kind: 'none' };

export const DIE_SIDES = [4, 6, 8, 10, 12, 20, 100] as const;
export const MAX_DICE = 5;
const SUM = /^([1-9])d(\d{1,3})$/;

/** The dice a table names, or undefined for a name it cannot have. */
export function readDice(dice: string): TableDice | undefined {
  if (dice === 'none') return { kind: 'none' };
  if (dice === 'd66') return { kind: 'd66' };
  const match = SUM.exec(dice);
  if (!match) return undefined;
  const count = Number(match[1]);
  const sides = Number(match[2]);
  if (count > MAX_DICE || !(DIE_SIDES as readonly number[]).includes(sides)) return undefined;
  return { kind: 'sum', count, sides };
}

/** Every roll the dice can show, unmodified, in ascending order (d66: 11..16, 21..26, …, 61..66). */
export function naturalRolls(dice: TableDice): number[] {
  switch (dice.kind) {
    case 'none':
      return [];
    case 'd66': {
      const rolls: number[] = [];
      for (let tens = 1; tens <= 6; tens++) for (let units = 1; units <= 6; units++) rolls.push(10 * tens + units);
      return rolls;
    }
    case 'sum':
      return Array.from({ length: dice.count * (dice.sides - 1) + 1 }, (_, i) => dice.count + i);
  }
}

/** True for a number a d66 can show: two digits, each 1 to 6. */
export function isD66Roll(roll: number): boolean {
  const tens = Math.floor(roll / 10);
  const units = roll % 10;
  return Number.isInteger(roll) && tens >= 1 && tens <= 6 && units >= 1 && units <= 6;
}

/** The least and greatest roll a row holds (±Infinity for ≤ and ≥ rows). */
export function rowBounds(row: TableRow): { low: number; high: number } {
  if ('roll' in row) return { low: row.roll, high: row.roll };
  if ('from' in row) return { low: row.from, high: row.to };
  if ('atMost' in row) return { low: -Infinity, high: row.atMost };
  return { low: row.atLeast, high: Infinity };
}

/** "7", "2–4", "≤ 2", "≥ 12". */
export function rowLabel(row: TableRow): string {
  if ('roll' in row) return String(row.roll);
  if ('from' in row) return row.from === row.to ? String(row.from) : `${row.from}–${row.to}`;
  if ('atMost' in row) return `≤ ${row.atMost}`;
  return `≥ ${row.atLeast}`;
}

/** The index of the row holding `roll`, or -1. Rows are ascending (validation), so a binary search. */
export function rowHolding(rows: readonly TableRow[], roll: number): number {
  let low = 0;
  let high = rows.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const bounds = rowBounds(rows[mid]);
    if (roll < bounds.low) high = mid - 1;
    else if (roll > bounds.high) low = mid + 1;
    else return mid;
  }
  return -1;
}

/**
 * The row nearest to a roll that no row holds: off the bottom the first, off the top the
 * last, in a gap between two rows (a d66 table's 17–20) the closer one, the lower on a tie.
 */
export function nearestRow(rows: readonly TableRow[], roll: number): number {
  let best = 0;
  let bestDistance = Infinity;
  rows.forEach((row, index) => {
    const { low, high } = rowBounds(row);
    const distance = roll < low ? low - roll : roll > high ? roll - high : 0;
    if (distance < bestDistance) {
      best = index;
      bestDistance = distance;
    }
  });
  return best;
}
