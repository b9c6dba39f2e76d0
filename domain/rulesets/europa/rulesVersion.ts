/**
 * Which events a Europa game records. Version 2 (issue 30): a step that changes many
 * fortifications at once (a turn completing improvements, the Allied initial phase, the end
 * of an emergency restoration) records one event naming the step and how many hexes it
 * changed, not one event per hex, so that a commit stays small however large the Westwall.
 * A game's commit 1 records the options it was created with; one recorded without
 * `rulesVersion` was created before version 2 and keeps recording version 1's events, so
 * that it still replays and verifies.
 */
export { gameRulesVersion } from '../rulesVersion';
export const RULES_VERSIONS = [1, 2] as const;
export type RulesVersion = (typeof RULES_VERSIONS)[number];
export const CURRENT_RULES_VERSION: RulesVersion = 2;
