import type { DomainEvent, Ruleset } from '../../ruleset';
import { describeRoll, rollDice, type RollOutcome } from './roll';
import { DiceOptions, DiceView, Roll, RollProcedureInput } from './schemas';
import { diceEvents } from './events';

export interface DiceState {
  rolls: number;
  lastRoll: { purpose: string; dice: string; total: number } | null;
}

interface DiceRolledData extends RollOutcome {
  purpose: string;
}

export const diceRuleset: Ruleset<DiceState, DiceOptions> = {
  id: 'dice',
  title: 'Dice — a trusted roller',
  description: 'Fair, recorded dice for any game: every roll says what it is for.',
  options: DiceOptions,
  sidesNote: 'player1 and player2, or the 2 to 8 names given in the option "sides"',
  sides: (options) => options.sides,
  commands: {
    Roll: {
      schema: Roll,
      who: { sides: 'all', organizer: true },
      description: 'Roll dice for a stated purpose.',
    },
  },
  procedures: {
    roll: {
      input: RollProcedureInput,
      description: 'Roll a dice expression without a game.',
      evaluate(input: RollProcedureInput, _options, dice) {
        const outcome = rollDice(input.dice, dice);
        return {
          result: { total: outcome.total, rolls: outcome.rolls.map((r) => r.value) },
          breakdown: { dice: outcome.dice, modifier: outcome.modifier, text: describeRoll(outcome) },
        };
      },
    },
  },
  view: DiceView,
  events: diceEvents,
  initialState: () => ({ rolls: 0, lastRoll: null }),
  decide(_state, command, ctx) {
    // Roll is the only command of this ruleset; the schema has been applied.
    const { dice, purpose } = command.payload as Roll;
    const outcome = rollDice(dice, ctx.dice);
    return [{ type: 'DiceRolled', data: { purpose, ...outcome } }];
  },
  evolve(state, event) {
    if (event.type !== 'DiceRolled') return state;
    const data = event.data as unknown as DiceRolledData;
    return {
      rolls: state.rolls + 1,
      lastRoll: { purpose: data.purpose, dice: data.dice, total: data.total },
    };
  },
  present: (state) => state,
  summarize(command, events: readonly DomainEvent[]) {
    const rolled = events.find((e) => e.type === 'DiceRolled');
    if (!rolled) return '';
    const data = rolled.data as unknown as DiceRolledData;
    return `${JSON.stringify(data.purpose)}: ${data.dice} = ${describeRoll(data)}`;
  },
};
