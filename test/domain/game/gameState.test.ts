import { describe, expect, it } from 'vitest';
import type { Commit } from '../../../domain/fairness/hashChain';
import { buildCommit } from '../../../domain/game/buildCommit';
import { CommandIdIndex } from '../../../domain/game/commandIds';
import { decideCreate } from '../../../domain/game/decideGame';
import { evolveGame, rememberCommandId, type GameState } from '../../../domain/game/gameState';
import type { Command, DomainEvent } from '../../../domain/ruleset';
import { diceRuleset } from '../../../domain/rulesets/dice';

const roll = (n: number): { command: Command; events: DomainEvent[] } => ({
  command: { type: 'Roll', payload: { dice: 'd6', purpose: `roll ${n}` } },
  events: [{ type: 'DiceRolled', data: { purpose: `roll ${n}`, dice: '1d6', rolls: [{ sides: 6, value: 3 }], modifier: 0, total: 3 } }],
});

function commitAfter(state: GameState | undefined, commandId: string, step: { command: Command; events: DomainEvent[] }, actor = 'player1'): Commit {
  return buildCommit(
    {
      gameId: 'g',
      seq: (state?.version ?? 0) + 1,
      prevHash: state?.lastHash ?? '0'.repeat(64),
      commandId,
      actor,
      viaOrganizer: false,
      command: step.command,
      events: step.events,
      dice: [],
      recordedAt: '2026-01-01T00:00:00.000Z',
      kid: 'k',
    },
    () => '',
  );
}

function created(): GameState {
  const body = { ruleset: 'dice' };
  return evolveGame(undefined, commitAfter(undefined, 'create', { command: { type: 'CreateGame', payload: body }, events: [decideCreate(diceRuleset, body, 'c'.repeat(64))] }, 'organizer'));
}

/** Everything a player or the store could read of a state, as plain data. */
const snapshot = (state: GameState) => ({
  ...state,
  ruleset: state.ruleset.id,
  credentials: [...state.credentials],
  commandIds: [...state.commandIds],
  rules: structuredClone(state.rules),
});

describe('evolveGame', () => {
  it('leaves the state it folds from as it was: commandIds, credentials, entropy and rules', () => {
    let state = created();
    for (let n = 1; n <= 3; n++) state = evolveGame(state, commitAfter(state, `r${n}`, roll(n)));
    const before = snapshot(state);
    const steps: [string, { command: Command; events: DomainEvent[] }][] = [
      ['e', { command: { type: 'ContributeEntropy', payload: { entropy: 'x' } }, events: [{ type: 'EntropyContributed', data: { by: 'player1', entropy: 'x' } }] }],
      ['t', { command: { type: 'ReissueToken', payload: { role: 'player2', tokenId: 't2' } }, events: [{ type: 'TokenReissued', data: { role: 'player2', tokenId: 't2' } }] }],
      ['r4', roll(4)],
    ];
    for (const [commandId, step] of steps) {
      const next = evolveGame(state, commitAfter(state, commandId, step));
      expect(snapshot(state)).toEqual(before);
      expect(next.commandIds.get(commandId)).toBe(5);
      expect(state.commandIds.has(commandId)).toBe(false);
    }
  });

  it('folds two different next commits from one state without either seeing the other (a group decided again after a conflict)', () => {
    let state = created();
    for (let n = 1; n <= 150; n++) state = evolveGame(state, commitAfter(state, `r${n}`, roll(n)));
    const mine = evolveGame(state, commitAfter(state, 'mine', roll(151)));
    const theirs = evolveGame(state, commitAfter(state, 'theirs', roll(151)));
    expect(mine.commandIds.get('mine')).toBe(152);
    expect(mine.commandIds.has('theirs')).toBe(false);
    expect(theirs.commandIds.get('theirs')).toBe(152);
    expect(theirs.commandIds.has('mine')).toBe(false);
    expect(state.commandIds.size).toBe(151);
    expect([...mine.commandIds].map(([id]) => id)).toEqual(['create', ...Array.from({ length: 150 }, (_, i) => `r${i + 1}`), 'mine']);
  });

  it('folds on from a state whose commandIds are a plain Map (a snapshot loaded), without changing that Map', () => {
    let state = created();
    for (let n = 1; n <= 3; n++) state = evolveGame(state, commitAfter(state, `r${n}`, roll(n)));
    const loaded = new Map(state.commandIds);
    const next = evolveGame({ ...state, commandIds: loaded }, commitAfter(state, 'r4', roll(4)));
    expect(loaded.has('r4')).toBe(false);
    expect(next.commandIds.get('r4')).toBe(5);
    expect(next.commandIds.get('r1')).toBe(2);
  });

  it('remembers a commandId found in the store in a new state, not in the one given', () => {
    const state = created();
    const remembered = rememberCommandId(state, 'old', 1);
    expect(remembered.commandIds.get('old')).toBe(1);
    expect(state.commandIds.has('old')).toBe(false);
  });
});

describe('CommandIdIndex', () => {
  it('lists, counts and finds every entry across its merges, each index as it was made', () => {
    const indexes = [CommandIdIndex.of([])];
    for (let n = 0; n < 500; n++) indexes.push(indexes[n].with(`c${n}`, n + 1));
    for (const at of [0, 1, 63, 64, 65, 200, 500]) {
      const index = indexes[at];
      expect(index.size).toBe(at);
      expect([...index]).toEqual(Array.from({ length: at }, (_, n) => [`c${n}`, n + 1]));
      expect(index.get(`c${at}`)).toBeUndefined();
      if (at > 0) expect(index.get(`c${at - 1}`)).toBe(at);
    }
  });
});
