import { shortTableHash } from '../../tables';
import type { EuropaEvent, EuropaEventData } from './events';
import type { EuropaCommand } from './commands';

const q = JSON.stringify;
const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);
const hexes = (n: number) => `${n} ${n === 1 ? 'hex' : 'hexes'}`;

function aaLine(d: EuropaEventData<'AAFired'>): string {
  const { landing, roll, table } = d.resolution;
  const shifts = landing.shifts.total ? `, shifts ${signed(landing.shifts.total)}` : '';
  const modified = roll.modified !== roll.natural ? ` ${signed(roll.modified - roll.natural)} = ${roll.modified}` : '';
  const units = d.allocation.selections.map((s) => `${q(s.unitId)} ${s.effect ?? 'unaffected'}`);
  const rest = d.allocation.unaffected.filter((id) => !d.allocation.selections.some((s) => s.unitId === id)).map((id) => `${q(id)} unaffected`);
  const outcome = d.result === null ? 'no effect' : `${d.result} vs DF ${d.allocation.forceDf}: ${[...units, ...rest].join(', ')}`;
  const target = d.target === undefined ? '' : ` on ${q(d.target)}`;
  return `${q(d.fireId)}${target} over ${q(d.hex)}: AA ${d.strength.text} -> ${landing.landedColumn.label}${shifts} -> column ${landing.column.label}, 2d6 ${roll.faces.join('+')}${modified} -> ${outcome} [${shortTableHash(table.hash)}]`;
}

function fortificationPart(e: EuropaEvent): string {
  switch (e.type) {
    case 'FortificationPlaced': {
      const d = e.data;
      return `${d.kind} ${q(d.site)} placed (${d.condition}${d.level ? `, level ${d.level}` : ''}, ${d.owner})`;
    }
    case 'OwnershipChanged': {
      const d = e.data;
      return `${d.to} gains ${d.kind} ${q(d.site)} from ${d.from}`;
    }
    case 'FortificationRemoved': {
      const d = e.data;
      return `${d.kind} ${q(d.site)} removed (${d.reason === 'destroyed' ? 'destroyed' : 'destroyed by the enemy gain'})`;
    }
    case 'ConditionChanged': {
      const d = e.data;
      return `${d.kind} ${q(d.site)} ${d.from} -> ${d.to} (${d.reason})`;
    }
    case 'ImprovementBegun': {
      const d = e.data;
      return `Westwall ${q(d.site)} improvement begun on turn ${d.turn}${d.quickConstruction ? ' with quick construction' : ''}, done on turn ${d.completesOnTurn}, ${d.resourcePoints} resource points`;
    }
    case 'FortConstructionBegun': {
      const d = e.data;
      const quick = d.quickConstruction ? ` with quick construction${d.builder ? ` by ${q(d.builder.unitId)}` : ''}` : '';
      return `fort ${q(d.site)} begun on turn ${d.turn}${quick} (${d.owner}), built on turn ${d.completesOnTurn}`;
    }
    case 'FortsCompleted': {
      const d = e.data;
      return `forts built (${d.forts})`;
    }
    case 'ImprovementCancelled': {
      const d = e.data;
      return `improvement of ${q(d.site)} cancelled`;
    }
    case 'EmergencyRestorationDeclared': {
      const d = e.data;
      return `Westwall emergency restoration declared in Axis initial phase ${d.axisPhase}, restored in Axis initial phase ${d.restoredAtAxisPhase}; forfeited: ${d.forfeits.join(', ')}`;
    }
    case 'EmergencyRestorationContinued': {
      const d = e.data;
      return `Westwall emergency restoration continues; forfeited: ${d.forfeits.join(', ')}`;
    }
    case 'EmergencyRestorationCompleted': {
      const d = e.data;
      return `Westwall restored (${hexes(typeof d.hexes === 'number' ? d.hexes : (d.sites ?? []).length)})`;
    }
    case 'ImprovementsCompleted': {
      const d = e.data;
      return `Westwall improvements completed (${hexes(d.hexes)})`;
    }
    case 'AlliedWestwallUnimproved': {
      const d = e.data;
      return `Allied-owned Westwall unimproved (${hexes(d.hexes)})`;
    }
    case 'TurnBegan': {
      const d = e.data;
      return `turn ${d.turn}`;
    }
    case 'InitialPhaseBegan': {
      const d = e.data;
      return `turn ${d.turn}, ${d.side} initial phase`;
    }
    default:
      return e.type;
  }
}

/** The `<summary>` of a europa text line: one line, player strings as JSON strings. */
export function summarizeEuropa(_command: EuropaCommand, events: readonly EuropaEvent[]): string {
  // Harassment by several units (rules version 3) is one AAFired per unit, one line.
  if (events[0]?.type === 'AAFired') return events.map((e) => (e.type === 'AAFired' ? aaLine(e.data) : e.type)).join('; ');
  return events.map(fortificationPart).join('; ');
}
