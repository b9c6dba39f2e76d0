import { defineRuleset } from '../../defineRuleset';
import { commands } from './commands';
import type { Ruleset } from '../../ruleset';
import { resolveAAFire } from './aaFire';
import { EXAMPLE_AA_TABLE } from './aaTable';
import { decideEuropa } from './decide';
import { CURRENT_RULES_VERSION } from './rulesVersion';
import { europaEvents } from './events';
import { fortificationEffects } from './fortificationChart';
import * as schema from './schemas';
import { evolveEuropa, initialEuropaState, presentEuropa, SIDES, type EuropaState } from './state';
import { summarizeEuropa } from './summary';

export const europaRuleset: Ruleset<EuropaState, schema.EuropaOptions> = defineRuleset({
  id: 'europa',
  title: 'Europa (Second Front): AA fire (37L) and fortifications (30A4)',
  description:
    'The minimum-dice-roll AA fire of optional rule 37L on an AA fire table brought as data (strength by mission, cumulative column shifts, 2d6, losses allocated over randomly selected air units), and the fortification effects chart and state of rule 30A4.',
  // The AA table goes into the creation request that commit 1 records: a game replays with exactly its table.
  newGameOptions: { aaTable: EXAMPLE_AA_TABLE, otherEuropaGames: false, rulesVersion: CURRENT_RULES_VERSION },
  // 2: the state holds the AA table alone (its hash is derived where it is shown); 3: and the game's rulesVersion.
  stateVersion: 3,
  options: schema.EuropaOptions,
  sidesNote: 'axis and allied',
  sides: () => SIDES,
  commands,
  procedures: {
    aaFire: {
      input: schema.AAFireProcedureInput,
      description: 'Resolve one AA fire without a game, on the table given, or the options\' table (the example by default): 2d6, then one die per random selection.',
      evaluate(input, options, dice) {
        const outcome = resolveAAFire(input, input.table ?? options.aaTable, options.otherEuropaGames, dice);
        const effects = [
          ...outcome.allocation.selections.filter((s) => s.effect).map((s) => ({ unitId: s.unitId, effect: s.effect })),
          ...outcome.allocation.unaffected.map((unitId) => ({ unitId, effect: 'unaffected' })),
        ];
        return { result: { column: outcome.resolution.landing.column.label, roll: outcome.resolution.roll!.modified, result: outcome.result, units: effects }, breakdown: outcome };
      },
    },
    fortificationEffects: {
      input: schema.FortificationEffectsInput,
      description: 'The fortification effects chart and the other DRMs for one attack: DRM, AEC, attackers and ground support halved, retreat. No dice.',
      evaluate(input) {
        const effects = fortificationEffects(input);
        return { result: { drm: effects.drm, noAec: effects.noAec, attack: effects.attack, groundSupport: effects.groundSupport?.counted ?? null, defenderIgnoresRetreat: effects.defenderIgnoresRetreat }, breakdown: effects };
      },
    },
  },
  view: schema.EuropaView,
  events: europaEvents,
  initialState: (options: schema.EuropaOptions) => initialEuropaState(options),
  decide: decideEuropa,
  evolve: evolveEuropa,
  present: presentEuropa,
  summarize: summarizeEuropa,
});
