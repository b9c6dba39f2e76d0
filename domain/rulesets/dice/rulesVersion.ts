/**
 * Which rules a dice game plays. Version 2 (issue 36) reads the notation wargamers use: d66
 * (tens then units), d%, keep highest/lowest, target numbers and exploding dice; in version 1
 * "d66" was a 66-sided die and the rest was refused. A game's commit 1 records the options it
 * was created with; one recorded without `rulesVersion` was created before version 2 existed
 * and keeps playing version 1, so that it still replays and verifies.
 */
export { gameRulesVersion } from '../rulesVersion';
export const RULES_VERSIONS = [1, 2] as const;
export type RulesVersion = (typeof RULES_VERSIONS)[number];
export const CURRENT_RULES_VERSION: RulesVersion = 2;

/** The calculator (/evaluate): the current rules unless the request names a version. */
export const procedureRulesVersion = (options: { rulesVersion?: RulesVersion }): RulesVersion => options.rulesVersion ?? CURRENT_RULES_VERSION;
