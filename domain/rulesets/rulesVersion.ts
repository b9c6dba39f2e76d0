/**
 * The versions of a ruleset's rules that a game can be played under. A game's commit 1
 * records the options it was created with; one recorded without `rulesVersion` was created
 * before version 2 existed and keeps playing version 1, so that it still replays and verifies.
 * Each ruleset lists its own versions, and says what each changed, in its own rulesVersion.ts.
 */
export type AnyRulesVersion = 1 | 2 | 3;

/** A game: the version its creation recorded; none recorded means a game from before version 2. */
export const gameRulesVersion = <V extends AnyRulesVersion>(options: { rulesVersion?: V }): V | 1 => options.rulesVersion ?? 1;
