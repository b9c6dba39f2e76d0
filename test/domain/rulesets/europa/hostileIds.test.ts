import { describe, expect, it } from 'vitest';
import { europaRuleset } from '../../../../domain/rulesets/europa';
import { HOSTILE_IDS } from '../hostileIds';
import { apply, given, p47Fire, refused, withTestTable } from './harness';

const view = (state: ReturnType<typeof given>) => europaRuleset.present(state) as { sites: { site: string; owner: string; condition: string }[] };

describe('europa: every id-bearing field, with ids every JavaScript object has', () => {
  for (const id of HOSTILE_IDS) {
    describe(`id "${id}"`, () => {
      it('names a fire, its hex, firing units, their hexes and air units like any other, in the event, the view and the text line', () => {
        const airUnits = [{ unitId: id, type: 'F', df: 9 }, ...['2', '3', '4'].map((n) => ({ unitId: `P-47 ${n}`, type: 'F', df: 9 }))];
        const { events, state } = apply(given([], withTestTable), ['axis', 'AAFire', p47Fire({ fireId: id, hex: id, aa: [{ unitId: id, aa: 11, hex: id }], airUnits }), [4, 4, 1, 1, 1]]);
        expect(events[0].data).toMatchObject({ fireId: id, hex: id, result: 19, allocation: { selections: [{ unitId: id, outcome: 'returned' }, {}, {}] } });
        expect(europaRuleset.present(state)).toMatchObject({ lastFire: { fireId: id, hex: id, affected: 3 } });
        expect(europaRuleset.summarize({ type: 'AAFire', payload: {} }, events)).toContain(`${JSON.stringify(id)} over ${JSON.stringify(id)}: AA 11`);
        refused(given([], withTestTable), ['axis', 'AAFire', p47Fire({ aa: [{ unitId: id, aa: 5 }, { unitId: id, aa: 6 }] })], new RegExp(`^${JSON.stringify(id)} is listed twice`));
      });

      it('is a hex to average over (DAS, harassment) like any other', () => {
        const das = apply(given([], withTestTable), ['axis', 'AAFire', p47Fire({ mission: 'das', germanOrAlliedShift: false, hex: 'T', aa: [{ unitId: 'a', aa: 4, hex: id }, { unitId: 'b', aa: 0, hex: 'constructor2' }, { unitId: 'c', aa: 2, hex: 'x' }] }), [1, 1, 1, 1, 1]]);
        expect(das.events[0].data).toMatchObject({ strength: { total: 6, hexCount: 3, strength: 2, hexes: [{ hex: id, aa: 4, counted: true }, {}, {}] } });
        const prohibited = apply(given([], withTestTable), ['axis', 'AAFire', p47Fire({ mission: 'das', germanOrAlliedShift: false, hex: 'T', aa: [{ unitId: 'a', aa: 4, hex: id }, { unitId: 'c', aa: 2, hex: 'x' }], prohibitedHexes: [id] }), [1, 1, 1, 1, 1]]);
        expect(prohibited.events[0].data).toMatchObject({ strength: { total: 2, hexCount: 1 } });
        const harassment = apply(given([], withTestTable), ['axis', 'AAFire', p47Fire({ mission: 'harassment', germanOrAlliedShift: false, hex: id, aa: [{ unitId: 'a', aa: 4 }, { unitId: 'b', aa: 6, hex: 'y' }] }), [1, 1, 1, 1, 1]]);
        expect(harassment.events[0].data).toMatchObject({ strength: { total: 10, hexCount: 2, strength: 5 } });
      });

      it('is a fortification site with its whole life: placed, gained, improved, restored, unimproved', () => {
        let state = given([
          ['organizer', 'FortificationEvent', { action: 'place', site: id, kind: 'westwall', owner: 'axis', level: 3 }],
          ['organizer', 'FortificationEvent', { action: 'place', site: `${id}-fort`, kind: 'fort', owner: 'axis' }],
        ]);
        refused(state, ['organizer', 'FortificationEvent', { action: 'place', site: id, kind: 'fort', owner: 'axis' }], new RegExp(`^${JSON.stringify(id)} already holds a fortification\\.$`));
        state = apply(state, ['organizer', 'FortificationEvent', { action: 'turn', turn: 1 }]).state;
        state = apply(state, ['axis', 'FortificationEvent', { action: 'begin-improvement', site: id, quickConstruction: true }]).state;
        state = apply(state, ['organizer', 'FortificationEvent', { action: 'turn', turn: 2 }]).state;
        const done = apply(state, ['organizer', 'FortificationEvent', { action: 'turn', turn: 3 }]);
        expect(done.events[1].data).toMatchObject({ site: id, to: 'improved', chartRow: 'westwall-3' });
        state = apply(done.state, ['allied', 'FortificationEvent', { action: 'gain', site: id, side: 'allied' }]).state;
        const phase = apply(state, ['allied', 'FortificationEvent', { action: 'initial-phase', side: 'allied' }]);
        expect(europaRuleset.summarize({ type: 'FortificationEvent', payload: {} }, phase.events)).toBe(`turn 3, allied initial phase; westwall ${JSON.stringify(id)} improved -> unimproved (allied-initial-phase)`);
        expect(view(phase.state).sites).toEqual([
          { site: id, kind: 'westwall', owner: 'allied', condition: 'unimproved', level: 3, chartRow: 'westwall-unimproved', improvement: null },
          { site: `${id}-fort`, kind: 'fort', owner: 'axis', condition: 'intact', chartRow: 'fort', improvement: null },
        ]);
        const gone = apply(phase.state, ['allied', 'FortificationEvent', { action: 'gain', site: `${id}-fort`, side: 'allied' }]).state;
        expect(view(gone).sites.map((s) => s.site)).toEqual([id]);
        refused(given([]), ['axis', 'FortificationEvent', { action: 'destroy', site: id }], new RegExp(`^No fortification ${JSON.stringify(id)} was placed\\.$`));
        expect(Object.getPrototypeOf({})).toBe(Object.prototype);
      });
    });
  }
});
