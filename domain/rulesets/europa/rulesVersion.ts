/**
 * Which events a Europa game records. Version 2 (issue 30): a step that changes many
 * fortifications at once (a turn completing improvements, the Allied initial phase, the end
 * of an emergency restoration) records one event naming the step and how many hexes it
 * changed, not one event per hex, so that a commit stays small however large the Westwall.
 * A game's commit 1 records the options it was created with; one recorded without
 * `rulesVersion` was created before version 2 and keeps recording version 1's events, so
 * that it still replays and verifies.
 */
import type { RulesVersion } from '../rulesVersion';

export { gameRulesVersion, RULES_VERSIONS, type RulesVersion } from '../rulesVersion';
export const CURRENT_RULES_VERSION: RulesVersion = 2;
