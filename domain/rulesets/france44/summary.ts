import { firstData } from '../../defineRuleset';
import type { France44Event } from './events';
import type { France44Command } from './commands';

const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);

/** The `<summary>` of a France 1944 text line: what a player would write in their notes. */
export function summarizeFrance44(command: France44Command, events: readonly France44Event[]): string {
  const find = <T extends France44Event['type']>(type: T) => firstData(events, type);
  switch (command.type) {
    case 'StartTurn': {
      const d = find('TurnStarted')!;
      return `turn ${d.turn}, reaction points allied ${d.reactionPoints.allied}, german ${d.reactionPoints.german}`;
    }
    case 'ActivateHQ': {
      const d = find('HQActivated')!;
      return `HQ ${d.hqId} (activation ${d.activationsThisTurn} this turn)`;
    }
    case 'BeginReactionSegment':
      return 'reaction segment begins';
    case 'ReactionPhase': {
      const d = find('ReactionPhaseTaken')!;
      const lost = find('UnitStepLost') ? ' (out of supply: loses a step first)' : '';
      const what = d.kind === 'army' ? `army reaction, HQ ${d.unitId}` : `single-piece reaction, ${d.unitKind === 'hq' ? 'HQ ' : ''}${d.unitId}${lost}`;
      return `${what}: ${d.cost} point${d.cost === 1 ? '' : 's'}, ${d.pointsLeft} left`;
    }
    case 'EndReactionSegment': {
      const d = find('ReactionSegmentEnded')!;
      return `reaction segment ends: spent ${d.spent}${d.forfeited ? `, forfeits ${d.forfeited}` : ''}, ${d.pointsLeft} left`;
    }
    case 'DeclineReactionSegment':
      return 'declines the reaction segment';
    case 'BeginAttackIncrement':
      return `attack increment ${find('AttackIncrementBegun')!.increment}`;
    case 'DeclareCombat': {
      const d = find('CombatDeclared')!;
      const c = d.declaration;
      const from = [...new Set(c.attackers.map((a) => a.hex))].join('+');
      const on = [...new Set(c.defenders.map((x) => x.hex))].join('+');
      return `${c.combatId} ${c.kind}: ${c.attackers.length} from ${from} on ${on}, ${d.odds} -> ${d.baseColumn}`;
    }
    case 'RollAirPower': {
      const ok = find('AirPowerAllocated');
      const d = ok ?? find('AirPowerUnavailable')!;
      return `${d.combatId}: availability ${d.availability}, die ${d.die} -> ${ok ? `air power allocated (defender morale ${signed(ok.moraleModifier)})` : 'no air power this increment'}`;
    }
    case 'ResolveCombat': {
      const d = find('CombatResolved');
      if (!d) return '';
      const die = d.dieModifier ? `die ${d.die}${signed(d.dieModifier)}=${d.adjustedDie}` : `die ${d.die}`;
      return `${d.combatId}: ${d.odds} -> ${d.baseColumn}, morale ${signed(d.morale.modifier)}, control ${signed(d.control.modifier)}, column ${d.column}, ${die} -> ${d.code}`;
    }
    case 'EndAttackIncrement': {
      const d = find('AttackIncrementEnded')!;
      return `attack increment ${d.increment} ends, ${d.combats} combat${d.combats === 1 ? '' : 's'}`;
    }
    case 'ApplySupplyAttrition': {
      const losses = events.flatMap((e) => {
        if (e.type === 'UnitStepLost') return [`${e.data.unitId} loses a step`];
        if (e.type === 'UnitEliminated') return [`${e.data.unitId} eliminated`];
        if (e.type === 'HQDispersed') return [`HQ ${e.data.hqId} dispersed`];
        return [];
      });
      return `supply attrition: ${losses.length ? losses.join(', ') : 'no losses'}`;
    }
    default:
      return '';
  }
}
