import { unknownEvent } from '../../defineRuleset';
import { entryOf, idRecord, withEntry, withoutEntry, type IdRecord } from '../idRecord';
import type { Side } from './attackResolution';
import type { Normandy44Event } from './events';
import type { DeclareAttack } from './schemas';

export type DeterminedDefenseStatus = 'open' | 'rolled' | 'declined' | 'not-allowed';

export interface AttackRecord {
  attacker: Side;
  declaration: DeclareAttack;
  resolved: boolean;
  code: string | null;
  determinedDefense: DeterminedDefenseStatus | null;
}

export interface Normandy44State {
  turn: number;
  reinforcementPoints: number;
  mulberries: string[];
  /** Attacks not yet settled (unresolved, or with Determined Defense still to decide). */
  open: IdRecord<AttackRecord>;
  /** Every attack id used, so that none is reused. */
  attackIds: string[];
  settled: number;
}

export const initialNormandy44State = (): Normandy44State => ({ turn: 0, reinforcementPoints: 0, mulberries: [], open: idRecord(), attackIds: [], settled: 0 });

const settle = (state: Normandy44State, attackId: string): Normandy44State => ({ ...state, open: withoutEntry(state.open, attackId), settled: state.settled + 1 });

export function evolveNormandy44(state: Normandy44State, event: Normandy44Event): Normandy44State {
  switch (event.type) {
    case 'TurnStarted':
      return { ...state, turn: event.data.turn, reinforcementPoints: event.data.reinforcementPoints };
    case 'AttackDeclared': {
      const { attackId, attacker, declaration } = event.data;
      return {
        ...state,
        attackIds: [...state.attackIds, attackId],
        open: withEntry(state.open, attackId, { attacker, declaration, resolved: false, code: null, determinedDefense: null }),
      };
    }
    case 'AttackResolved': {
      const { attackId, code, determinedDefenseAllowed } = event.data;
      const record = entryOf(state.open, attackId)!;
      const resolved: AttackRecord = { ...record, resolved: true, code, determinedDefense: determinedDefenseAllowed ? 'open' : 'not-allowed' };
      const next = { ...state, open: withEntry(state.open, attackId, resolved) };
      return determinedDefenseAllowed ? next : settle(next, attackId);
    }
    case 'DeterminedDefenseRolled':
    case 'DeterminedDefenseDeclined':
      return settle(state, event.data.attackId);
    case 'ReinforcementsPurchased':
      return { ...state, reinforcementPoints: event.data.pointsLeft };
    case 'MulberryBuilt':
      return { ...state, mulberries: [...state.mulberries, event.data.army] };
    case 'StrafingResolved':
    case 'IsolationAttritionResolved':
      // Recorded for the players; the decider keeps no count of them.
      return state;
    default:
      return unknownEvent(event, state);
  }
}

/**
 * The side the game waits on: the defender of an attack whose Determined Defense is still
 * to decide, else the attacker of a declared attack not yet resolved; nobody otherwise, as
 * the ruleset records no turn order of its own (either side declares attacks).
 */
export function normandy44ToMove(state: Normandy44State): Side | null {
  const open = Object.values(state.open);
  const standing = open.find((attack) => attack.determinedDefense === 'open');
  if (standing) return standing.attacker === 'allied' ? 'german' : 'allied';
  return open.find((attack) => !attack.resolved)?.attacker ?? null;
}

export function presentNormandy44(state: Normandy44State) {
  return {
    turn: state.turn,
    reinforcementPoints: state.reinforcementPoints,
    mulberries: state.mulberries,
    attacksSettled: state.settled,
    openAttacks: Object.entries(state.open).map(([attackId, a]) => ({
      attackId,
      attacker: a.attacker,
      resolved: a.resolved,
      code: a.code,
      determinedDefense: a.determinedDefense,
    })),
  };
}
