import type { Command, DomainEvent } from '../../ruleset';
import type { CombatBreakdown } from './combatResolution';

const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);

/** The `<summary>` of a France 1944 text line: what a player would write in their notes. */
export function summarizeFrance44(command: Command, events: readonly DomainEvent[]): string {
  const find = (type: string) => events.find((e) => e.type === type)?.data as Record<string, any> | undefined;
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
      const from = [...new Set(c.attackers.map((a: { hex: string }) => a.hex))].join('+');
      const on = [...new Set(c.defenders.map((x: { hex: string }) => x.hex))].join('+');
      return `${c.combatId} ${c.kind}: ${c.attackers.length} from ${from} on ${on}, ${d.odds} -> ${d.baseColumn}`;
    }
    case 'RollAirPower': {
      const ok = find('AirPowerAllocated');
      const d = ok ?? find('AirPowerUnavailable')!;
      return `${d.combatId}: availability ${d.availability}, die ${d.die} -> ${ok ? `air power allocated (defender morale ${signed(ok.moraleModifier)})` : 'no air power this increment'}`;
    }
    case 'ResolveCombat': {
      const d = find('CombatResolved') as (CombatBreakdown & { combatId: string }) | undefined;
      if (!d) return '';
      const die = d.dieModifier ? `die ${d.die}${signed(d.dieModifier)}=${d.adjustedDie}` : `die ${d.die}`;
      return `${d.combatId}: ${d.odds} -> ${d.baseColumn}, morale ${signed(d.morale.modifier)}, control ${signed(d.control.modifier)}, column ${d.column}, ${die} -> ${d.code}`;
    }
    case 'EndAttackIncrement': {
      const d = find('AttackIncrementEnded')!;
      return `attack increment ${d.increment} ends, ${d.combats} combat${d.combats === 1 ? '' : 's'}`;
    }
    case 'ApplySupplyAttrition': {
      const losses = events
        .filter((e) => e.type !== 'SupplyAttritionApplied')
        .map((e) => (e.type === 'UnitStepLost' ? `${e.data.unitId} loses a step` : e.type === 'UnitEliminated' ? `${e.data.unitId} eliminated` : `HQ ${e.data.hqId} dispersed`));
      return `supply attrition: ${losses.length ? losses.join(', ') : 'no losses'}`;
    }
    default:
      return '';
  }
}
