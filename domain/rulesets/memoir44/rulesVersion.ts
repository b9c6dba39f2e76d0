/**
 * Which rules a Memoir '44 d6 game plays. Version 2 adds issue 19's rules that change what a
 * battle rolls or refuses (a cavalry target's defensive roll, figures bounded by unit type).
 * A game's commit 1 records the options it was created with; one recorded without
 * `rulesVersion` was created before version 2 existed and keeps playing version 1, so that
 * it still replays and verifies.
 */
export { gameRulesVersion } from '../rulesVersion';
export const RULES_VERSIONS = [1, 2] as const;
export type RulesVersion = (typeof RULES_VERSIONS)[number];
export const CURRENT_RULES_VERSION: RulesVersion = 2;

/** The calculators (/evaluate): the current rules unless the request names a version. */
export const procedureRulesVersion = (options: { rulesVersion?: RulesVersion }): RulesVersion => options.rulesVersion ?? CURRENT_RULES_VERSION;
