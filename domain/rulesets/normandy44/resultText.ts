import type { Normandy44Command } from './commands';
import type { Normandy44Event } from './events';


/** The Combat Results Table's code with its retreat ("A1/D1, retreat 2"), Determined Defense, a strafing or attrition step. */
export function normandy44ResultText(_command: Normandy44Command, events: readonly Normandy44Event[]): string {
  const event = events[0];
  if (!event) return '';
  switch (event.type) {
    case 'AttackResolved': {
      const d = event.data;
      // EX does not spell its losses; the other codes do (A1/D2: the attacker 1 step, the defender 2).
      const losses = d.code === 'EX' ? ` (attacker -${d.attackerSteps}, defender -${d.defenderSteps})` : '';
      const retreat = d.retreat ? `, retreat ${d.retreat}` : '';
      const disorganized = d.disorganized ? ', disorganized' : '';
      const dd = d.determinedDefenseAllowed ? ', Determined Defense allowed' : '';
      return `${d.code}${losses}${retreat}${disorganized}${dd}`;
    }
    case 'DeterminedDefenseRolled': {
      const d = event.data;
      return `Determined Defense ${d.code}${d.retreatCancelled ? ', no retreat' : ''}`;
    }
    case 'DeterminedDefenseDeclined':
      return 'retreat';
    case 'StrafingResolved':
    case 'IsolationAttritionResolved':
      return event.data.stepLoss ? `-${event.data.stepLoss} step${event.data.stepLoss === 1 ? '' : 's'}` : 'no effect';
    default:
      return '';
  }
}
