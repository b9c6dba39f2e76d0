import type { Commit } from '../fairness/hashChain';
import { findRuleset } from '../rulesets/registry';
import { foldCommit, type GameState } from './gameFold';

export * from './gameFold';

/**
 * The fold with every ruleset at hand (the registry): the verifier's and the web app's.
 * The service loads a game's own ruleset on demand and folds with gameFold.ts
 * (functions/application/rulesetLoader.ts), so that a function starts without the others.
 */
export function evolveGame(state: GameState | undefined, commit: Commit): GameState {
  return foldCommit(state, commit, findRuleset);
}
