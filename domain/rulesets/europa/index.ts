import { defineRuleset } from '../../defineRuleset';
import { commands } from './commands';
import type { Ruleset } from '../../ruleset';
import { resolveAAFires, type AAFireOutcome } from './aaFire';
import { EXAMPLE_AA_TABLE } from './aaTable';
import { decideEuropa } from './decide';
import { CURRENT_RULES_VERSION, procedureRulesVersion } from './rulesVersion';
import { europaEvents } from './events';
import { fortificationEffects } from './fortificationChart';
import * as schema from './schemas';
import { europaToMove, evolveEuropa, initialEuropaState, presentEuropa, SIDES, type EuropaState } from './state';
import { summarizeEuropa } from './summary';
import { europaResultText } from './resultText';

export const europaRuleset: Ruleset<EuropaState, schema.EuropaOptions> = defineRuleset({
  id: 'europa',
  title: 'Europa (Second Front): AA fire (37L) and fortifications (30A4)',
  description:
    'The minimum-dice-roll AA fire of optional rule 37L on an AA fire table brought as data (strength by mission, cumulative column shifts, 2d6, losses allocated over randomly selected air units), and the fortification effects chart and state of rule 30A4.',
  // The AA table goes into the creation request that commit 1 records: a game replays with exactly its table.
  newGameOptions: { aaTable: EXAMPLE_AA_TABLE, otherEuropaGames: false, rulesVersion: CURRENT_RULES_VERSION },
  // 2: the state holds the AA table alone (its hash is derived where it is shown); 3: and the game's rulesVersion; 4: a fort's construction.
  stateVersion: 4,
  options: schema.EuropaOptions,
  sidesNote: 'axis and allied',
  sides: () => SIDES,
  commands,
  procedures: {
    aaFire: {
      input: schema.AAFireProcedureInput,
      description: 'Resolve one AA fire without a game, on the table given, or the options\' table (the example by default): 2d6, then one die per random selection.',
      evaluate(input, options, dice) {
        const outcomes = resolveAAFires(input, input.table ?? options.aaTable, options.otherEuropaGames, dice, procedureRulesVersion(options));
        const effects = (outcome: AAFireOutcome) => [
          ...outcome.allocation.selections.filter((s) => s.effect).map((s) => ({ unitId: s.unitId, effect: s.effect })),
          ...outcome.allocation.unaffected.map((unitId) => ({ unitId, effect: 'unaffected' })),
        ];
        const fire = (outcome: AAFireOutcome) => ({ column: outcome.resolution.landing.column.label, roll: outcome.resolution.roll!.modified, result: outcome.result, units: effects(outcome) });
        if (outcomes.length === 1) return { result: fire(outcomes[0]), breakdown: outcomes[0] };
        // Harassment by several units (rules version 3): one fire on each.
        return { result: { fires: outcomes.map((outcome) => ({ unitId: outcome.target, ...fire(outcome) })) }, breakdown: outcomes };
      },
    },
    fortificationEffects: {
      input: schema.FortificationEffectsInput,
      description: 'The fortification effects chart and the other DRMs for one attack: DRM, AEC (reduced in winter and snow from rules version 3), attackers halved (by fortifications, and by supply from rules version 3), ground support halved, retreat. No dice.',
      evaluate(input, options) {
        const effects = fortificationEffects(input, procedureRulesVersion(options));
        const armor = effects.armorEffectsReduced === undefined ? {} : { armorEffectsReduced: effects.armorEffectsReduced };
        return {
          result: { drm: effects.drm, noAec: effects.noAec, ...armor, attack: effects.attack, groundSupport: effects.groundSupport?.counted ?? null, defenderIgnoresRetreat: effects.defenderIgnoresRetreat },
          breakdown: effects,
        };
      },
    },
  },
  view: schema.EuropaView,
  events: europaEvents,
  initialState: (options: schema.EuropaOptions) => initialEuropaState(options),
  decide: decideEuropa,
  evolve: evolveEuropa,
  toMove: europaToMove,
  present: presentEuropa,
  summarize: summarizeEuropa,
  resultText: europaResultText,
});
