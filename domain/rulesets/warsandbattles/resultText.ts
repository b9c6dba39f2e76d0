import { firstData } from '../../defineRuleset';
import type { WarsAndBattlesCommand } from './commands';
import type { WarsAndBattlesEvent } from './events';

/** Units destroyed or surrendered by a fight or a bombardment. */
function fallen(events: readonly WarsAndBattlesEvent[]): string {
  const destroyed = events.filter((e) => e.type === 'UnitDestroyed').length;
  const surrendered = events.filter((e) => e.type === 'UnitSurrendered').length;
  return [destroyed ? `, ${destroyed} destroyed` : '', surrendered ? `, ${surrendered} surrendered` : ''].join('');
}

const NOT_IN_TABLE = ' (not in the example table: no effect)';

/** The combat table's code with its LP losses and retreat ("1/13R: -1/-13 LP, retreat"), or a bombardment's. */
export function warsAndBattlesResultText(command: WarsAndBattlesCommand, events: readonly WarsAndBattlesEvent[]): string {
  switch (command.type) {
    case 'ResolveAttack': {
      const d = firstData(events, 'AttackResolved');
      if (!d) return '';
      if (d.unproven) return `${d.resolution.code}${NOT_IN_TABLE}`;
      return `${d.resolution.code}: attacker -${d.attackerLoss} LP, defender -${d.defenderLoss} LP${d.retreat ? ', retreat' : ''}${fallen(events)}`;
    }
    case 'Bombard': {
      const d = firstData(events, 'BombardmentResolved');
      if (!d) return firstData(events, 'AirMissionsCancelled') ? `nothing delivered${fallen(events)}` : '';
      if (d.unproven) return `${d.resolution.code}${NOT_IN_TABLE}`;
      return `${d.resolution.code}: -${d.loss} LP${fallen(events)}`;
    }
    default:
      return '';
  }
}
