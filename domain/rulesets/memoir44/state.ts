import type { DomainEvent } from '../../ruleset';
import type { Memoir44Options } from './schemas';

export type Side = 'allies' | 'axis';

export interface Memoir44State {
  turn: number;
  activeSide: Side;
  battledThisTurn: string[];
}

export const initialMemoir44State = (options: Memoir44Options): Memoir44State => ({ turn: 1, activeSide: options.firstSide, battledThisTurn: [] });

export function evolveMemoir44(state: Memoir44State, event: DomainEvent): Memoir44State {
  switch (event.type) {
    case 'BattleFought':
      return { ...state, battledThisTurn: [...state.battledThisTurn, String((event.data.attacker as { unitId: string }).unitId)] };
    case 'TurnEnded':
      return { turn: state.turn + 1, activeSide: event.data.next as Side, battledThisTurn: [] };
    default:
      return state;
  }
}
