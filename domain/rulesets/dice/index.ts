import { defineRuleset, unknownEvent } from '../../defineRuleset';
import type { Ruleset } from '../../ruleset';
import { decidePassTurn, firstToMove, passTurnCommand, passTurnSummary, type TurnHolder } from '../passTurn';
import { rollDice, rollSeveral } from './roll';
import { describeRoll } from './rollText';
import { CURRENT_RULES_VERSION, gameRulesVersion, procedureRulesVersion, type RulesVersion } from './rulesVersion';
import { DiceOptions, DiceView, Roll, RollProcedureInput } from './schemas';
import { diceEvents } from './events';
import { diceResultText } from './resultText';
import { rollSummaries } from './summary';

export interface DiceState extends TurnHolder {
  rolls: number;
  lastRoll: { purpose: string; dice: string; total: number } | null;
  /** The notation the game reads (rulesVersion.ts): not part of the view. */
  rulesVersion: RulesVersion;
}

export const diceRuleset: Ruleset<DiceState, DiceOptions> = defineRuleset({
  id: 'dice',
  title: 'Dice — a trusted roller',
  description: 'Fair, recorded dice for any game: every roll says what it is for.',
  newGameOptions: { rulesVersion: CURRENT_RULES_VERSION },
  // 2: the state holds the game's rulesVersion; 3: its sides and whose move it is.
  stateVersion: 3,
  // Its state decides nothing: a voided roll stays recorded and marked, and no longer counts.
  voiding: 'any',
  options: DiceOptions,
  sidesNote: 'player1 and player2, or the 2 to 8 names given in the option "sides"',
  sides: (options) => options.sides,
  commands: {
    Roll: {
      schema: Roll,
      who: { sides: 'all', organizer: true },
      description: 'Roll dice for a stated purpose; or several labelled rolls at once ({ "rolls": [{ "dice", "purpose" }, …] }, up to 10), one commit.',
    },
    PassTurn: passTurnCommand,
  },
  procedures: {
    roll: {
      input: RollProcedureInput,
      description: 'Roll a dice expression without a game.',
      evaluate(input: RollProcedureInput, options, dice) {
        const outcome = rollDice(input.dice, dice, procedureRulesVersion(options), 'input.dice');
        return {
          result: { total: outcome.total, rolls: outcome.rolls.map((r) => r.value) },
          breakdown: { dice: outcome.dice, modifier: outcome.modifier, text: describeRoll(outcome) },
        };
      },
    },
  },
  view: DiceView,
  events: diceEvents,
  initialState: (options): DiceState => ({ rolls: 0, lastRoll: null, rulesVersion: gameRulesVersion(options), ...firstToMove(options.sides) }),
  decide(state, command, ctx) {
    if (command.type === 'PassTurn') return [decidePassTurn(state, command.payload, ctx.actor)];
    const { payload } = command;
    if ('rolls' in payload) {
      const outcomes = rollSeveral(
        payload.rolls.map((roll) => roll.dice),
        ctx.dice,
        state.rulesVersion,
        (index) => `payload.rolls[${index}].dice`,
      );
      return outcomes.map((outcome, index) => ({ type: 'DiceRolled' as const, data: { purpose: payload.rolls[index].purpose, ...outcome } }));
    }
    const outcome = rollDice(payload.dice, ctx.dice, state.rulesVersion, 'payload.dice');
    return [{ type: 'DiceRolled', data: { purpose: payload.purpose, ...outcome } }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'DiceRolled': {
        const { purpose, dice, total } = event.data;
        return { ...state, rolls: state.rolls + 1, lastRoll: { purpose, dice, total } };
      }
      case 'TurnPassed':
        return { ...state, toMove: event.data.to };
      default:
        return unknownEvent(event, state);
    }
  },
  toMove: (state) => state.toMove,
  present: ({ rolls, lastRoll, toMove }) => ({ rolls, lastRoll, toMove }),
  resultText: (_command, events) => diceResultText(events),
  summarize: (command, events) => (command.type === 'PassTurn' ? passTurnSummary(command.payload.to) : rollSummaries(events).join('; ')),
  summaryLines: (command, events) => (command.type === 'PassTurn' ? [passTurnSummary(command.payload.to)] : rollSummaries(events)),
});
