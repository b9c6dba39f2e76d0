import { unknownEvent } from '../../defineRuleset';
import type { Memoir44Event } from './events';
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

export function evolveMemoir44(state: Memoir44State, event: Memoir44Event): Memoir44State {
  switch (event.type) {
    case 'BattleFought': {
      const d = event.data;
      const unitId = d.attacker.unitId;
      const lastBattle: LastBattle = {
        unitId,
        type: d.attacker.type,
        targetId: d.target.unitId,
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
      return { ...state, turn: state.turn + 1, activeSide: event.data.next, battledThisTurn: [], lastBattle: null };
    case 'CardRolled':
      // Recorded for the players; the decider keeps no count of them.
      return state;
    default:
      return unknownEvent(event, state);
  }
}

/** The active side: it battles until it passes the turn with EndTurn. */
export const memoir44ToMove = (state: Memoir44State): Side => state.activeSide;

/** What a player sees: the turn, who is active, and who battled (the view published in the catalogue). */
export const presentMemoir44 = (state: Memoir44State) => ({ turn: state.turn, activeSide: state.activeSide, battledThisTurn: state.battledThisTurn });
