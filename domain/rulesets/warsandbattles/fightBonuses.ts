import type { Modifier } from '../../tables';
import type { Fight } from './fight';

const version = (fight: Pick<Fight, 'rulesVersion'>) => fight.rulesVersion ?? 1;

/**
 * §7.4.6 and §10.1.1 "Unit bonus: some units benefit from an attack and defense bonus.
 * These are Commanders and Tiger Tanks": C1 to the Tiger's side, once per fight (ruling);
 * version 1 gave it only to an attacking Tiger.
 */
export function tigerShifts(fight: Fight): Modifier[] {
  if (fight.attackerSide === 'axis' && fight.attackers.some((u) => u.tiger)) return [{ source: 'Tiger attacking', value: 1 }];
  if (version(fight) >= 2 && fight.attackerSide === 'allied' && fight.defenders.some((u) => u.tiger)) return [{ source: 'Tiger defending', value: -1 }];
  return [];
}

/**
 * §7.4.7: the area's −1 against the Allied attacker; "Besides", the city's −3 against
 * whoever attacks Cherbourg. Version 2 adds them (§7.4: "All modifiers are cumulative");
 * version 1 gave the city's −3 alone, and only to the Allies.
 */
export function cherbourgShifts(fight: Fight): Modifier[] {
  if (!fight.cherbourg) return [];
  const allied = fight.attackerSide === 'allied';
  if (version(fight) < 2) {
    if (!allied) return [];
    return fight.cherbourg === 'area' ? [{ source: 'Cherbourg area (Allied attack)', value: -1 }] : [{ source: 'Cherbourg city (Allied attack)', value: -3 }];
  }
  return [
    ...(allied ? [{ source: 'Cherbourg area (Allied attack)', value: -1 }] : []),
    ...(fight.cherbourg === 'city' ? [{ source: 'Cherbourg city', value: -3 }] : []),
  ];
}

/**
 * §7.4.8: armored (C2) or mechanized (C1) attackers against infantry in clear terrain, "All
 * defending units must be Infantry units". Version 2: commanders in the defending stack do
 * not cancel it (they "allow attacking or defense units to receive a bonus", §7.4.5, and
 * weigh nothing in a stack, §10.1.1), and with both kinds attacking both bonuses add up
 * (§7.4: "All modifiers are cumulative without limitation"). Version 1: every defender
 * infantry, and the armored bonus in place of the mechanized one.
 */
export function clearTerrainShifts(fight: Fight): Modifier[] {
  if (fight.terrain !== 'clear') return [];
  const armored = fight.attackers.some((u) => u.kind === 'armored');
  const mechanized = fight.attackers.some((u) => u.kind === 'mechanized');
  const armoredShift = { source: 'clear terrain: armored attacker against infantry', value: 2 };
  const mechanizedShift = { source: 'clear terrain: mechanized attacker against infantry', value: 1 };
  if (version(fight) < 2) {
    if (!fight.defenders.every((u) => u.kind === 'infantry')) return [];
    return armored ? [armoredShift] : mechanized ? [mechanizedShift] : [];
  }
  const fighting = fight.defenders.filter((u) => u.kind !== 'commander');
  if (fighting.length === 0 || !fighting.every((u) => u.kind === 'infantry')) return [];
  return [...(armored ? [armoredShift] : []), ...(mechanized ? [mechanizedShift] : [])];
}
