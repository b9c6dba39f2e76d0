import { describe, expect, it } from 'vitest';
import { france44Ruleset } from '../../../../domain/rulesets/france44';
import { COMBAT_KINDS, ODDS_COLUMNS, REVISED_COMBAT_TABLE } from '../../../../domain/rulesets/france44/tables';
import { apply, declaration, given } from './harness';
import { resultTextShown } from '../shownOnTheTimeline';

const turn: [string, string, unknown] = ['organizer', 'StartTurn', { turn: 1 }];
const text = (type: string, payload: unknown, events: ReturnType<typeof apply>['events']) => resultTextShown(france44Ruleset, { type, payload }, events);

describe('the result text of a France 1944 commit', () => {
  it('is the Revised Combat Table letter of each cell, a C with its step losses', () => {
    const seen = new Set<string>();
    for (const kind of COMBAT_KINDS) {
      for (const [index, column] of ODDS_COLUMNS.entries()) {
        for (let die = 1; die <= 6; die++) {
          const c = declaration('c1', {
            kind,
            attackers: [{ unitId: 'a', hex: '2708', strength: column.attack * 2 }],
            defenders: [{ unitId: 'd', hex: '2709', strength: column.defence * 2 }],
          });
          const state = given([turn, ['allied', 'BeginAttackIncrement'], ['allied', 'DeclareCombat', c]]);
          const { events } = apply(state, ['allied', 'ResolveCombat', { combatId: 'c1' }, [die]]);
          const resolved = events.find((e) => e.type === 'CombatResolved')!.data as { column: string; adjustedDie: number };
          expect([resolved.column, resolved.adjustedDie]).toEqual([column.label, die]);
          const letter = REVISED_COMBAT_TABLE[die - 1][index].split('/')[kind === 'set-piece' ? 0 : 1];
          expect(text('ResolveCombat', { combatId: 'c1' }, events)).toBe(letter === 'C' ? 'C: defender -2 steps' : letter);
          seen.add(`${kind} ${column.label} ${die}`);
        }
      }
    }
    expect(seen.size).toBe(COMBAT_KINDS.length * ODDS_COLUMNS.length * 6);
  });

  it('names the attacker\'s step of a C under the house rule cAttackerLoss', () => {
    const state = given([turn, ['allied', 'BeginAttackIncrement'], ['allied', 'DeclareCombat', declaration('c1')]], { cAttackerLoss: true });
    // 6:3 is 2-1: a die whose set-piece letter there is C.
    const die = REVISED_COMBAT_TABLE.findIndex((row) => row[6].split('/')[0] === 'C') + 1;
    expect(die).toBeGreaterThan(0);
    const { events } = apply(state, ['allied', 'ResolveCombat', { combatId: 'c1' }, [die]]);
    expect(text('ResolveCombat', { combatId: 'c1' }, events)).toBe('C: defender -2 steps, attacker -1 step');
  });

  it('says whether air power came; a turn begins with no result', () => {
    const state = given([turn, ['allied', 'BeginAttackIncrement'], ['allied', 'DeclareCombat', declaration('c1')]]);
    const air = (die: number) => text('RollAirPower', {}, apply(state, ['allied', 'RollAirPower', { combatId: 'c1', availability: 3 }, [die]]).events);
    expect([air(1), air(6)]).toEqual(['air power', 'no air power']);
    expect(text('StartTurn', { turn: 1 }, apply(given([]), turn).events)).toBe('');
  });
});
