import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { attackerFactors, terrainShiftReason, type Attack } from '../../../../domain/rulesets/normandy44/attackResolution';
import { rollIsolation, rollJabos, rollStrafing } from '../../../../domain/rulesets/normandy44/otherRolls';
import { COMBAT_RESULTS_TABLE, DD_COLUMNS, DETERMINED_DEFENSE_TABLE, ODDS_COLUMNS } from '../../../../domain/rulesets/normandy44/tables';
import { HEX_TERRAIN, HEXSIDES, type Hexside, type HexTerrain } from '../../../../domain/rulesets/normandy44/terrain';

const rows = (name: string) =>
  readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => line.split('\t').map((c) => c.trim()));

describe('Combat Results Table', () => {
  const [header, ...dieRows] = rows('crt.source.txt');
  it('has the columns of the source', () => {
    expect(header.slice(1, 10)).toEqual(ODDS_COLUMNS.map((c) => c.label));
  });
  dieRows.forEach((cells, i) => {
    for (const [column, { label }] of ODDS_COLUMNS.entries()) {
      it(`die ${i + 1}, ${label}`, () => expect(COMBAT_RESULTS_TABLE[i][column]).toBe(cells[column + 1]));
    }
  });
});

describe('Determined Defense table', () => {
  const [header, ...dieRows] = rows('determined-defense.source.txt');
  it('has the four columns of the source, and seven rows from "1 or less" to "7+"', () => {
    expect(header.slice(1)).toEqual(['Inondé Clair', 'Autres', 'Position Retranch.', "Pt d'App. Ville"]);
    expect(DD_COLUMNS).toEqual(['flooded-clear', 'other', 'fortified-position', 'strongpoint-city']);
    expect(dieRows.map((r) => r[0])).toEqual(['1 et moins', '2', '3', '4', '5', '6', '7+']);
  });
  dieRows.forEach((cells, row) => {
    DD_COLUMNS.forEach((column, c) => {
      it(`row ${cells[0]}, ${column}`, () => expect(DETERMINED_DEFENSE_TABLE[row][c]).toBe(cells[c + 1].replace(/ /g, '')));
    });
  });
});

describe('Jabos, strafing and isolation tables', () => {
  it('Jabos: the die gives the source\'s shift', () => {
    for (const [die, shift] of rows('jabos.source.txt').slice(1)) {
      expect(rollJabos(new GivenDice([Number(die)])).result.shift).toBe(shift === '-' ? 0 : Number(shift));
    }
  });
  it('strafing: 1-5 nothing, 6 a step, before modifiers', () => {
    const [, low, high] = rows('strafing.source.txt');
    expect([low, high]).toEqual([['1-5', '-'], ['6', '1']]);
    for (let die = 1; die <= 6; die++) expect(rollStrafing({}, new GivenDice([die])).result.stepLoss).toBe(die === 6 ? 1 : 0);
  });
  it('isolation: 1-4 a step, 5-6 nothing, before modifiers', () => {
    const [, low, high] = rows('isolation.source.txt');
    expect([low, high]).toEqual([['1-4', '-1 pas'], ['5-6', 'Aucun Effet']]);
    for (let die = 1; die <= 6; die++) {
      expect(rollIsolation({ canTraceSupply: false, troopQuality: 0 }, new GivenDice([die])).result.stepLoss).toBe(die <= 4 ? 1 : 0);
    }
  });
});

describe('terrain chart, combat columns', () => {
  const chart = new Map(rows('terrain.source.txt').map(([name, effect, armor]) => [name, { effect, armor }]));
  const hexes: [string, HexTerrain][] = [
    ['Clair', 'clear'], ['Mixte', 'mixed'], ['Bocage', 'bocage'], ['Bois', 'woods'], ['Village', 'village'], ['Ville', 'city'], ['Inondé', 'flooded'],
  ];
  const hexsides: [string, Hexside][] = [
    ['Rivière mineure', 'minor-river'], ['Rivière majeure', 'major-river'], ['Côté Inondé', 'flooded'], ["Piste d'aérodrome", 'runway'],
    ['Périm. Cherbourg', 'cherbourg-perimeter'], ['Impassable', 'impassable'], ['Chaussée', 'causeway'],
  ];
  const unit = (extra: Partial<Attack['attackers'][number]> = {}) => ({ factors: 4, mainAttackForce: true, ...extra });

  for (const [name, terrain] of hexes) {
    it(`hex ${name} (${terrain}): BDC and armor advantage`, () => {
      const { effect, armor } = chart.get(name)!;
      expect(HEX_TERRAIN[terrain].bdc).toBe(Number(effect.match(/(\d) BDC/)?.[1] ?? 0));
      expect(HEX_TERRAIN[terrain].armorAdvantage).toBe(armor === 'Oui');
    });
  }

  it('hex Inondé: attackers into it are halved and shift one column left', () => {
    expect(chart.get('Inondé')!.effect).toBe('(Attq 1/2 + 1G) *');
    const attack: Attack = { weather: 'clear', defenderHex: { terrain: 'flooded' }, attackers: [unit()], defenders: [{ factors: 1, steps: 1 }] };
    expect(attackerFactors(attack, 'allied')[0].halvedFor).toEqual(['into a flooded hex']);
    expect(terrainShiftReason(attack)).toBe('flooded hex');
  });

  it('hilltop ("Sommet Colline"): its other terrain, plus one column left, armor allowed', () => {
    expect(chart.get('Sommet Colline')).toEqual({ effect: 'AT + 1G', armor: 'Oui' });
    expect(terrainShiftReason({ weather: 'clear', defenderHex: { terrain: 'mixed', hilltop: true }, attackers: [unit()], defenders: [] })).toBe('hilltop');
  });

  for (const [name, hexside] of hexsides) {
    it(`hexside ${name} (${hexside}): halving, left shift, armor advantage`, () => {
      const { effect, armor } = chart.get(name)!;
      expect(HEXSIDES[hexside].halves).toBe(effect.startsWith('Attq Allié 1/2') ? 'allied' : effect.startsWith('Attq 1/2'));
      expect(HEXSIDES[hexside].shiftsLeft).toBe(effect.includes('+ 1G'));
      expect(HEXSIDES[hexside].armorAdvantage).toBe(armor === 'Oui');
    });
  }

  it('strongpoints and fortified positions ("PA ou PR") allow no armor advantage', () => {
    expect(chart.get('PA ou PR')!.armor).toBe('Non');
  });
});
