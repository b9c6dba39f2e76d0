import { unknownEvent } from '../../defineRuleset';
import type { WarsAndBattlesEvent } from './events';
import type { Modifier } from '../../tables';
import { tableHash } from '../../tables';
import { entryOf, idRecord, withEntry, type IdRecord } from '../idRecord';
import type { Commander, Side, Tables, TerrainEntry, WarsAndBattlesOptions, Weather } from './schemas';
import { airFromOptions, airUnavailable, evolveAir, type AirState } from './airState';
import { gameRulesVersion, type RulesVersion } from './rulesVersion';
import { combatValueOf, statusLevel, unitFromOptions, type UnitState } from './units';

export interface OpenAttack {
  attackId: string;
  attacker: Side;
  targetHex: string;
  attackers: { unitId: string; hex: string; attack: number }[];
  defenders: { unitId: string; defence: number }[];
  attack: number;
  defence: number;
  shifts: Modifier[];
  modifiers: Modifier[];
}

export interface WarsAndBattlesState {
  turn: number;
  impulse: number;
  impulses: number;
  firstSide: Side;
  /** Whose impulse it is; null once every impulse of the turn is played. */
  phasing: Side | null;
  activationPoints: { allied: number; axis: number } | null;
  /** The phasing side's points left this impulse; null: unlimited. */
  activationLeft: number | null;
  axisPointsPerTurn: number;
  axisReplenishmentPoints: number;
  alliedReplenishment: boolean;
  zocRetreatLoss: number;
  units: IdRecord<UnitState>;
  openAttack: OpenAttack | null;
  /** Every attack id used in the game. */
  attackIds: string[];
  hexesAttacked: string[];
  tables: Tables;
  terrain: TerrainEntry[];
  commanders: Commander[];
  /** which rules the game plays (rulesVersion.ts) */
  rulesVersion: RulesVersion;
  /** the turn's weather (rules version 2; null in a version-1 game) */
  weather: Weather | null;
  /** air units' and ships' availability, destroyed air units awaiting their return (airState.ts) */
  air: AirState;
}

export const otherSide = (side: Side): Side => (side === 'allied' ? 'axis' : 'allied');

export function initialWarsAndBattlesState(options: WarsAndBattlesOptions): WarsAndBattlesState {
  const points = options.activationPoints ?? null;
  return {
    turn: 1,
    impulse: 1,
    impulses: options.impulses,
    firstSide: options.firstSide,
    phasing: options.firstSide,
    activationPoints: points,
    activationLeft: points ? points[options.firstSide] : null,
    axisPointsPerTurn: options.replenishment.axisPointsPerTurn,
    axisReplenishmentPoints: options.replenishment.axisPointsPerTurn,
    alliedReplenishment: options.replenishment.allied,
    zocRetreatLoss: options.zocRetreatLoss,
    units: idRecord(options.units.map((u) => [u.unitId, unitFromOptions(u, gameRulesVersion(options))] as const)),
    openAttack: null,
    attackIds: [],
    hexesAttacked: [],
    tables: options.tables,
    terrain: options.terrain,
    commanders: options.commanders,
    rulesVersion: gameRulesVersion(options),
    weather: gameRulesVersion(options) >= 2 ? (options.weather ?? 'sunny') : null,
    air: airFromOptions(options),
  };
}

const changeUnit = (state: WarsAndBattlesState, unitId: string, change: Partial<UnitState>): WarsAndBattlesState => {
  const unit = entryOf(state.units, unitId);
  return unit ? { ...state, units: withEntry(state.units, unitId, { ...unit, ...change }) } : state;
};
const changeUnits = (state: WarsAndBattlesState, unitIds: readonly string[], change: (unit: UnitState) => Partial<UnitState>) =>
  unitIds.reduce((s, id) => {
    const unit = entryOf(s.units, id);
    return unit ? changeUnit(s, id, change(unit)) : s;
  }, state);
const changeAll = (state: WarsAndBattlesState, change: (unit: UnitState) => Partial<UnitState>): WarsAndBattlesState => ({
  ...state,
  units: idRecord(Object.entries(state.units).map(([id, unit]) => [id, { ...unit, ...change(unit) }] as const)),
});

