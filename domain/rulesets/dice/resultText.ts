import type { EventOf } from '../../defineRuleset';
import type { diceEvents } from './events';
import { successesOnly } from './successes';

/** A roll's result: its total, or its number of successes when every term counts them ("6d6>=5"); several rolls' results, in order. */
export function diceResultText(events: readonly EventOf<typeof diceEvents>[]): string {
  return events
    .filter((e) => e.type === 'DiceRolled')
    .map(({ data }) => (successesOnly(data) ? `${data.total} ${data.total === 1 ? 'success' : 'successes'}` : `total ${data.total}`))
    .join(', ');
}
