import { defineRuleset } from '../../defineRuleset';
import { commands } from './commands';
import type { Ruleset } from '../../ruleset';
import { checkCombatHexes } from './combatGeometry';
import { resolveCombat, rollAirPower } from './combatResolution';
import { decideFrance44 } from './decide';
import * as schema from './schemas';
import { evolveFrance44, france44ToMove, initialFrance44State, presentFrance44, type France44State } from './state';
import { summarizeFrance44 } from './summary';
import { crdtResult } from './tables';
import { france44Events } from './events';
import { CURRENT_RULES_VERSION, procedureRulesVersion } from './rulesVersion';
import { france44ResultText } from './resultText';

export const france44Ruleset: Ruleset<France44State, schema.France44Options> = defineRuleset({
  id: 'france44',
  newGameOptions: { rulesVersion: CURRENT_RULES_VERSION },
  title: 'France 1944 (Savarese revisions v2.0.6)',
  description:
    'Revised Combat Table with morale and control modifiers, all-or-nothing reaction points, air power rolled per combat increment, HQ activation errata.',
  options: schema.France44Options,
  sides: () => ['allied', 'german'],
  commands,
  procedures: {
    combat: {
      input: schema.CombatProcedureInput,
      description: 'Resolve one combat on the Revised Combat Table (one d6).',
      evaluate(input, options, dice) {
        checkCombatHexes(input.attackers.map((a) => a.hex), input.defenders.map((d) => d.hex), options.hexGrid);
        const breakdown = resolveCombat(input, { ...options, rulesVersion: procedureRulesVersion(options) }, input.airPower === true, dice);
        return { result: { code: breakdown.code, column: breakdown.column, dieModifier: breakdown.dieModifier, adjustedDie: breakdown.adjustedDie }, breakdown };
      },
    },
    crdt: {
      input: schema.CrdtInput,
      description: 'Alternative CRDT (Table 3): no dice.',
      evaluate(input) {
        return { result: { code: crdtResult(input.ratioResult, input.defenderMorale, input.attackerMorale, input.kind) }, breakdown: { ...input } };
      },
    },
    'air-power': {
      input: schema.AirPowerInput,
      description: 'Roll for air power on the Air Power Availability Track (one d6).',
      evaluate(input, _options, dice) {
        const roll = rollAirPower(input.availability, dice);
        return { result: { allocated: roll.allocated }, breakdown: roll };
      },
    },
  },
  view: schema.France44View,
  events: france44Events,
  initialState: (options: schema.France44Options) => initialFrance44State(options),
  decide: (state, command, ctx) => decideFrance44(state, command, ctx, state.options),
  evolve: evolveFrance44,
  toMove: france44ToMove,
  present: presentFrance44,
  summarize: summarizeFrance44,
  resultText: france44ResultText,
});
