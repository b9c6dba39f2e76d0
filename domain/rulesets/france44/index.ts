import { defineRuleset, type CommandOf } from '../../defineRuleset';
import type { Ruleset } from '../../ruleset';
import { checkCombatHexes } from './combatGeometry';
import { resolveCombat, rollAirPower } from './combatResolution';
import { decideFrance44 } from './decide';
import * as schema from './schemas';
import { evolveFrance44, initialFrance44State, presentFrance44, type France44State } from './state';
import { summarizeFrance44 } from './summary';
import { crdtResult } from './tables';
import { france44Events } from './events';
import { CURRENT_RULES_VERSION, procedureRulesVersion } from './rulesVersion';

const anySide = { sides: 'all', organizer: false } as const;

const commands = {
  StartTurn: { schema: schema.StartTurn, who: { sides: 'all', organizer: true }, description: 'Open the next game turn; optionally set both reaction point tracks.' },
  ActivateHQ: { schema: schema.ActivateHQ, who: anySide, description: 'Activate one of your HQs in an initiative phase.' },
  BeginReactionSegment: { schema: schema.Empty, who: anySide, description: 'Begin a Reaction Segment.' },
  ReactionPhase: { schema: schema.ReactionPhase, who: anySide, description: 'One Army Reaction Phase (3 points) or a Single-Piece Reaction Phase (1 point).' },
  EndReactionSegment: { schema: schema.Empty, who: anySide, description: 'End your segment; spending 1 or 2 points forfeits up to 3 in all.' },
  DeclineReactionSegment: { schema: schema.Empty, who: anySide, description: 'Decline a Reaction Segment; nothing is lost.' },
  BeginAttackIncrement: { schema: schema.Empty, who: anySide, description: 'Open an attack increment as its attacker.' },
  DeclareCombat: { schema: schema.DeclareCombat, who: anySide, description: 'Declare a combat of the open increment (before any is resolved).' },
  RollAirPower: { schema: schema.RollAirPower, who: { sides: ['allied'], organizer: false }, description: 'Try air power for one declared combat: one attempt per increment.' },
  ResolveCombat: { schema: schema.CombatRef, who: anySide, description: 'Resolve a declared combat on the Revised Combat Table (one d6).' },
  EndAttackIncrement: { schema: schema.Empty, who: anySide, description: 'End the increment once every declared combat is resolved.' },
  ApplySupplyAttrition: { schema: schema.ApplySupplyAttrition, who: anySide, description: 'Administrative phase: out-of-supply losses of your units.' },
} as const;

/** A France 1944 command, its payload as its schema parsed it. */
export type France44Command = CommandOf<typeof commands>;

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
  present: presentFrance44,
  summarize: summarizeFrance44,
});
