import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { battleDice, readCardRoll, toHit } from '../../../../domain/rulesets/memoir44/battle';
import { BATTLE_IN, BATTLE_OUT, TO_HIT, type Terrain, type UnitType } from '../../../../domain/rulesets/memoir44/tables';

/** The source prints one cell a line with "|" between cells: rows of `columns` cells. */
function table(name: string, columns: number): string[][] {
  const text = readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8').split('\n').filter((l) => !l.startsWith('#')).join('\n');
  const cells = text.split('|').map((c) => c.replace(/\s+/g, ' ').trim()).filter(Boolean);
  return Array.from({ length: cells.length / columns }, (_, i) => cells.slice(i * columns, (i + 1) * columns));
}
const terrainOf: Record<string, Terrain> = {
  FOREST: 'forest', 'TOWN/VILLAGE': 'town', HEDGEROW: 'hedgerow', 'HILLS (WHEN UPHILL)': 'hill', BUNKER: 'bunker', HEDGEHOG: 'hedgehog', SANDBAG: 'sandbags', WIRE: 'wire',
};

describe('battle in: the target\'s terrain', () => {
  const [header, ...rows] = table('battle-in.source.txt', 3);
  it('has infantry and armor columns and eight terrains', () => {
    expect(header).toEqual(['TERRAIN', 'INFANTRY', 'ARMOR']);
    expect(rows).toHaveLength(8);
  });
  for (const [name, infantry, armor] of rows) {
    it(`${name}: infantry ${infantry}, armor ${armor}`, () => {
      const terrain = terrainOf[name];
      expect(0 - BATTLE_IN[terrain].infantry).toBe(Number(infantry));
      expect(0 - BATTLE_IN[terrain].armor).toBe(Number(armor));
    });
  }
  it('clear terrain reduces nothing', () => expect(BATTLE_IN.clear).toEqual({ infantry: 0, armor: 0 }));
});

describe('battle out: the attacker\'s own terrain', () => {
  const [header, ...rows] = table('battle-out.source.txt', 3);
  it('lists town/village and wire only', () => {
    expect(header).toEqual(['TERRAIN', 'INFANTRY', 'ARMOR']);
    expect(rows.map((r) => terrainOf[r[0]]).sort()).toEqual(Object.keys(BATTLE_OUT).sort());
  });
  for (const [name, infantry, armor] of rows) {
    it(`${name}: infantry ${infantry}, armor ${armor}`, () => {
      const out = BATTLE_OUT[terrainOf[name]]!;
      expect(0 - out.infantry).toBe(Number(infantry));
      expect(0 - out.armor).toBe(Number(armor));
    });
  }
});

describe('to-hit numbers by range', () => {
  const rows = table('to-hit.source.txt', 4);
  // Two printed tables: ranges 6, 5, 4 then 3, 2, 1.
  const ranges = new Map<string, number[]>();
  for (const row of rows) {
    if (row[0] === 'UNIT') {
      ranges.set('current', row.slice(1).map((h) => Number(h.replace('R =', ''))));
      continue;
    }
    row.slice(1).forEach((cell, i) => {
      const range = ranges.get('current')![i];
      ranges.set(`${row[0]}:${range}`, cell === 'X' ? [] : cell.split(',').map((n) => Number(n)));
    });
  }
  for (const type of ['infantry', 'armor', 'artillery'] as const) {
    for (let range = 1; range <= 6; range++) {
      it(`${type} at range ${range}`, () => {
        const faces = ranges.get(`${type.toUpperCase()}:${range}`)!;
        expect(faces, 'printed in the source').toBeDefined();
        expect(TO_HIT[type][range - 1]).toBe(faces.length ? Math.min(...faces) : null);
      });
    }
  }

  it('cavalry: 5 and 6 in close combat, 6 at two hexes (the source\'s Q&A), nothing beyond', () => {
    expect(TO_HIT.cavalry).toEqual([5, 6, null, null, null, null]);
  });

  it('sniper: 5 and 6 (stars count), range 1-5 (ruling)', () => {
    expect(TO_HIT.sniper).toEqual([5, 5, 5, 5, 5, null]);
    expect(toHit('sniper', 3, true)).toBe(5);
  });

  it('starsHit adds one face: armor at range 2 hits on 3+', () => {
    expect(toHit('armor', 2, true)).toBe(3);
    expect(toHit('infantry', 3, true)).toBe(5);
  });
});

describe('battle dice', () => {
  const dice = (type: UnitType, figures: number, special = false) => battleDice({ type, figures, special });
  it('infantry 1 a figure, +1 special; armor and artillery 2 a figure, special armor nothing more; cavalry 1; sniper 2', () => {
    expect([dice('infantry', 2), dice('infantry', 2, true), dice('armor', 3), dice('armor', 3, true), dice('artillery', 2), dice('cavalry', 3), dice('sniper', 1)]).toEqual([2, 3, 6, 6, 4, 3, 2]);
  });
});

describe('command card symbols', () => {
  const [header, ...rows] = table('card-symbols.source.txt', 2);
  it('read each face as the source says', () => {
    expect(header).toEqual(['SYMBOL', 'DIE RESULT']);
    for (const [symbol, faces] of rows) {
      for (const face of faces.split(',').map(Number)) {
        expect(readCardRoll(new GivenDice([face]), 1).result.symbols).toEqual([symbol.toLowerCase()]);
      }
    }
  });
});
