import type { EventOf } from '../../defineRuleset';
import type { diceEvents } from './events';
import { successesOnly } from './successes';

/** A roll's result: its total, or its number of successes when every term counts them ("6d6>=5"). */
export function diceResultText(events: readonly EventOf<typeof diceEvents>[]): string {
  const rolled = events.find((e) => e.type === 'DiceRolled');
  if (!rolled) return '';
  const { total } = rolled.data;
  return successesOnly(rolled.data) ? `${total} ${total === 1 ? 'success' : 'successes'}` : `total ${total}`;
}
