import type { Command, DomainEvent } from '../../ruleset';

const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);
const dieText = (d: Record<string, any>) => (d.modifiedDie !== undefined && d.modifiedDie !== d.die ? `die ${d.die} -> ${d.modifiedDie}` : `die ${d.die}`);

/** The `<summary>` of a Normandy '44 text line. */
export function summarizeNormandy44(command: Command, events: readonly DomainEvent[]): string {
  const d = events[0]?.data as Record<string, any> | undefined;
  if (!d) return '';
  switch (events[0].type) {
    case 'TurnStarted':
      return `turn ${d.turn}, ${d.reinforcementPoints} reinforcement points${d.forfeited ? ` (${d.forfeited} unspent lost)` : ''}`;
    case 'AttackDeclared':
      return `${d.attackId}: ${d.declaration.attackers.length} on ${d.declaration.defenders.length} in ${d.declaration.defenderHex.terrain}, ${d.odds} -> ${d.baseColumn}`;
    case 'AttackResolved': {
      const b = d.breakdown;
      const shifts = b.shifts.filter((s: { applied: boolean }) => s.applied).length ? `, shifts ${signed(b.netShift)}` : '';
      const jabos = b.jabos ? `, Jabos die ${b.jabos.die} (${-b.jabos.shift})` : '';
      const losses = `attacker -${d.attackerSteps}, defender -${d.defenderSteps}`;
      const retreat = d.retreat ? `, retreat ${d.retreat}` : '';
      return `${d.attackId}: ${b.odds} -> ${b.baseColumn}${jabos}${shifts}, column ${d.column}, die ${b.die} -> ${d.code} (${losses}${retreat}${d.determinedDefenseAllowed ? ', DD allowed' : ''})`;
    }
    case 'DeterminedDefenseRolled':
      return `${d.attackId}: Determined Defense by ${d.leadUnitId}, ${d.column}, ${dieText(d)} -> ${d.code}`;
    case 'DeterminedDefenseDeclined':
      return `${d.attackId}: no Determined Defense, the defender retreats`;
    case 'StrafingResolved':
      return `${d.targetUnitId}: ${dieText(d)} -> ${d.stepLoss ? 'loses a step' : 'no effect'}`;
    case 'IsolationAttritionResolved':
      return `${d.unitId}: ${dieText(d)} -> ${d.stepLoss ? 'loses a step' : 'no effect'}`;
    case 'ReinforcementsPurchased':
      return `${d.items.map((i: { kind: string; army?: string }) => (i.army ? `${i.kind} (${i.army})` : i.kind)).join(', ')}: ${d.cost} points, ${d.pointsLeft} left`;
    case 'MulberryBuilt':
      return `${d.army} Mulberry built`;
    default:
      return command.type;
  }
}
