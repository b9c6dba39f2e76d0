import { describe, expect, it } from 'vitest';
import { areAdjacent, mutuallyAdjacent, neighbours, parseHex } from '../../../../domain/rulesets/france44/hexGrid';

const names = (hexes: { column: number; row: number }[]) =>
  hexes.map((h) => `${String(h.column).padStart(2, '0')}${String(h.row).padStart(2, '0')}`).sort();

describe('CCRR hex adjacency', () => {
  it('reads column and row from a four-digit number', () => {
    expect(parseHex('2708')).toEqual({ column: 27, row: 8 });
    expect(() => parseHex('278')).toThrow(RangeError);
  });

  it('odd-q: an odd column sits lower, so it meets rows r and r+1 of its side columns', () => {
    expect(names(neighbours(parseHex('2708'), 'odd-q'))).toEqual(['2608', '2609', '2707', '2709', '2808', '2809']);
    expect(names(neighbours(parseHex('2808'), 'odd-q'))).toEqual(['2707', '2708', '2807', '2809', '2907', '2908']);
  });

  it('even-q flips which columns sit lower', () => {
    expect(names(neighbours(parseHex('2708'), 'even-q'))).toEqual(['2607', '2608', '2707', '2709', '2807', '2808']);
    expect(names(neighbours(parseHex('2808'), 'even-q'))).toEqual(['2708', '2709', '2807', '2809', '2908', '2909']);
  });

  it('is symmetric on both grids', () => {
    for (const grid of ['odd-q', 'even-q'] as const) {
      for (const a of ['1010', '1011', '1110', '1111', '0101', '3020']) {
        for (const n of names(neighbours(parseHex(a), grid))) expect(areAdjacent(n, a, grid)).toBe(true);
      }
    }
  });

  it('knows three mutually adjacent hexes from a line of three', () => {
    expect(mutuallyAdjacent(['2708', '2709', '2809'], 'odd-q')).toBe(true);
    expect(mutuallyAdjacent(['2707', '2708', '2709'], 'odd-q')).toBe(false);
    expect(areAdjacent('2708', '2708', 'odd-q')).toBe(false);
  });
});
