import type { Memoir44Command } from './commands';
import type { Memoir44Event } from './events';

const times = (n: number, word: string) => Array.from({ length: n }, () => word);

/** A battle as players call it out ("hit, hit, flag"), or the symbols a card's roll showed. */
export function memoir44ResultText(_command: Memoir44Command, events: readonly Memoir44Event[]): string {
  const event = events[0];
  if (!event) return '';
  switch (event.type) {
    case 'BattleFought': {
      const d = event.data;
      const called = [...times(d.hits, 'hit'), ...times(d.flags, 'flag')];
      const parts = [called.length ? called.join(', ') : 'miss'];
      if (d.cancelled) parts.push(`${d.cancelled} cancelled by armor`);
      if (d.eliminated) parts.push('eliminated');
      return parts.join('; ');
    }
    case 'CardRolled':
      return event.data.symbols.join(', ');
    default:
      return '';
  }
}
