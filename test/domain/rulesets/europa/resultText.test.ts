import { describe, expect, it } from 'vitest';
import { europaRuleset } from '../../../../domain/rulesets/europa';
import { apply, given, p47Fire, withTestTable } from './harness';
import { resultTextShown } from '../shownOnTheTimeline';

const text = (type: string, events: ReturnType<typeof apply>['events']) => resultTextShown(europaRuleset, { type, payload: {} }, events);

describe('the result text of a europa commit', () => {
  it("is the AA fire table's result with what became of the air units", () => {
    const { events } = apply(given([], withTestTable), ['axis', 'AAFire', p47Fire(), [4, 4, 1, 1, 1]]);
    // 19 defence factors against four P-47s of 6: the first and third selected return, the second aborts, the fourth is untouched.
    expect(events[0].data).toMatchObject({ result: 19, allocation: { selections: [{ effect: 'returns' }, { effect: 'aborts' }, { effect: 'returns' }], unaffected: ['P-47 4'] } });
    expect(text('AAFire', events)).toBe('19: 2 returns, 1 aborts');
  });

  it("is '-' for a fire that affects nothing, and empty for a fortification event", () => {
    const night = p47Fire({ fireId: 'night', night: true, germanOrAlliedShift: false, nationality: 'allied', date: 'Jun I 43', aa: [{ unitId: 'Bofors', aa: 2 }], airUnits: [{ unitId: 'Ju88', type: 'B', df: 5 }] });
    expect(text('AAFire', apply(given([], withTestTable), ['allied', 'AAFire', night, [1, 1]]).events)).toBe('-');
    expect(text('FortificationEvent', apply(given([]), ['organizer', 'FortificationEvent', { action: 'turn', turn: 1 }]).events)).toBe('');
  });
});