/** Folds one event: the values are the event's, computed by decide; nothing is rolled or refused here. */
export function evolveWarsAndBattles(state: WarsAndBattlesState, event: WarsAndBattlesEvent): WarsAndBattlesState {
  switch (event.type) {
    case 'UnitsActivated': {
      const d = event.data;
      const activated = changeUnits(state, d.unitIds, () => ({ activatedInImpulse: d.impulse }));
      return { ...changeUnits(activated, d.strategic ?? [], () => ({ movedStrategically: true })), activationLeft: d.pointsLeft };
    }
    case 'AttackDeclared': {
      const d = event.data;
      const involved = [...d.attackers.map((a) => a.unitId), ...d.support.map((s) => s.unitId)];
      const next = changeUnits(state, involved, () => ({ attackedThisTurn: true }));
      return {
        ...next,
        attackIds: [...state.attackIds, d.attackId],
        hexesAttacked: [...state.hexesAttacked, d.targetHex],
        openAttack: {
          attackId: d.attackId,
          attacker: d.attacker,
          targetHex: d.targetHex,
          attackers: d.attackers.map((a) => ({ unitId: a.unitId, hex: a.hex, attack: a.attack })),
          defenders: d.defenders.map((x) => ({ unitId: x.unitId, defence: x.defence })),
          attack: d.ratio.attack,
          defence: d.ratio.defence,
          shifts: d.shifts,
          modifiers: d.modifiers,
        },
      };
    }
    case 'AttackResolved':
      return { ...state, openAttack: null };
    case 'LossesAllocated':
    case 'AntiAircraftLosses':
    case 'SupplyAttrition':
      return event.data.units.reduce((s, u) => changeUnit(s, u.unitId, { lp: u.lpAfter }), state);
    case 'UnitRetreated':
      return changeUnit(state, event.data.unitId, { lp: event.data.lpAfter });
    case 'UnitDestroyed':
      return evolveAir(changeUnit(state, event.data.unitId, { lp: 0, out: 'destroyed' }), event);
    case 'UnitSurrendered':
      return changeUnit(state, event.data.unitId, { lp: 0, out: 'surrendered' });
    case 'FatigueGained':
      return changeUnit(state, event.data.unitId, { energy: event.data.energyAfter });
    case 'StatusLevelLost':
      return changeUnit(state, event.data.unitId, { fatigued: true });
    case 'StatusLevelRecovered':
      return changeUnit(state, event.data.unitId, { fatigued: false });
    case 'BombardmentResolved':
      return evolveAir(changeUnits(state, event.data.bombarders.map((b) => b.unitId), () => ({ attackedThisTurn: true })), event);
    case 'UnitsReplenished': {
      const d = event.data;
      const next = d.units.reduce((s, u) => changeUnit(s, u.unitId, { lp: u.lpAfter }), state);
      return d.pointsLeft === undefined ? next : { ...next, axisReplenishmentPoints: d.pointsLeft };
    }
    case 'ImpulseEnded': {
      const { next } = event.data;
      return next ? { ...state, impulse: next.impulse, phasing: next.side, activationLeft: next.activationPoints } : { ...state, phasing: null, activationLeft: null };
    }
    case 'EnergyRecovered':
      return event.data.units.reduce((s, u) => changeUnit(s, u.unitId, { energy: u.energyAfter }), state);
    case 'ReplenishmentPointsLost':
      return { ...state, axisReplenishmentPoints: 0 };
    case 'SupplyChecked': {
      const d = event.data;
      const oos = d.outOfSupply.reduce((s, u) => changeUnit(s, u.unitId, { outOfSupply: true, turnsOutOfSupply: u.turnsOutOfSupply }), state);
      return changeUnits(oos, d.backInSupply, () => ({ outOfSupply: false, turnsOutOfSupply: 0 }));
    }
    case 'TurnStarted': {
      const d = event.data;
      return {
        ...changeAll(state, () => ({ activatedInImpulse: null, attackedThisTurn: false, movedStrategically: false })),
        turn: d.turn,
        impulse: 1,
        phasing: d.side,
        activationLeft: d.activationPoints,
        axisReplenishmentPoints: d.axisReplenishmentPoints,
        hexesAttacked: [],
        air: { ...state.air, unavailable: idRecord() },
      };
    }
    case 'AirMissionsCancelled':
      return evolveAir(changeUnits(state, event.data.units.map((u) => u.unitId), () => ({ attackedThisTurn: true })), event);
    case 'WeatherSet':
      return { ...state, weather: event.data.weather };
    case 'AirUnitsReturned': {
      const returned = event.data.units.reduce((s, u) => changeUnit(s, u.unitId, { lp: u.lpAfter, out: null, energy: 100, fatigued: false }), state);
      return evolveAir(returned, event);
    }
    case 'AvailabilityRolled':
      return evolveAir(state, event);
    default:
      return unknownEvent(event, state);
  }
}

export function presentWarsAndBattles(state: WarsAndBattlesState) {
  return {
    turn: state.turn,
    impulse: state.impulse,
    impulses: state.impulses,
    phasing: state.phasing,
    activationPointsLeft: state.activationLeft,
    axisReplenishmentPoints: state.axisReplenishmentPoints,
    openAttack: state.openAttack ? { attackId: state.openAttack.attackId, attacker: state.openAttack.attacker, targetHex: state.openAttack.targetHex } : null,
    hexesAttacked: state.hexesAttacked,
    units: Object.entries(state.units).map(([unitId, u]) => ({
      unitId,
      side: u.side,
      kind: u.kind,
      quality: u.quality,
      lp: u.lp,
      maxLp: u.maxLp,
      status: statusLevel(u),
      energy: u.energy,
      fatigued: u.fatigued,
      outOfSupply: u.outOfSupply,
      turnsOutOfSupply: u.turnsOutOfSupply,
      activatedInImpulse: u.activatedInImpulse,
      attackedThisTurn: u.attackedThisTurn,
      out: u.out,
      attack: u.out ? 0 : combatValueOf(u, 'attack'),
      defence: u.out ? 0 : combatValueOf(u, 'defence'),
      movedStrategically: u.movedStrategically,
    })),
    tables: (['combat', 'bombardment', 'support'] as const).map((role) => ({
      role,
      id: state.tables[role].id,
      title: state.tables[role].title,
      hash: tableHash(state.tables[role]),
      example: state.tables[role].example === true,
    })),
    weather: state.weather,
    unavailable: airUnavailable(state),
  };
}
