import type { EuropaCommand } from './commands';
import type { EuropaEvent, EuropaEventData } from './events';

/** "3: 1 aborts, 1 returns": the defence factors the AA fire affected, and what became of the air units. */
function fireText(d: EuropaEventData<'AAFired'>): string {
  if (d.result === null) return '-';
  const counts = new Map<string, number>();
  for (const s of d.allocation.selections) if (s.effect) counts.set(s.effect, (counts.get(s.effect) ?? 0) + 1);
  const effects = [...counts].map(([effect, n]) => `${n} ${effect}`);
  return effects.length ? `${d.result}: ${effects.join(', ')}` : String(d.result);
}

/** The AA fire table's result of each fire of the commit; fortification commands decide no result. */
export function europaResultText(_command: EuropaCommand, events: readonly EuropaEvent[]): string {
  return events.flatMap((e) => (e.type === 'AAFired' ? [fireText(e.data)] : [])).join('; ');
}
