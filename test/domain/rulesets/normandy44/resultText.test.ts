import { describe, expect, it } from 'vitest';
import { normandy44Ruleset } from '../../../../domain/rulesets/normandy44';
import { COMBAT_RESULTS_TABLE, ODDS_COLUMNS } from '../../../../domain/rulesets/normandy44/tables';
import { apply, declaration, given } from './harness';
import { resultTextShown } from '../shownOnTheTimeline';

const text = (type: string, events: ReturnType<typeof apply>['events']) => resultTextShown(normandy44Ruleset, { type, payload: {} }, events);

/** What each code of the Combat Results Table reads as, a defender of 3 steps engaged. */
const EXPECTED: Record<string, string> = {
  A1: 'A1',
  'A1/DR': 'A1/DR, retreat 2, Determined Defense allowed',
  DR: 'DR, retreat 2, Determined Defense allowed',
  D1: 'D1, retreat 2, Determined Defense allowed',
  'A1/D1': 'A1/D1, retreat 2, Determined Defense allowed',
  EX: 'EX (attacker -1, defender -1)',
  'A1/D2': 'A1/D2, retreat 4, disorganized',
  DH: 'DH, retreat 4, disorganized',
};

describe("the result text of a Normandy '44 commit", () => {
  it('is the Combat Results Table code of each cell, with its retreat', () => {
    let cells = 0;
    for (const [index, column] of ODDS_COLUMNS.entries()) {
      for (let die = 1; die <= 6; die++) {
        const attack = declaration('a1', {
          attackers: [{ unitId: 'a', factors: column.attack * 2, mainAttackForce: true }],
          defenders: [{ unitId: 'd', factors: column.defence * 2, steps: 3 }],
        });
        const state = given([['allied', 'DeclareAttack', attack]]);
        const { events } = apply(state, ['allied', 'ResolveAttack', { attackId: 'a1' }, [die]]);
        expect(events[0].data).toMatchObject({ column: column.label });
        const code = COMBAT_RESULTS_TABLE[die - 1][index];
        expect(text('ResolveAttack', events)).toBe(EXPECTED[code]);
        cells++;
      }
    }
    expect(cells).toBe(54);
  });

  it('reads a strafing roll and a turn start in a word or none', () => {
    const strafe = (die: number) => text('Strafe', apply(given([]), ['allied', 'Strafe', { targetUnitId: 'u1' }, [die]]).events);
    expect([strafe(6), strafe(1)]).toEqual(['-1 step', 'no effect']);
    expect(text('StartTurn', apply(given([]), ['allied', 'StartTurn', { turn: 1, reinforcementPoints: 4 }]).events)).toBe('');
  });
});
