import type { Memoir44Event } from './events';
import type { Memoir44Command } from './commands';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `2nd Armored -> Grenadiers (range 2, forest -2): 6 5 4 1 -> 1 hit, 1 flag`. */
export function summarizeMemoir44(_command: Memoir44Command, events: readonly Memoir44Event[]): string {
  const event = events[0];
  if (!event) return '';
  switch (event.type) {
    case 'BattleFought': {
      const d = event.data;
      const b = d.breakdown;
      const context = [...(d.overrun ? ['overrun'] : []), `range ${d.range}`, ...b.reductions.map((r) => `${r.reason} -${r.value}`)];
      if (b.threshold.startsWith('raw')) context.push('artillery in a bunker: hit on 1 and 6');
      if (d.starsHit) context.push('stars hit');
      const defence = b.defensiveRolls.length ? `; armor rolls ${b.defensiveRolls.join(' ')}: ${d.cancelled} cancelled` : '';
      const outcome = d.eliminated ? ', eliminated' : '';
      return `${d.attacker.unitId} -> ${d.target.unitId} (${context.join(', ')}): ${b.rolls.join(' ')} -> ${plural(d.hits, 'hit')}, ${plural(d.flags, 'flag')}${defence}${outcome}`;
    }
    case 'GroundTaken': {
      const d = event.data;
      return `${d.unitId} takes ground from ${d.targetId}${d.mayOverrun ? '; it may battle again (overrun)' : ''}`;
    }
    case 'TurnEnded': {
      const d = event.data;
      return `turn ${d.turn} ends; ${d.next} to play`;
    }
    case 'CardRolled': {
      const d = event.data;
      return `${JSON.stringify(d.purpose)}: ${d.rolls.join(' ')} -> ${d.symbols.join(', ')}`;
    }
    default:
      return '';
  }
}
