import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../domain/dice';
import { EntropyLocked, Forbidden, GameSealed } from '../../../domain/errors';
import type { Commit } from '../../../domain/fairness/hashChain';
import { buildCommit } from '../../../domain/game/buildCommit';
import { authorize, decideCreate, decideGame } from '../../../domain/game/decideGame';
import { evolveGame, type GameState } from '../../../domain/game/gameState';
import type { Command, DomainEvent } from '../../../domain/ruleset';
import { diceRuleset } from '../../../domain/rulesets/dice';

/** Given these commits (as events, by actor) … */
function given(...history: { actor: string; command: Command; events: DomainEvent[]; dice?: { sides: number; value: number }[] }[]): GameState {
  const created = decideCreate(diceRuleset, { ruleset: 'dice' }, 'c'.repeat(64));
  const all = [{ actor: 'organizer', command: { type: 'CreateGame', payload: { ruleset: 'dice' } }, events: [created] }, ...history];
  let state: GameState | undefined;
  let prevHash = '0'.repeat(64);
  all.forEach((entry, i) => {
    const commit: Commit = buildCommit(
      { gameId: 'g', seq: i + 1, prevHash, commandId: `c${i}`, actor: entry.actor, viaOrganizer: false, command: entry.command, events: entry.events, dice: 'dice' in entry ? (entry.dice ?? []) : [], recordedAt: '', kid: 'k' },
      () => '',
    );
    prevHash = commit.hash;
    state = evolveGame(state, commit);
  });
  return state!;
}

/** … when this command is decided. */
const when = (state: GameState, actor: string, command: Command, dice: number[] = [], serverSeed?: string) =>
  decideGame(state, command, { actor, dice: new GivenDice(dice), now: '', serverSeed });

const entropy = (by: string, text: string) => ({
  actor: by,
  command: { type: 'ContributeEntropy', payload: { entropy: text } },
  events: [{ type: 'EntropyContributed', data: { by, entropy: text } }],
});
const rolled = {
  actor: 'player1',
  command: { type: 'Roll', payload: { dice: 'd6', purpose: 'p' } },
  events: [{ type: 'DiceRolled', data: { purpose: 'p', dice: '1d6', rolls: [{ sides: 6, value: 3 }], modifier: 0, total: 3 } }],
  dice: [{ sides: 6, value: 3 }],
};

describe('the game decider', () => {
  it('creates a game with its sides, parsed options and commitment', () => {
    expect(decideCreate(diceRuleset, { ruleset: 'dice', options: { sides: ['a', 'b'] } }, 'c')).toEqual({
      type: 'GameCreated',
      data: { ruleset: 'dice', sides: ['a', 'b'], options: { sides: ['a', 'b'] }, commitment: 'c' },
    });
  });

  it('records entropy by the actor, in order', () => {
    const state = given(entropy('player2', 'b'));
    expect(when(state, 'player1', { type: 'ContributeEntropy', payload: { entropy: 'a' } })).toEqual([
      { type: 'EntropyContributed', data: { by: 'player1', entropy: 'a' } },
    ]);
    expect(state.entropy).toEqual([['player2', 'b']]);
  });

  it('locks entropy once a die was rolled', () => {
    const state = given(entropy('player1', 'a'), rolled);
    expect(() => when(state, 'player2', { type: 'ContributeEntropy', payload: { entropy: 'late' } })).toThrow(EntropyLocked);
  });

  it('reveals the seed on Seal, then refuses everything', () => {
    const state = given(rolled);
    expect(when(state, 'organizer', { type: 'Seal', payload: {} }, [], 'ab')).toEqual([{ type: 'GameSealed', data: { serverSeed: 'ab' } }]);
    const sealed = given(rolled, { actor: 'organizer', command: { type: 'Seal', payload: {} }, events: [{ type: 'GameSealed', data: { serverSeed: 'ab' } }] });
    expect(sealed.sealed).toBe(true);
    expect(() => when(sealed, 'player1', { type: 'Roll', payload: { dice: 'd6', purpose: 'p' } }, [1])).toThrow(GameSealed);
  });

  it('hands ruleset commands to the ruleset, with the dice it is given', () => {
    const [event] = when(given(), 'player2', { type: 'Roll', payload: { dice: '2d6', purpose: 'p' } }, [6, 6]);
    expect(event.data.total).toBe(12);
  });

  it('forbids what a role may never send', () => {
    const state = given();
    expect(() => authorize(state, 'Seal', 'player1', false)).toThrow(Forbidden);
    expect(() => authorize(state, 'Roll', 'player3', true)).toThrow(/not a side/);
    expect(() => authorize(state, 'Roll', 'organizer', true)).toThrow(Forbidden);
    expect(() => authorize(state, 'Roll', 'organizer', false)).not.toThrow();
    expect(() => authorize(state, 'Seal', 'organizer', false)).not.toThrow();
  });

  it('indexes every commandId, so that a retry finds its commit', () => {
    const state = given(entropy('player1', 'a'), rolled);
    expect([...state.commandIds]).toEqual([
      ['c0', 1],
      ['c1', 2],
      ['c2', 3],
    ]);
    expect(state.diceRolled).toBe(true);
  });
});
