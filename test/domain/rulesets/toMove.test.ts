import { describe, expect, it } from 'vitest';
import type { DomainEvent, Ruleset } from '../../../domain/ruleset';
import { diceRuleset } from '../../../domain/rulesets/dice';
import { europaRuleset } from '../../../domain/rulesets/europa';
import { france44Ruleset } from '../../../domain/rulesets/france44';
import { memoir44Ruleset } from '../../../domain/rulesets/memoir44';
import { normandy44Ruleset } from '../../../domain/rulesets/normandy44';
import { tableRuleset } from '../../../domain/rulesets/table';
import { warsAndBattlesRuleset } from '../../../domain/rulesets/warsandbattles';
import { harness, type Step } from '../../support/rulesetHarness';

/** Whose move it is after each of these events, folded from a new game of the ruleset. */
function toMoveAfter<S>(ruleset: Ruleset<S>, events: readonly DomainEvent[], options: Record<string, unknown> = {}): (string | null)[] {
  const parsed = ruleset.options.parse(options);
  let state = ruleset.initialState(parsed, ruleset.sides(parsed));
  const seen = [ruleset.toMove!(state)];
  for (const event of events) {
    state = ruleset.evolve(state, event);
    seen.push(ruleset.toMove!(state));
  }
  return seen;
}

/** Whose move it is after each of these commands, played through the ruleset's schema, decide and evolve. */
function toMoveAfterCommands<S>(ruleset: Ruleset<S>, steps: Step[], options: Record<string, unknown> = {}): (string | null)[] {
  const { given, apply } = harness(ruleset);
  let state = given([], options);
  const seen = [ruleset.toMove!(state)];
  for (const step of steps) {
    state = apply(state, step).state;
    seen.push(ruleset.toMove!(state));
  }
  return seen;
}

const event = (type: string, data: Record<string, unknown>): DomainEvent => ({ type, data });

describe('whose move it is, in each ruleset', () => {
  it('dice: the first side from creation, then the side each PassTurn names; a roll hands nothing over', () => {
    const options = { sides: ['red', 'blue', 'green'] };
    expect(
      toMoveAfterCommands(
        diceRuleset,
        [
          ['red', 'Roll', { dice: 'd6', purpose: 'fire' }, [3]],
          ['red', 'PassTurn', { to: 'green' }],
          ['organizer', 'PassTurn', { to: 'blue' }],
          ['green', 'Roll', { dice: 'd6', purpose: 'out of turn' }, [5]],
        ],
        options,
      ),
    ).toEqual(['red', 'red', 'green', 'blue', 'blue']);
  });

  it('dice and table: PassTurn to no side of the game, or to the side already to move, is refused in words', () => {
    for (const ruleset of [diceRuleset, tableRuleset] as Ruleset[]) {
      const { given, refused } = harness(ruleset);
      const state = given([], { sides: ['red', 'blue'] });
      refused(state, ['red', 'PassTurn', { to: 'purple' }], /This game has no side "purple": its sides are red, blue\./);
      refused(state, ['red', 'PassTurn', { to: 'red' }], /It is already red's move\./);
    }
  });

  it('dice and table: only the side to move, or the organizer, passes the turn (the clock charges whoever it names)', () => {
    for (const ruleset of [diceRuleset, tableRuleset] as Ruleset[]) {
      const { given, refused } = harness(ruleset);
      const state = given([], { sides: ['red', 'blue', 'green'] });
      refused(state, ['green', 'PassTurn', { to: 'blue' }], /It is red's move: only red or the organizer may pass the turn\./);
    }
  });

  it('dice and table: a hand-over reads "turn to <side>" in the text line and resolves nothing', () => {
    for (const ruleset of [diceRuleset, tableRuleset] as Ruleset[]) {
      const command = { type: 'PassTurn', payload: { to: 'blue' } };
      const events = [event('TurnPassed', { to: 'blue' })];
      expect(ruleset.summarize(command, events)).toBe('turn to blue');
      expect(ruleset.resultText(command, events)).toBe('');
    }
  });

  it('table: the first side from creation, then the side each PassTurn names', () => {
    expect(toMoveAfterCommands(tableRuleset, [['player1', 'PassTurn', { to: 'player2' }], ['player2', 'PassTurn', { to: 'player1' }]])).toEqual(['player1', 'player2', 'player1']);
  });

  it("memoir44-d6: the active side, from the option firstSide, until it ends its turn", () => {
    expect(toMoveAfterCommands(memoir44Ruleset, [['allies', 'EndTurn'], ['axis', 'CardRoll', { dice: 1, purpose: 'recon' }, [2]], ['axis', 'EndTurn']])).toEqual(['allies', 'axis', 'axis', 'allies']);
    expect(toMoveAfterCommands(memoir44Ruleset, [], { firstSide: 'axis' })).toEqual(['axis']);
  });

  it('europa: the side whose initial phase began last; nobody before the first phase of a turn', () => {
    expect(
      toMoveAfter(europaRuleset, [
        event('TurnBegan', { turn: 1 }),
        event('InitialPhaseBegan', { side: 'axis' }),
        event('InitialPhaseBegan', { side: 'allied' }),
        event('TurnBegan', { turn: 2 }),
        event('InitialPhaseBegan', { side: 'axis' }),
      ]),
    ).toEqual([null, null, 'axis', 'allied', null, 'axis']);
  });

  it('france44: the side of an open reaction segment, else the attacker of an open increment, else nobody', () => {
    expect(
      toMoveAfter(france44Ruleset, [
        event('TurnStarted', { turn: 1, reactionPoints: { allied: 5, german: 5 } }),
        event('ReactionSegmentBegun', { side: 'german' }),
        event('ReactionSegmentEnded', { side: 'german', pointsLeft: 5 }),
        event('AttackIncrementBegun', { increment: 1, attacker: 'allied' }),
        event('AttackIncrementEnded', { increment: 1, attacker: 'allied', combats: 0 }),
      ]),
    ).toEqual([null, null, 'german', null, 'allied', null]);
  });

  it('normandy44: the attacker of a declared attack, then the defender while its Determined Defense is open, else nobody', () => {
    const declared = (attackId: string, attacker: string) => event('AttackDeclared', { attackId, attacker, declaration: {} });
    expect(
      toMoveAfter(normandy44Ruleset, [
        event('TurnStarted', { turn: 1, reinforcementPoints: 0 }),
        declared('a1', 'allied'),
        event('AttackResolved', { attackId: 'a1', code: 'DR', determinedDefenseAllowed: true }),
        event('DeterminedDefenseDeclined', { attackId: 'a1' }),
        declared('g1', 'german'),
        event('AttackResolved', { attackId: 'g1', code: 'AE', determinedDefenseAllowed: false }),
      ]),
    ).toEqual([null, null, 'allied', 'german', null, 'german', null]);
  });

  it('warsandbattles: the phasing side of the impulse; nobody once every impulse of the turn is played', () => {
    expect(toMoveAfterCommands(warsAndBattlesRuleset, [['allied', 'EndImpulse'], ['axis', 'EndImpulse']])).toEqual(['allied', 'axis', null]);
    expect(toMoveAfterCommands(warsAndBattlesRuleset, [], { firstSide: 'axis' })).toEqual(['axis']);
  });
});
