import { firstData, typeOfUnknown } from '../../defineRuleset';
import type { TableResolution } from '../../tables';
import type { WarsAndBattlesEvent } from './events';
import type { WarsAndBattlesCommand } from './commands';

const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const rollText = (resolution: { roll: Pick<NonNullable<TableResolution['roll']>, 'dice' | 'natural' | 'modified'> | null }) => {
  const roll = resolution.roll;
  if (!roll) return '';
  const mod = roll.modified - roll.natural;
  return `${roll.dice} ${roll.natural}${mod ? ` ${signed(mod)} = ${roll.modified}` : ''}`;
};
const unproven = ' (not in the example table: no effect)';

/** What happened to units after a fight or a bombardment: destroyed, surrendered, a status level lost. */
function aftermath(events: readonly WarsAndBattlesEvent[]): string {
  const count = (type: string) => events.filter((e) => e.type === type).length;
  const parts = [
    count('UnitDestroyed') ? `${count('UnitDestroyed')} destroyed` : '',
    count('UnitSurrendered') ? `${count('UnitSurrendered')} surrendered` : '',
    count('StatusLevelLost') ? `${plural(count('StatusLevelLost'), 'status level')} lost to fatigue` : '',
  ].filter(Boolean);
  return parts.length ? `; ${parts.join(', ')}` : '';
}

/** The `<summary>` of a Wars and Battles text line: one line, ids as the players gave them (playerId has no line breaks or controls). */
export function summarizeWarsAndBattles(command: WarsAndBattlesCommand, events: readonly WarsAndBattlesEvent[]): string {
  const find = <T extends WarsAndBattlesEvent['type']>(type: T) => firstData(events, type);
  const activation = () => {
    const a = find('UnitsActivated');
    if (!a || a.pointsSpent === 0) return '';
    return ` (${plural(a.pointsSpent, 'activation point')}${a.pointsLeft === null ? '' : `, ${a.pointsLeft} left`})`;
  };
  switch (command.type) {
    case 'Activate': {
      const a = find('UnitsActivated');
      if (!a) return '';
      const ids = [...a.unitIds, ...a.alreadyActive].join(', ');
      const strategic = a.strategic?.length ? ` (strategic move: ${a.strategic.join(', ')} cannot attack this turn)` : '';
      return `activates ${ids}: ${plural(a.pointsSpent, 'point')}${a.pointsLeft === null ? '' : `, ${a.pointsLeft} left`}${strategic}`;
    }
    case 'DeclareAttack': {
      const d = find('AttackDeclared');
      if (!d) return '';
      const support = d.supportLookup ? `, support ${d.supportLookup.points} points (L${d.supportLookup.bonus})` : '';
      const l = d.modifiers.reduce((s, m) => s + m.value, 0);
      const landing = d.landing;
      const ratio = landing.rounded ?? landing.reads;
      return `${d.attackId} on ${d.targetHex}: ${plural(d.attackers.length, 'attacker')} (${d.ratio.attack}) against ${plural(d.defenders.length, 'defender')} (${d.ratio.defence}) in ${d.terrain}, ${ratio}, C ${signed(landing.shifts.total)} -> column ${landing.column.label}, L ${signed(l)}${support}${activation()}`;
    }
    case 'ResolveAttack': {
      const d = find('AttackResolved');
      if (!d) return '';
      const r = d.resolution;
      const effects = d.unproven ? unproven : `: attacker -${d.attackerLoss} LP, defender -${d.defenderLoss} LP${d.retreat ? ', defender retreats' : ''}`;
      return `${d.attackId}: column ${r.landing.column.label}, ${rollText(r)} -> ${r.code}${effects}${aftermath(events)}`;
    }
    case 'Bombard': {
      const d = find('BombardmentResolved');
      const cancelled = find('AirMissionsCancelled');
      if (!d && cancelled) return `${cancelled.targetHex}: ${cancelled.units.map((u) => `${u.unitId} ${u.reason} by anti-aircraft`).join(', ')}, nothing delivered${aftermath(events)}${activation()}`;
      if (!d) return '';
      const r = d.resolution;
      const effects = d.unproven ? unproven : `: -${d.loss} LP`;
      const points = d.effectivePoints === d.points ? `${d.points} points` : `${d.points} points ${d.identification} = ${d.effectivePoints}`;
      return `${d.targetHex}: ${points}, ${rollText(r)} -> ${r.code}${effects}${aftermath(events)}${activation()}`;
    }
    case 'Replenish': {
      const d = find('UnitsReplenished');
      if (!d) return '';
      return `${d.units.map((u) => `${u.unitId} +${u.lp} LP`).join(', ')}: ${plural(d.pointsSpent ?? 0, 'point')}, ${d.pointsLeft} left${activation()}`;
    }
    case 'EndImpulse': {
      const d = find('ImpulseEnded');
      if (!d) return '';
      const next = d.next ? `${d.next.side}'s impulse ${d.next.impulse} next${d.next.activationPoints === null ? '' : ` (${plural(d.next.activationPoints, 'activation point')})`}` : 'every impulse played: EndTurn next';
      return `ends impulse ${d.impulse} of turn ${d.turn}; ${next}`;
    }
    case 'EndTurn': {
      const t = find('TurnStarted');
      if (!t) return '';
      const recovered = find('EnergyRecovered')?.units.length ?? 0;
      const replenished = events.reduce((n, e) => n + (e.type === 'UnitsReplenished' ? e.data.units.length : 0), 0);
      const oos = find('SupplyChecked')?.outOfSupply.length ?? 0;
      const attrition = find('SupplyAttrition')?.units.length ?? 0;
      const lost = find('ReplenishmentPointsLost');
      const parts = [
        `${plural(recovered, 'unit')} recover energy`,
        replenished ? `${plural(replenished, 'unit')} replenished` : '',
        lost ? `${plural(lost.points, 'Axis replenishment point')} lost` : '',
        oos ? `${oos} out of supply${attrition ? ` (${attrition} -1 LP)` : ''}` : '',
      ].filter(Boolean);
      const weather = find('WeatherSet');
      const back = find('AirUnitsReturned')?.units.length ?? 0;
      const unavailable = find('AvailabilityRolled')?.units.filter((u) => !u.available).length ?? 0;
      const air = [weather ? `, ${weather.weather}` : '', back ? `, ${back} air unit${back === 1 ? '' : 's'} back` : '', unavailable ? `, ${unavailable} unavailable` : ''].join('');
      return `turn ${t.turn - 1} ends: ${parts.join(', ')}${aftermath(events)}; turn ${t.turn}, ${t.side} first${air}`;
    }
    default:
      return typeOfUnknown(command);
  }
}
