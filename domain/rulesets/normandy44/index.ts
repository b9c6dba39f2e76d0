import { defineRuleset } from '../../defineRuleset';
import { commands } from './commands';
import type { Ruleset } from '../../ruleset';
import { resolveAttack } from './attackResolution';
import { decideNormandy44 } from './decide';
import { rollDeterminedDefense, rollIsolation, rollJabos, rollStrafing } from './otherRolls';
import * as schema from './schemas';
import { evolveNormandy44, initialNormandy44State, normandy44ToMove, presentNormandy44, type Normandy44State } from './state';
import { summarizeNormandy44 } from './summary';
import { normandy44Events } from './events';
import { normandy44ResultText } from './resultText';

export const normandy44Ruleset: Ruleset<Normandy44State, schema.Normandy44Options> = defineRuleset({
  id: 'normandy44',
  title: "Normandy '44 (GMT), combat system",
  description: 'Factor halving, the 18-factor cap, terrain bonuses and shifts, Jabos, Determined Defense, strafing, isolation, Allied reinforcement points.',
  options: schema.Normandy44Options,
  sides: () => ['allied', 'german'],
  commands,
  procedures: {
    combat: {
      input: schema.CombatProcedureInput,
      description: 'Resolve an attack: Jabos die first for a German attack in clear weather, then the combat die.',
      evaluate: (input, _options, dice) => resolveAttack(input, input.attackerSide, dice),
    },
    'determined-defense': { input: schema.DeterminedDefenseInput, description: 'Determined Defense table (one die).', evaluate: (input, _o, dice) => rollDeterminedDefense(input, dice) },
    jabos: { input: schema.JabosInput, description: 'Jabos table (one die).', evaluate: (_input, _o, dice) => rollJabos(dice) },
    strafing: { input: schema.StrafingInput, description: 'Strafing table (one die).', evaluate: (input, _o, dice) => rollStrafing(input, dice) },
    isolation: { input: schema.IsolationInput, description: 'Isolation attrition table (one die).', evaluate: (input, _o, dice) => rollIsolation(input, dice) },
  },
  view: schema.Normandy44View,
  events: normandy44Events,
  initialState: () => initialNormandy44State(),
  decide: decideNormandy44,
  evolve: evolveNormandy44,
  toMove: normandy44ToMove,
  present: presentNormandy44,
  summarize: summarizeNormandy44,
  resultText: normandy44ResultText,
});
