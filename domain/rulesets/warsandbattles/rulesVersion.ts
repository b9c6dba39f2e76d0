/**
 * Which rules a Wars and Battles game plays. Version 2 (issue 31, rules fidelity II) follows
 * the manual where version 1 did not: docs/rulesets/wars-and-battles.md lists each change. A
 * game's commit 1 records the options it was created with; one recorded without `rulesVersion`
 * was created before version 2 existed and keeps playing version 1, so that it still replays
 * and verifies.
 */
export { gameRulesVersion } from '../rulesVersion';
export const RULES_VERSIONS = [1, 2] as const;
export type RulesVersion = (typeof RULES_VERSIONS)[number];
export const CURRENT_RULES_VERSION: RulesVersion = 2;

/** The calculators (/evaluate): the current rules unless the request names a version. */
export const procedureRulesVersion = (options: { rulesVersion?: RulesVersion }): RulesVersion => options.rulesVersion ?? CURRENT_RULES_VERSION;
