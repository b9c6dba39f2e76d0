import { describe, expect, it } from 'vitest';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';
import { apply, given, SIX_TO_ONE as sixToOne } from './harness';
import { resultTextShown } from '../shownOnTheTimeline';

const text = (type: string, events: ReturnType<typeof apply>['events']) => resultTextShown(warsAndBattlesRuleset, { type, payload: {} }, events);

const declared = () =>
  given([['axis', 'DeclareAttack', { attackId: 'a1', targetHex: '1010', attackers: [{ unitId: 'pz', hex: '1009' }, { unitId: 'rommel', hex: '1009' }], defenders: ['us'], terrain: 'hedgerows' }]], sixToOne);

describe('the result text of a Wars and Battles commit', () => {
  it("is the combat table's code with the LP each side loses and the retreat (§7.3.3: 1/13R)", () => {
    const { events } = apply(declared(), ['axis', 'ResolveAttack', { attackId: 'a1' }, [4, 1]]);
    expect(text('ResolveAttack', events)).toBe('1/13R: attacker -1 LP, defender -13 LP, retreat');
  });

  it('says so when the bundled example table does not hold the cell', () => {
    const { events } = apply(declared(), ['axis', 'ResolveAttack', { attackId: 'a1' }, [6, 6]]);
    expect(text('ResolveAttack', events)).toBe('unproven (not in the example table: no effect)');
  });

  it("is a bombardment's code and loss (§7.5.2: 15 points, 7: 4 LP)", () => {
    const state = given([], { units: [{ unitId: 'art', side: 'allied', kind: 'artillery', quality: 'veteran', maxLp: 4 }, { unitId: 'gr', side: 'axis', kind: 'infantry', quality: 'veteran', maxLp: 8, defence: 2 }] });
    const { events } = apply(state, ['allied', 'Bombard', { targetHex: '0812', targets: ['gr'], bombarders: [{ unitId: 'art', points: 15 }], identification: 'identified' }, [5, 2]]);
    expect(text('Bombard', events)).toBe('4: -4 LP');
  });

  it('is empty for a commit that resolves nothing', () => {
    expect(text('EndImpulse', apply(given([], sixToOne), ['axis', 'EndImpulse']).events)).toBe('');
  });
});
