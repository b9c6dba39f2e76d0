import type { DomainEvent } from '../../ruleset';
import { gameRulesVersion, type RulesVersion } from './rulesVersion';
import type { Memoir44Options } from './schemas';
import type { UnitType } from './tables';

export type Side = 'allies' | 'axis';

/** The battle fought last this turn: its unit may still take ground, and armor or cavalry overrun. */
export interface LastBattle {
  unitId: string;
  type: UnitType;
  targetId: string;
  /** A close assault that eliminated its target or rolled a flag: the target's hex may be empty. */
  emptiedHex: boolean;
  /** This battle was the unit's overrun: no battle follows it this turn. */
  overrun: boolean;
  groundTaken: boolean;
}

export interface Memoir44State {
  rulesVersion: RulesVersion;
  turn: number;
  activeSide: Side;
  battledThisTurn: string[];
  lastBattle: LastBattle | null;
}

export const initialMemoir44State = (options: Memoir44Options): Memoir44State => ({
  rulesVersion: gameRulesVersion(options),
  turn: 1,
  activeSide: options.firstSide,
  battledThisTurn: [],
  lastBattle: null,
});

export function evolveMemoir44(state: Memoir44State, event: DomainEvent): Memoir44State {
  const d = event.data as Record<string, any>;
  switch (event.type) {
    case 'BattleFought': {
      const unitId = String(d.attacker.unitId);
      const lastBattle: LastBattle = {
        unitId,
        type: d.attacker.type,
        targetId: String(d.target.unitId),
        emptiedHex: d.range === 1 && (d.eliminated === true || d.flags > 0),
        overrun: d.overrun === true,
        groundTaken: false,
      };
      const battled = state.battledThisTurn.includes(unitId) ? state.battledThisTurn : [...state.battledThisTurn, unitId];
      return { ...state, battledThisTurn: battled, lastBattle };
    }
    case 'GroundTaken':
      return { ...state, lastBattle: state.lastBattle && { ...state.lastBattle, groundTaken: true } };
    case 'TurnEnded':
      return { ...state, turn: state.turn + 1, activeSide: d.next as Side, battledThisTurn: [], lastBattle: null };
    default:
      return state;
  }
}

/** What a player sees: the turn, who is active, and who battled (the view published in the catalogue). */
export const presentMemoir44 = (state: Memoir44State) => ({ turn: state.turn, activeSide: state.activeSide, battledThisTurn: state.battledThisTurn });
