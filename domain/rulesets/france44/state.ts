import { unknownEvent } from '../../defineRuleset';
import type { France44Event } from './events';
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
export function evolveFrance44(state: France44State, event: France44Event): France44State {
  switch (event.type) {
    case 'TurnStarted':
      return { ...state, turn: event.data.turn, reactionPoints: { ...event.data.reactionPoints }, hq: freshHqRecord(), attrition: [] };
    case 'HQActivated': {
      const { side, hqId } = event.data;
      const record = state.hq[side];
      return {
        ...state,
        hq: { ...state.hq, [side]: { byHq: withEntry(record.byHq, hqId, (entryOf(record.byHq, hqId) ?? 0) + 1), last: hqId } },
      };
    }
    case 'ReactionSegmentBegun':
      return { ...state, segment: { side: event.data.side, spent: 0, units: [], army: false } };
    case 'ReactionPhaseTaken': {
      const d = event.data;
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
    }
    case 'ReactionSegmentEnded':
      return { ...state, reactionPoints: { ...state.reactionPoints, [event.data.side]: event.data.pointsLeft }, segment: null };
    case 'AttackIncrementBegun':
      return {
        ...state,
        increment: { number: event.data.increment, attacker: event.data.attacker, combats: idRecord(), firstResolved: null, airPowerTried: false, units: [] },
      };
    case 'CombatDeclared': {
      const inc = state.increment!;
      const { declaration } = event.data;
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
      const { combatId } = event.data;
      const combat = entryOf(inc.combats, combatId);
      const combats = event.type === 'AirPowerAllocated' && combat ? withEntry(inc.combats, combatId, { ...combat, airPower: true }) : inc.combats;
      return { ...state, increment: { ...inc, airPowerTried: true, combats } };
    }
    case 'CombatResolved': {
      const inc = state.increment!;
      const { combatId, code } = event.data;
      return {
        ...state,
        increment: {
          ...inc,
          firstResolved: inc.firstResolved ?? combatId,
          combats: withEntry(inc.combats, combatId, { ...entryOf(inc.combats, combatId)!, resolved: true, code }),
        },
      };
    }
    case 'AttackIncrementEnded':
      return { ...state, increment: null, incrementsPlayed: state.incrementsPlayed + 1 };
    case 'SupplyAttritionApplied':
      return { ...state, attrition: [...state.attrition, event.data.side] };
    case 'UnitStepLost':
    case 'UnitEliminated':
    case 'HQDispersed':
    case 'ReactionSegmentDeclined':
      // Recorded for the players; the decider keeps no count of them.
      return state;
    default:
      return unknownEvent(event, state);
  }
}

/**
 * The side the game waits on: the side of an open Reaction Segment, else the attacker of an
 * open attack increment; nobody between them, where the ruleset records no initiative order.
 */
export const france44ToMove = (state: France44State): Side | null => state.segment?.side ?? state.increment?.attacker ?? null;

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
