import type { EventOf } from '../../defineRuleset';
import type { tableEvents } from './events';

type Effect = Extract<EventOf<typeof tableEvents>, { type: 'TableResolved' }>['data']['effects'][number];

/** "loss 2" as a player says it: "defender loses 2". */
function effectText({ effect, side, value }: Effect): string {
  if (effect === 'not-in-source') return 'not in the source table';
  const who = side ? `${side} ` : '';
  if (effect === 'loss') return `${who}loses ${value ?? ''}`.trim();
  if (effect === 'retreat') return `${who}retreats ${value ?? ''}`.trim();
  return `${who}${effect}${value === undefined ? '' : ` ${value}`}`;
}

/** The cell's code, then what it does: `1/13R: attacker loses 1, defender loses 13, defender retreats 1`. */
export function tableResultText(events: readonly EventOf<typeof tableEvents>[]): string {
  const resolved = events.find((e) => e.type === 'TableResolved');
  if (!resolved) return '';
  const { code, effects } = resolved.data;
  return effects.length ? `${code}: ${effects.map(effectText).join(', ')}` : code;
}
