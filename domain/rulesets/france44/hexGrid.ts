/**
 * Hexes are the map's four-digit CCRR numbers: column CC, row RR.
 * Ruling: columns run vertically and odd columns sit half a hex lower than even ones
 * ("odd-q"); the game option hexGrid "even-q" puts even columns lower instead.
 */
export type HexGrid = 'odd-q' | 'even-q';

export interface Hex {
  column: number;
  row: number;
}

export function parseHex(text: string): Hex {
  if (!/^\d{4}$/.test(text)) throw new RangeError(`"${text}" is not a four-digit CCRR hex number`);
  return { column: Number(text.slice(0, 2)), row: Number(text.slice(2)) };
}

/** The six neighbours of a hex, as (column, row). */
export function neighbours({ column, row }: Hex, grid: HexGrid): Hex[] {
  const shiftedDown = grid === 'odd-q' ? column % 2 === 1 : column % 2 === 0;
  // A lowered column meets its side neighbours at its own row and the row below;
  // a raised one at its own row and the row above.
  const sideRows = shiftedDown ? [row, row + 1] : [row - 1, row];
  return [
    { column, row: row - 1 },
    { column, row: row + 1 },
    ...sideRows.flatMap((r) => [
      { column: column - 1, row: r },
      { column: column + 1, row: r },
    ]),
  ];
}

export function areAdjacent(a: string, b: string, grid: HexGrid): boolean {
  const from = parseHex(a);
  const to = parseHex(b);
  return neighbours(from, grid).some((n) => n.column === to.column && n.row === to.row);
}

/** True when every pair of the hexes is adjacent. */
export function mutuallyAdjacent(hexes: readonly string[], grid: HexGrid): boolean {
  return hexes.every((a, i) => hexes.slice(i + 1).every((b) => areAdjacent(a, b, grid)));
}
