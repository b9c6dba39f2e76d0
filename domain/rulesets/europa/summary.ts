import type { Command, DomainEvent } from '../../ruleset';
import { shortTableHash } from '../../tables';
import type { AAFireOutcome } from './aaFire';

const q = JSON.stringify;
const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);
const hexes = (n: number) => `${n} ${n === 1 ? 'hex' : 'hexes'}`;

function aaLine(d: AAFireOutcome & { fireId: string; hex: string }): string {
  const { landing, roll, table } = d.resolution;
  const shifts = landing.shifts.total ? `, shifts ${signed(landing.shifts.total)}` : '';
  const modified = roll!.modified !== roll!.natural ? ` ${signed(roll!.modified - roll!.natural)} = ${roll!.modified}` : '';
  const units = d.allocation.selections.map((s) => `${q(s.unitId)} ${s.effect ?? 'unaffected'}`);
  const rest = d.allocation.unaffected.filter((id) => !d.allocation.selections.some((s) => s.unitId === id)).map((id) => `${q(id)} unaffected`);
  const outcome = d.result === null ? 'no effect' : `${d.result} vs DF ${d.allocation.forceDf}: ${[...units, ...rest].join(', ')}`;
  return `${q(d.fireId)} over ${q(d.hex)}: AA ${d.strength.text} -> ${landing.landedColumn.label}${shifts} -> column ${landing.column.label}, 2d6 ${roll!.faces.join('+')}${modified} -> ${outcome} [${shortTableHash(table.hash)}]`;
}

function fortificationPart(e: DomainEvent): string {
  const d = e.data as Record<string, any>;
  switch (e.type) {
    case 'FortificationPlaced':
      return `${d.kind} ${q(d.site)} placed (${d.condition}${d.level ? `, level ${d.level}` : ''}, ${d.owner})`;
    case 'OwnershipChanged':
      return `${d.to} gains ${d.kind} ${q(d.site)} from ${d.from}`;
    case 'FortificationRemoved':
      return `${d.kind} ${q(d.site)} removed (${d.reason === 'destroyed' ? 'destroyed' : 'destroyed by the enemy gain'})`;
    case 'ConditionChanged':
      return `${d.kind} ${q(d.site)} ${d.from} -> ${d.to} (${d.reason})`;
    case 'ImprovementBegun':
      return `Westwall ${q(d.site)} improvement begun on turn ${d.turn}${d.quickConstruction ? ' with quick construction' : ''}, done on turn ${d.completesOnTurn}, ${d.resourcePoints} resource points`;
    case 'ImprovementCancelled':
      return `improvement of ${q(d.site)} cancelled`;
    case 'EmergencyRestorationDeclared':
      return `Westwall emergency restoration declared in Axis initial phase ${d.axisPhase}, restored in Axis initial phase ${d.restoredAtAxisPhase}; forfeited: ${d.forfeits.join(', ')}`;
    case 'EmergencyRestorationContinued':
      return `Westwall emergency restoration continues; forfeited: ${d.forfeits.join(', ')}`;
    case 'EmergencyRestorationCompleted':
      return `Westwall restored (${hexes(typeof d.hexes === 'number' ? d.hexes : d.sites.length)})`;
    case 'ImprovementsCompleted':
      return `Westwall improvements completed (${hexes(d.hexes)})`;
    case 'AlliedWestwallUnimproved':
      return `Allied-owned Westwall unimproved (${hexes(d.hexes)})`;
    case 'TurnBegan':
      return `turn ${d.turn}`;
    case 'InitialPhaseBegan':
      return `turn ${d.turn}, ${d.side} initial phase`;
    default:
      return e.type;
  }
}

/** The `<summary>` of a europa text line: one line, player strings as JSON strings. */
export function summarizeEuropa(_command: Command, events: readonly DomainEvent[]): string {
  if (events[0]?.type === 'AAFired') return aaLine(events[0].data as unknown as AAFireOutcome & { fireId: string; hex: string });
  return events.map(fortificationPart).join('; ');
}
