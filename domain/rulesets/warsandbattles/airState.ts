import { entryOf, idRecord, withEntry, withoutEntry, type IdRecord } from '../idRecord';
import { AIR_RETURN_TURNS, EXAMPLE_AVAILABILITY, HEAVY_BOMBER_WAIT, type AvailabilityRole, type AvailabilityTables } from './availability';
import type { WarsAndBattlesEvent } from './events';
import type { RulesVersion } from './rulesVersion';
import type { WarsAndBattlesOptions } from './schemas';
import type { UnitState } from './units';
import type { Weather } from './vocabulary';

export type Unavailability = 'weather' | 'maintenance' | 'not-available';

/** What the game folds about air units and ships (rules version 2 reads it; version 1 never does). */
export interface AirState {
  availability: AvailabilityTables;
  /** the turn each destroyed air unit was destroyed in, until it returns (3.3) */
  destroyedInTurn: IdRecord<number>;
  /** the turn of each unit's last bombardment (10.3: a heavy bomber waits three turns) */
  lastMission: IdRecord<number>;
  /** rolled unavailable for this turn (10.3, 10.1.1) */
  unavailable: IdRecord<Unavailability>;
}

/** The part of the game's state the air rules read and fold (state.ts holds it whole). */
export interface WithAir {
  turn: number;
  rulesVersion: RulesVersion;
  weather: Weather | null;
  units: IdRecord<UnitState>;
  air: AirState;
}

export const airFromOptions = (options: WarsAndBattlesOptions): AirState => ({
  availability: options.availability ?? EXAMPLE_AVAILABILITY,
  destroyedInTurn: idRecord(),
  lastMission: idRecord(),
  unavailable: idRecord(),
});

const REASON: Readonly<Record<AvailabilityRole, Unavailability>> = { air: 'weather', maintenance: 'maintenance', ship: 'not-available' };

export function evolveAir<S extends WithAir>(state: S, event: WarsAndBattlesEvent): S {
  const air = state.air;
  switch (event.type) {
    case 'UnitDestroyed':
      return { ...state, air: { ...air, destroyedInTurn: withEntry(air.destroyedInTurn, event.data.unitId, state.turn) } };
    case 'BombardmentResolved':
    case 'AirMissionsCancelled': {
      const ids = event.type === 'BombardmentResolved' ? event.data.bombarders.map((b) => b.unitId) : event.data.units.map((u) => u.unitId);
      return { ...state, air: { ...air, lastMission: ids.reduce((r, id) => withEntry(r, id, state.turn), air.lastMission) } };
    }
    case 'AirUnitsReturned': {
      // 3.3: back means available again; a heavy bomber shot down on a mission does not wait on top.
      const ids = event.data.units.map((u) => u.unitId);
      const without = (r: IdRecord<number>) => ids.reduce((x, id) => withoutEntry(x, id), r);
      return { ...state, air: { ...air, destroyedInTurn: without(air.destroyedInTurn), lastMission: without(air.lastMission) } };
    }
    case 'AvailabilityRolled': {
      const unavailable = event.data.units
        .filter((u) => !u.available)
        .map((u) => [u.unitId, REASON[u.checks.find((c) => !c.available)!.role]] as const);
      return { ...state, air: { ...air, unavailable: idRecord(unavailable) } };
    }
    default:
      return state;
  }
}

/** 10.3: a heavy bomber that bombarded in turn t is next available in turn t + 4 (three turns between). */
export function waitingUntil(state: WithAir, unitId: string): number | null {
  const unit = entryOf(state.units, unitId);
  const last = entryOf(state.air.lastMission, unitId);
  if (!unit || unit.kind !== 'heavy-bomber' || last === undefined) return null;
  const next = last + HEAVY_BOMBER_WAIT + 1;
  return state.turn < next ? next : null;
}

/** The turn a destroyed air unit returns in (3.3), or null. */
export function returnsInTurn(state: WithAir, unitId: string): number | null {
  const destroyed = entryOf(state.air.destroyedInTurn, unitId);
  return destroyed === undefined ? null : destroyed + AIR_RETURN_TURNS;
}

/** Units that cannot fly or fire this turn, and why (the view). Version 1 games: none. */
export function airUnavailable(state: WithAir) {
  if (state.rulesVersion < 2) return [];
  const list: { unitId: string; reason: Unavailability | 'waiting'; untilTurn: number | null }[] = [];
  for (const [unitId, unit] of Object.entries(state.units)) {
    if (unit.out) continue;
    const rolled = entryOf(state.air.unavailable, unitId);
    const waiting = waitingUntil(state, unitId);
    if (state.weather === 'storm' && (unit.kind === 'air' || unit.kind === 'heavy-bomber')) list.push({ unitId, reason: 'weather', untilTurn: null });
    else if (rolled) list.push({ unitId, reason: rolled, untilTurn: null });
    else if (waiting !== null) list.push({ unitId, reason: 'waiting', untilTurn: waiting });
  }
  return list;
}
