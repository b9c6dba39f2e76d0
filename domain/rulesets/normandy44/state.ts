import type { DomainEvent } from '../../ruleset';
import { entryOf, idRecord, withEntry, withoutEntry, type IdRecord } from '../idRecord';
import type { Side } from './attackResolution';
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

export function evolveNormandy44(state: Normandy44State, event: DomainEvent): Normandy44State {
  const d = event.data as Record<string, any>;
  switch (event.type) {
    case 'TurnStarted':
      return { ...state, turn: d.turn, reinforcementPoints: d.reinforcementPoints };
    case 'AttackDeclared':
      return {
        ...state,
        attackIds: [...state.attackIds, d.attackId],
        open: withEntry(state.open, d.attackId, { attacker: d.attacker, declaration: d.declaration, resolved: false, code: null, determinedDefense: null }),
      };
    case 'AttackResolved': {
      const record = entryOf(state.open, d.attackId)!;
      const resolved = { ...record, resolved: true, code: d.code, determinedDefense: (d.determinedDefenseAllowed ? 'open' : 'not-allowed') as DeterminedDefenseStatus };
      const next = { ...state, open: withEntry(state.open, d.attackId, resolved) };
      return d.determinedDefenseAllowed ? next : settle(next, d.attackId);
    }
    case 'DeterminedDefenseRolled':
    case 'DeterminedDefenseDeclined':
      return settle(state, d.attackId);
    case 'ReinforcementsPurchased':
      return { ...state, reinforcementPoints: d.pointsLeft };
    case 'MulberryBuilt':
      return { ...state, mulberries: [...state.mulberries, d.army] };
    default:
      return state;
  }
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
