/**
 * Which rules a France 1944 game plays. Version 2 adds issue 19's refusals (an HQ attacking
 * alone, an out-of-supply HQ in an attack, more than 8 attacking units). A game's commit 1
 * records the options it was created with; one recorded without `rulesVersion` was created
 * before version 2 existed and keeps playing version 1, so that it still replays and verifies.
 */
import type { RulesVersion } from '../rulesVersion';

export { gameRulesVersion, RULES_VERSIONS, type RulesVersion } from '../rulesVersion';
export const CURRENT_RULES_VERSION: RulesVersion = 2;

/** The calculators (/evaluate): the current rules unless the request names a version. */
export const procedureRulesVersion = (options: { rulesVersion?: RulesVersion }): RulesVersion => options.rulesVersion ?? CURRENT_RULES_VERSION;
