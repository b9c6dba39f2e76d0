import type { France44Command } from './commands';
import type { France44Event } from './events';

const steps = (n: number) => `${n} step${n === 1 ? '' : 's'}`;

/** The Revised Combat Table's letter (a C with its step losses), air power, attrition losses. */
export function france44ResultText(command: France44Command, events: readonly France44Event[]): string {
  switch (command.type) {
    case 'ResolveCombat': {
      const resolved = events.find((e) => e.type === 'CombatResolved');
      if (!resolved) return '';
      const { code, stepLosses } = resolved.data;
      if (!stepLosses) return code;
      return `${code}: defender -${steps(stepLosses.defender)}${stepLosses.attacker ? `, attacker -${steps(stepLosses.attacker)}` : ''}`;
    }
    case 'RollAirPower': {
      const allocated = events.some((e) => e.type === 'AirPowerAllocated');
      return allocated ? 'air power' : 'no air power';
    }
    case 'ApplySupplyAttrition': {
      const lost = events.filter((e) => e.type === 'UnitStepLost').length;
      const eliminated = events.filter((e) => e.type === 'UnitEliminated').length;
      const dispersed = events.filter((e) => e.type === 'HQDispersed').length;
      const parts = [lost ? `-${steps(lost)}` : '', eliminated ? `${eliminated} eliminated` : '', dispersed ? `${dispersed} HQ dispersed` : ''].filter(Boolean);
      return parts.length ? parts.join(', ') : 'no losses';
    }
    default:
      return '';
  }
}
