/**
 * Which rules a Europa game plays. Version 2 (issue 30) changed only which events are
 * recorded: a step that changes many fortifications at once (a turn completing improvements,
 * the Allied initial phase, the end of an emergency restoration) records one event naming the
 * step and how many hexes it changed, not one event per hex. Version 3 (issue 31) changes
 * outcomes: the +1 for German or Allied AA is applied from the fire's nationality, date and
 * strength (a claim only cross-checks it); harassment fires once on each harassing unit; an
 * attack through an improved fortified hexside into a fortification that halves is halved by
 * both; a fort built during play takes 2 turns (1 with quick construction by a construction
 * brigade of defence 2 or more) and is in effect only once built; out-of-supply attackers are
 * halved except in their first turn out of supply unless isolated.
 * A game's commit 1 records the options it was created with; one recorded without
 * `rulesVersion` was created before version 2 and keeps playing version 1, so that it still
 * replays and verifies.
 */
export { gameRulesVersion } from '../rulesVersion';
export const RULES_VERSIONS = [1, 2, 3] as const;
export type RulesVersion = (typeof RULES_VERSIONS)[number];
export const CURRENT_RULES_VERSION: RulesVersion = 3;

/** The calculators (/evaluate): the current rules unless the request names a version. */
export const procedureRulesVersion = (options: { rulesVersion?: RulesVersion }): RulesVersion => options.rulesVersion ?? CURRENT_RULES_VERSION;
