import type { DomainEvent } from '../../ruleset';
import { entryOf, idRecord, withEntry, type IdRecord } from '../idRecord';
import type { DeclareCombat, France44Options } from './schemas';

export type Side = 'allied' | 'german';
export const SIDES: readonly Side[] = ['allied', 'german'];

export interface DeclaredCombat {
  declaration: DeclareCombat;
  airPower: boolean;
  resolved: boolean;
  code: string | null;
}

export interface AttackIncrement {
  number: number;
  attacker: Side;
  combats: IdRecord<DeclaredCombat>;
  /** Once a combat of the increment is resolved, no more may be declared. */
  firstResolved: string | null;
  airPowerTried: boolean;
  /** `side:unitId` of every unit in a combat of this increment. */
  units: string[];
}

export interface ReactionSegment {
  side: Side;
  spent: number;
  units: string[];
  army: boolean;
}

export interface France44State {
  /** The game's options, fixed at creation. */
  options: France44Options;
  turn: number;
  reactionPoints: Record<Side, number>;
  /** Errata: HQ activations of the current game turn, per side. */
  hq: Record<Side, { byHq: IdRecord<number>; last: string | null }>;
  segment: ReactionSegment | null;
  increment: AttackIncrement | null;
  incrementsPlayed: number;
  /** Sides that applied supply attrition this game turn. */
  attrition: Side[];
}

const freshHqRecord = (): France44State['hq'] => ({ allied: { byHq: idRecord(), last: null }, german: { byHq: idRecord(), last: null } });

export function initialFrance44State(options: France44Options): France44State {
  return { options, turn: 0, reactionPoints: { allied: 0, german: 0 }, hq: freshHqRecord(), segment: null, increment: null, incrementsPlayed: 0, attrition: [] };
}

/** Folds one event; never rolls, never fails. */
export function evolveFrance44(state: France44State, event: DomainEvent): France44State {
  const d = event.data as Record<string, any>;
  switch (event.type) {
    case 'TurnStarted':
      return { ...state, turn: d.turn, reactionPoints: { ...d.reactionPoints }, hq: freshHqRecord(), attrition: [] };
    case 'HQActivated': {
      const side = d.side as Side;
      const record = state.hq[side];
      return {
        ...state,
        hq: { ...state.hq, [side]: { byHq: withEntry(record.byHq, d.hqId, (entryOf(record.byHq, d.hqId) ?? 0) + 1), last: d.hqId } },
      };
    }
    case 'ReactionSegmentBegun':
      return { ...state, segment: { side: d.side, spent: 0, units: [], army: false } };
    case 'ReactionPhaseTaken':
      return {
        ...state,
        reactionPoints: { ...state.reactionPoints, [d.side]: d.pointsLeft },
        segment: state.segment && {
          ...state.segment,
          spent: state.segment.spent + d.cost,
          units: [...state.segment.units, d.unitId],
          army: state.segment.army || d.kind === 'army',
        },
      };
    case 'ReactionSegmentEnded':
      return { ...state, reactionPoints: { ...state.reactionPoints, [d.side]: d.pointsLeft }, segment: null };
    case 'AttackIncrementBegun':
      return {
        ...state,
        increment: { number: d.increment, attacker: d.attacker, combats: idRecord(), firstResolved: null, airPowerTried: false, units: [] },
      };
    case 'CombatDeclared': {
      const inc = state.increment!;
      const declaration = d.declaration as DeclareCombat;
      const defenderSide = SIDES.find((s) => s !== inc.attacker)!;
      return {
        ...state,
        increment: {
          ...inc,
          combats: withEntry(inc.combats, declaration.combatId, { declaration, airPower: false, resolved: false, code: null }),
          units: [
            ...inc.units,
            ...declaration.attackers.map((a) => `${inc.attacker}:${a.unitId}`),
            ...declaration.defenders.map((x) => `${defenderSide}:${x.unitId}`),
          ],
        },
      };
    }
    case 'AirPowerAllocated':
    case 'AirPowerUnavailable': {
      const inc = state.increment!;
      const combat = entryOf(inc.combats, d.combatId);
      const combats = event.type === 'AirPowerAllocated' && combat ? withEntry(inc.combats, d.combatId, { ...combat, airPower: true }) : inc.combats;
      return { ...state, increment: { ...inc, airPowerTried: true, combats } };
    }
    case 'CombatResolved': {
      const inc = state.increment!;
      return {
        ...state,
        increment: {
          ...inc,
          firstResolved: inc.firstResolved ?? d.combatId,
          combats: withEntry(inc.combats, d.combatId, { ...entryOf(inc.combats, d.combatId)!, resolved: true, code: d.code }),
        },
      };
    }
    case 'AttackIncrementEnded':
      return { ...state, increment: null, incrementsPlayed: state.incrementsPlayed + 1 };
    case 'SupplyAttritionApplied':
      return { ...state, attrition: [...state.attrition, d.side] };
    default:
      return state;
  }
}

export function presentFrance44(state: France44State) {
  return {
    turn: state.turn,
    reactionPoints: state.reactionPoints,
    hqActivations: state.hq,
    reactionSegment: state.segment,
    attackIncrement: state.increment && {
      number: state.increment.number,
      attacker: state.increment.attacker,
      airPowerTried: state.increment.airPowerTried,
      combats: Object.entries(state.increment.combats).map(([combatId, c]) => ({ combatId, airPower: c.airPower, resolved: c.resolved, code: c.code })),
    },
    incrementsPlayed: state.incrementsPlayed,
  };
}
