import type { Normandy44Event } from './events';
import type { Normandy44Command } from './commands';

const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);
const dieText = (d: { die: number; modifiedDie?: number }) => (d.modifiedDie !== undefined && d.modifiedDie !== d.die ? `die ${d.die} -> ${d.modifiedDie}` : `die ${d.die}`);

/** The `<summary>` of a Normandy '44 text line. */
export function summarizeNormandy44(command: Normandy44Command, events: readonly Normandy44Event[]): string {
  const event = events[0];
  if (!event) return '';
  switch (event.type) {
    case 'TurnStarted': {
      const d = event.data;
      return `turn ${d.turn}, ${d.reinforcementPoints} reinforcement points${d.forfeited ? ` (${d.forfeited} unspent lost)` : ''}`;
    }
    case 'AttackDeclared': {
      const d = event.data;
      return `${d.attackId}: ${d.declaration.attackers.length} on ${d.declaration.defenders.length} in ${d.declaration.defenderHex.terrain}, ${d.odds} -> ${d.baseColumn}`;
    }
    case 'AttackResolved': {
      const d = event.data;
      const b = d.breakdown;
      const shifts = b.shifts.filter((s) => s.applied).length ? `, shifts ${signed(b.netShift)}` : '';
      const jabos = b.jabos ? `, Jabos die ${b.jabos.die} (${-b.jabos.shift})` : '';
      const losses = `attacker -${d.attackerSteps}, defender -${d.defenderSteps}`;
      const retreat = d.retreat ? `, retreat ${d.retreat}` : '';
      return `${d.attackId}: ${b.odds} -> ${b.baseColumn}${jabos}${shifts}, column ${d.column}, die ${b.die} -> ${d.code} (${losses}${retreat}${d.determinedDefenseAllowed ? ', DD allowed' : ''})`;
    }
    case 'DeterminedDefenseRolled': {
      const d = event.data;
      return `${d.attackId}: Determined Defense by ${d.leadUnitId}, ${d.column}, ${dieText(d)} -> ${d.code}`;
    }
    case 'DeterminedDefenseDeclined': {
      const d = event.data;
      return `${d.attackId}: no Determined Defense, the defender retreats`;
    }
    case 'StrafingResolved': {
      const d = event.data;
      return `${d.targetUnitId}: ${dieText(d)} -> ${d.stepLoss ? 'loses a step' : 'no effect'}`;
    }
    case 'IsolationAttritionResolved': {
      const d = event.data;
      return `${d.unitId}: ${dieText(d)} -> ${d.stepLoss ? 'loses a step' : 'no effect'}`;
    }
    case 'ReinforcementsPurchased': {
      const d = event.data;
      return `${d.items.map((i) => (i.army ? `${i.kind} (${i.army})` : i.kind)).join(', ')}: ${d.cost} points, ${d.pointsLeft} left`;
    }
    case 'MulberryBuilt': {
      const d = event.data;
      return `${d.army} Mulberry built`;
    }
    default:
      return command.type;
  }
}
