import type { EventOf } from '../../defineRuleset';
import type { diceEvents } from './events';
import { describeRoll } from './rollText';

/** The `<summary>` of each roll of a commit, in order: `"purpose": 2d6+1 = 3 4 +1 = 8`. */
export function rollSummaries(events: readonly EventOf<typeof diceEvents>[]): string[] {
  return events.filter((e) => e.type === 'DiceRolled').map(({ data }) => `${JSON.stringify(data.purpose)}: ${data.dice} = ${describeRoll(data)}`);
}
