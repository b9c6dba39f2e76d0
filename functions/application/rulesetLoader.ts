import type { Commit } from '../../domain/fairness/hashChain';
import { foldCommit, type GameState } from '../../domain/game/gameFold';
import type { Ruleset } from '../../domain/ruleset';

/**
 * The service's rulesets, each loaded the first time a game of it is created or read: a
 * Lambda function's cold start carries none of them (each is a chunk of its own, infra/bundling.ts),
 * only the one its first game needs. The order is the registry's (domain/rulesets/registry.ts,
 * which the verifier and the web app use, all at hand); rulesetLoader.test.ts checks they agree.
 */
const LOADERS = new Map<string, () => Promise<Ruleset>>([
  ['dice', async () => (await import('../../domain/rulesets/dice')).diceRuleset],
  ['france44', async () => (await import('../../domain/rulesets/france44')).france44Ruleset],
  ['normandy44', async () => (await import('../../domain/rulesets/normandy44')).normandy44Ruleset],
  ['memoir44-d6', async () => (await import('../../domain/rulesets/memoir44')).memoir44Ruleset],
  ['table', async () => (await import('../../domain/rulesets/table')).tableRuleset],
  ['wars-and-battles', async () => (await import('../../domain/rulesets/warsandbattles')).warsAndBattlesRuleset],
  ['europa', async () => (await import('../../domain/rulesets/europa')).europaRuleset],
]);

/** Every ruleset id the service knows, loaded or not. */
export const RULESET_IDS: readonly string[] = [...LOADERS.keys()];

const loaded = new Map<string, Ruleset>();

/** The ruleset `id` names, loading it first if no game of it came before; undefined for an id the service does not know. */
export async function loadRuleset(id: string): Promise<Ruleset | undefined> {
  const known = loaded.get(id);
  if (known) return known;
  const load = LOADERS.get(id);
  if (!load) return undefined;
  const ruleset = await load();
  loaded.set(id, ruleset);
  return ruleset;
}

/** A ruleset already loaded, synchronously: the lookup folds use once loadRuleset has been awaited. */
export const loadedRuleset = (id: string): Ruleset | undefined => loaded.get(id);

/** The ruleset a game's commit 1 names; the rest of its commits fold with the ruleset the state holds. */
export const rulesetIdOf = (first: Commit): string | undefined => {
  const data = first.events[0]?.data as { ruleset?: unknown } | undefined;
  return typeof data?.ruleset === 'string' ? data.ruleset : undefined;
};

/** Loads the ruleset of a game whose commit 1 is `first`, for evolveGame to find it. */
export async function loadRulesetOf(first: Commit | undefined): Promise<void> {
  const id = first && first.seq === 1 ? rulesetIdOf(first) : undefined;
  if (id !== undefined) await loadRuleset(id);
}

/** gameFold's fold with the rulesets loaded so far: commit 1's ruleset must have been loaded (loadRulesetOf). */
export function evolveGame(state: GameState | undefined, commit: Commit): GameState {
  return foldCommit(state, commit, loadedRuleset);
}
