import { describe, expect, it } from 'vitest';
import { memoir44Ruleset } from '../../../../domain/rulesets/memoir44';
import { GivenDice } from '../../../../domain/dice';
import { harness } from '../../../support/rulesetHarness';

const { given, apply, refused } = harness(memoir44Ruleset);
const battle = (attackerId: string, targetId = 'Grenadiers', extra: Record<string, unknown> = {}) => ({
  attacker: { unitId: attackerId, type: 'infantry', figures: 4 },
  target: { unitId: targetId, type: 'infantry', figures: 4 },
  range: 2,
  ...extra,
});

describe('memoir44-d6 turns and battles', () => {
  it('lets only the active side battle, and EndTurn pass the turn', () => {
    refused(given([]), ['axis', 'Battle', battle('7th Pz')], /the allies side's turn/);
    const passed = apply(given([]), ['allies', 'EndTurn']);
    expect(passed.events[0].data).toEqual({ side: 'allies', turn: 1, next: 'axis' });
    expect(memoir44Ruleset.present(passed.state)).toEqual({ turn: 2, activeSide: 'axis', battledThisTurn: [] });
    refused(passed.state, ['allies', 'EndTurn'], /the axis side's turn/);
    expect(given([], { firstSide: 'axis' }).activeSide).toBe('axis');
  });

  it('lets a unit battle once per turn', () => {
    const once = given([['allies', 'Battle', battle('2nd Armored'), [6, 5, 4, 1]]]);
    refused(once, ['allies', 'Battle', battle('2nd Armored', 'Pioneers'), [6, 6, 6, 6]], /2nd Armored already battled this turn/);
    const later = given([['allies', 'Battle', battle('2nd Armored'), [6, 5, 4, 1]], ['allies', 'EndTurn'], ['axis', 'EndTurn']]);
    expect(apply(later, ['allies', 'Battle', battle('2nd Armored'), [6, 5, 4, 1]]).events[0].type).toBe('BattleFought');
  });

  it('makes a unit adjacent to enemies close assault one of them', () => {
    const adjacent = { adjacentEnemyIds: ['Pioneers', 'MG 42'] };
    refused(given([]), ['allies', 'Battle', battle('1st Inf', 'Grenadiers', adjacent)], /must close assault one of them/);
    refused(given([]), ['allies', 'Battle', battle('1st Inf', 'Pioneers', adjacent)], /range 1/);
    const ok = apply(given([]), ['allies', 'Battle', battle('1st Inf', 'Pioneers', { ...adjacent, range: 1 }), [4, 4, 4, 4]]);
    expect(ok.events[0].data).toMatchObject({ hits: 4, figuresLost: 4, eliminated: true });
  });

  it('rolls command card dice for either side, any time', () => {
    const { events } = apply(given([]), ['axis', 'CardRoll', { dice: 3, purpose: 'Air Power card' }, [1, 5, 6]]);
    expect(events[0].data).toEqual({ purpose: 'Air Power card', rolls: [1, 5, 6], symbols: ['flag', 'armor', 'grenade'] });
  });

  it('writes the chat line with the dice and the reductions', () => {
    const { events } = apply(given([]), [
      'allies',
      'Battle',
      { attacker: { unitId: '2nd Armored', type: 'armor', figures: 2 }, target: { unitId: 'Grenadiers', type: 'infantry', figures: 3, terrain: 'forest' }, range: 2 },
      [6, 5, 4, 1],
    ]);
    expect(memoir44Ruleset.summarize({ type: 'Battle', payload: {} }, events)).toBe('2nd Armored -> Grenadiers (range 2, forest -2): 6 5 4 1 -> 1 hit, 1 flag');
  });
});

describe('memoir44-d6 battle range', () => {
  const artillery = { unitId: '105 Howitzers', type: 'artillery', figures: 2 };
  const fire = (range: unknown) => ({ attacker: artillery, target: { unitId: 'Grenadiers', type: 'infantry', figures: 4 }, range });

  it('artillery battles a target 6 or fewer hexes away: at range 7 or more the rules refuse it, before any die', () => {
    const { events } = apply(given([]), ['allies', 'Battle', fire(6), [6, 6, 5, 1]]);
    expect(events[0].data).toMatchObject({ range: 6, hits: 2, flags: 1 });
    refused(given([]), ['allies', 'Battle', fire(7)], /^artillery can't battle at range 7: the target is out of its range\.$/);
    refused(given([]), ['allies', 'Battle', fire(99)], /^artillery can't battle at range 99/);
    const rifles = { ...fire(7), attacker: { unitId: '1st Inf', type: 'infantry', figures: 4 } };
    refused(given([]), ['allies', 'Battle', rifles], /^infantry can't battle at range 7/);
  });

  it('a range past any board (over 99), zero or not a whole number is a malformed command', () => {
    for (const range of [100, 1e9, 0, 2.5, '7']) {
      const parsed = memoir44Ruleset.commands.Battle.schema.safeParse(fire(range));
      expect(parsed.success, String(range)).toBe(false);
      expect(parsed.error?.issues.map((i) => i.path.join('.')), String(range)).toEqual(['range']);
    }
  });

  it('the calculator refuses range 7 by the rules too', () => {
    const input = memoir44Ruleset.procedures.battle.input.parse({ attacker: { type: 'artillery', figures: 2 }, target: { type: 'infantry', figures: 4 }, range: 7 });
    expect(() => memoir44Ruleset.procedures.battle.evaluate(input, memoir44Ruleset.options.parse({}), new GivenDice([]))).toThrow("artillery can't battle at range 7");
  });
});
