import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRuleset, RULESET_IDS } from '../../../functions/application/rulesetLoader';
import type { Commit } from '../../../domain/fairness/hashChain';
import { buildCommit } from '../../../domain/game/buildCommit';
import { decideGame } from '../../../domain/game/decideGame';
import { evolveGame, type GameState } from '../../../domain/game/gameState';
import { GivenDice } from '../../../domain/dice';
import { snapshotOf, stateOf } from '../../../functions/application/snapshots';
import { memoryService } from '../../support/memoryService';

const fixture = JSON.parse(readFileSync(new URL('../../domain/rulesets/france44/fixtures/game-before-issue-19.json', import.meta.url), 'utf8')) as { bundle: { commits: Commit[] } };

/** A snapshot written and read back, as a cold process reads it. */
const throughSnapshot = (state: GameState) => stateOf(state.gameId, JSON.parse(JSON.stringify(snapshotOf(state))))!.state;

function voidOf(state: GameState, seq: number): Commit {
  const payload = { seq, reason: 'ruled illegal' };
  const events = decideGame(state, { type: 'Void', payload }, { actor: 'organizer', dice: new GivenDice([]), now: state.lastRecordedAt });
  return buildCommit(
    { gameId: state.gameId, seq: state.version + 1, prevHash: state.lastHash, commandId: `void-${seq}`, actor: 'organizer', viaOrganizer: false, command: { type: 'Void', payload }, events, dice: [], recordedAt: state.lastRecordedAt, kid: 'k' },
    () => '',
  );
}

// The service reads a game's ruleset once it has loaded it (rulesetLoader.ts); these games are folded with the domain's registry.
beforeAll(async () => {
  for (const id of RULESET_IDS) await loadRuleset(id);
});

describe('a snapshot of a game with voids and rulings', () => {
  it('keeps the undo of a ruleset with state: a Void after the snapshot restores what it would have without one', () => {
    const afterEight = fixture.bundle.commits.slice(0, 8).reduce<GameState | undefined>(evolveGame, undefined)!;
    const held = throughSnapshot(afterEight);
    expect(held.undo).toEqual(afterEight.undo);
    const voidCommit = voidOf(afterEight, 8);
    expect(evolveGame(held, voidCommit).rules).toEqual(evolveGame(afterEight, voidCommit).rules);
  });

  it('keeps what is voided and the rulings: a second Void of the same commit is still refused after it', async () => {
    const { service, store } = memoryService('void-snapshot');
    const game = await service.createGame({ ruleset: 'dice' });
    const { organizer, players } = game.tokens;
    await service.submit(game.gameId, players.player1, { commandId: 'r', type: 'Roll', payload: { dice: '2d6', purpose: 'assault' } });
    await service.submit(game.gameId, organizer, { commandId: 'v', type: 'Void', payload: { seq: 2, reason: 'wrong dice' } });
    await service.submit(game.gameId, organizer, { commandId: 'u', type: 'Ruling', payload: { text: 'reroll with 3d6', concerning: [2] } });
    const state = (await store.read(game.gameId, 0)).reduce<GameState | undefined>(evolveGame, undefined)!;
    const held = throughSnapshot(state);
    expect(held.voided).toEqual(new Map([[2, { by: 3, reason: 'wrong dice' }]]));
    expect(held.rulings).toBe(1);
    expect(held.rulesCommits).toEqual([[2, 2]]);
    expect(() => decideGame(held, { type: 'Void', payload: { seq: 2, reason: 'again' } }, { actor: 'organizer', dice: new GivenDice([]), now: '' })).toThrow('#2 is already voided (by #3).');
  });

  it('written before voids existed is not trusted: the game is folded again from its commits', () => {
    const state = fixture.bundle.commits.slice(0, 8).reduce<GameState | undefined>(evolveGame, undefined)!;
    const snapshot = JSON.parse(JSON.stringify(snapshotOf(state)));
    const { voided: _voided, rulesCommits: _rulesCommits, undo: _undo, rulings: _rulings, ...older } = JSON.parse(snapshot.state);
    expect(stateOf(state.gameId, { ...snapshot, format: 1, state: JSON.stringify(older) })).toBeUndefined();
  });
});
