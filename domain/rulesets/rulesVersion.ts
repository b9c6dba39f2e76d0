/**
 * The versions of a ruleset's rules that a game can be played under. A game's commit 1
 * records the options it was created with; one recorded without `rulesVersion` was created
 * before version 2 existed and keeps playing version 1, so that it still replays and verifies.
 * Each ruleset says in its own rulesVersion.ts what its version 2 changed.
 */
export type RulesVersion = 1 | 2;
export const RULES_VERSIONS = [1, 2] as const;

/** A game: the version its creation recorded; none recorded means a game from before version 2. */
export const gameRulesVersion = (options: { rulesVersion?: RulesVersion }): RulesVersion => options.rulesVersion ?? 1;
