import type { RulesVersion } from './rulesVersion';
import type { Kind, Side } from './vocabulary';

/** A unit in a fight: its kind and the value it fights with (attack for attackers, defence for defenders). */
export interface Fighter {
  unitId?: string;
  kind: Kind;
  value: number;
  lp?: number;
  /** attackers: the hex it attacks from (units in one hex are stacked) */
  hex?: string;
  tiger?: boolean;
  commander?: string | null;
  smallerThanBattalion?: boolean;
}

export interface Fight {
  attackerSide: Side;
  attackers: readonly Fighter[];
  defenders: readonly Fighter[];
  support: readonly { unitId?: string; points: number }[];
  terrain: string;
  across: readonly string[];
  cherbourg?: 'area' | 'city';
  divisionalIntegrity: { attacker: boolean; defender: boolean };
  /** the rules the fight is played under (rulesVersion.ts); absent: 1 */
  rulesVersion?: RulesVersion;
}
