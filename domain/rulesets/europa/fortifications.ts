import { RuleViolation } from '../../errors';
import { entryOf } from '../idRecord';
import type { EuropaEvent, EuropaEventData } from './events';
import type { FortificationEvent } from './schemas';
import { built, chartRowOf, completing, restoredByEmergency, revertedByAllies, type EuropaState, type Side, type Site, type SiteKind } from './state';

/** What a FortificationEvent command asks, as its schema parsed it. */
export type FortificationAction = FortificationEvent;

export const RULE = {
  setup: 'europa 30A4: fortifications at the start of play',
  owner: "europa 30A4: ownership of a fortification's hex",
  port: 'europa 30A4c: a port fortification is a unit',
  fortress: 'europa 30A4b: a fortress never becomes improved during the game',
  hexside: 'europa 30A4d: fortified hexsides stay unimproved',
  westwall: 'europa 30A4e: improving the Westwall, 4 turns (2 with quick construction) for 2 resource points',
  emergency: 'europa 30A4e: emergency restoration of the Westwall, once per game, declared in an Axis initial phase',
  ouvrage: 'europa 30A4f: ouvrages stay unimproved',
  destroy: 'europa 30A4: what other rules may destroy (ruling)',
  turns: 'europa: game turns and initial phases follow one another',
  construction: 'europa construction: forts take two turns to build, one with quick construction (rules version 3)',
  quickConstruction: 'europa construction: only construction brigades with a defense strength of 2 or more perform quick construction by themselves (rules version 3)',
};

/** Forts take 2 turns to build, regardless of terrain; quick construction halves it. */
export const FORT_TURNS = { normal: 2, quick: 1 } as const;

/** What the Axis forfeits in the Axis initial phases of an emergency restoration. */
export const FORFEITS = ['resource-point reinforcements', 'civilian labour in every Wehrkreis with a Westwall fortification'];
export const IMPROVEMENT_RP = 2;

const q = JSON.stringify;
const other = (side: Side): Side => (side === 'axis' ? 'allied' : 'axis');
function event<T extends EuropaEvent['type']>(type: T, data: EuropaEventData<T>): EuropaEvent {
  // The compiler can't pair a generic type with its data; the signature does.
  return { type, data } as EuropaEvent;
}
/** Map fortifications: on the map or in the orders of battle at the start of play, never built. */
const MAP_KINDS: readonly SiteKind[] = ['fortress', 'westwall', 'ouvrage', 'fortified-hexside'];

function siteOf(state: EuropaState, id: string): Site {
  const site = entryOf(state.sites, id);
  if (!site) throw new RuleViolation(`No fortification ${q(id)} was placed.`, RULE.owner);
  return site;
}

const changed = (id: string, site: Site, to: Site['condition'], reason: EuropaEventData<'ConditionChanged'>['reason']) =>
  event('ConditionChanged', { site: id, kind: site.kind, from: site.condition, to, reason, chartRow: chartRowOf({ ...site, condition: to }) });

/** Rule 30A4's state machine, one fortification per site: each action's consequences as events, in order. */
export function decideFortification(state: EuropaState, p: FortificationAction, actor: string): EuropaEvent[] {
  switch (p.action) {
    case 'place':
      return [place(state, p)];
    case 'gain':
    case 'loss': {
      const site = siteOf(state, p.site);
      const to = p.action === 'gain' ? p.side : other(p.side);
      if (site.owner === to) throw new RuleViolation(`The ${to} side already owns ${q(p.site)}.`, RULE.owner);
      if (site.kind === 'port-fortification') throw new RuleViolation(`${q(p.site)} is a port fortification, a unit: the enemy gains its hex only once it is destroyed.`, RULE.port);
      const events = [event('OwnershipChanged', { site: p.site, kind: site.kind, from: site.owner, to })];
      if (site.improvement) events.push(event('ImprovementCancelled', { site: p.site, reason: 'enemy-gain' }));
      if (site.kind === 'fort') events.push(event('FortificationRemoved', { site: p.site, kind: site.kind, reason: 'enemy-gain' }));
      if (site.kind === 'fortress' && site.condition === 'improved') events.push(changed(p.site, site, 'unimproved', 'enemy-gain'));
      return events;
    }
    case 'destroy': {
      const site = siteOf(state, p.site);
      if (site.kind === 'ouvrage') {
        if (site.condition === 'destroyed') throw new RuleViolation(`The ouvrage ${q(p.site)} is already destroyed.`, RULE.destroy);
        return [changed(p.site, site, 'destroyed', 'destroyed')];
      }
      if (MAP_KINDS.includes(site.kind)) throw new RuleViolation(`Rule 30A4 gives no way to destroy a ${site.kind}: ${q(p.site)} keeps its combat effects whoever owns it.`, RULE.destroy);
      return [event('FortificationRemoved', { site: p.site, kind: site.kind, reason: 'destroyed' })];
    }
    case 'begin-improvement':
      return [beginImprovement(state, p, actor)];
    case 'emergency-restoration': {
      if (actor === 'allied') throw new RuleViolation('Only the Axis player declares an emergency restoration of the Westwall.', RULE.emergency);
      if (state.emergency) throw new RuleViolation(`The Axis player declared the emergency restoration of the Westwall on turn ${state.emergency.declaredOnTurn}: it is declared only once per game.`, RULE.emergency);
      if (state.phases.at(-1) !== 'axis') throw new RuleViolation('An emergency restoration is declared in an Axis initial phase: begin it first (FortificationEvent initial-phase).', RULE.emergency);
      return [
        event('EmergencyRestorationDeclared', { turn: state.turn, axisPhase: state.axisPhases, alliedGroundUnitIn: p.alliedGroundUnitIn, restoredAtAxisPhase: state.axisPhases + 2, forfeits: FORFEITS }),
      ];
    }
    case 'turn': {
      if (p.turn !== state.turn + 1) throw new RuleViolation(`The next game turn is turn ${state.turn + 1}, not turn ${p.turn}.`, RULE.turns);
      const done = Object.entries(state.sites).filter(([, s]) => completing(p.turn)(s));
      if (state.rulesVersion >= 2) {
        const forts = Object.values(state.sites).filter(built(p.turn)).length;
        return [
          event('TurnBegan', { turn: p.turn }),
          ...(done.length > 0 ? [event('ImprovementsCompleted', { turn: p.turn, hexes: done.length })] : []),
          ...(forts > 0 ? [event('FortsCompleted', { turn: p.turn, forts })] : []),
        ];
      }
      return [event('TurnBegan', { turn: p.turn }), ...done.map(([id, s]) => changed(id, s, 'improved', 'improvement'))];
    }
    case 'initial-phase':
      return initialPhase(state, p.side);
  }
}

/**
 * Quick construction from rules version 3: a unit named as the one `builder` performs it by
 * itself, which the Construction rule allows a construction brigade (the construction symbol)
 * with a defense strength of 2 or more. Quick construction without a builder is the player's
 * declaration, as in versions 1 and 2: the page says who may perform it by themselves, not who
 * may take part in it with others (ruling).
 */
function checkQuickConstruction(state: EuropaState, p: { quickConstruction?: boolean; builder?: { unitId: string; construction: boolean; defense: number } }): void {
  if (state.rulesVersion < 3 || !p.quickConstruction) return;
  const b = p.builder;
  if (!b) return;
  if (!b.construction) throw new RuleViolation(`${q(b.unitId)} has no construction symbol: only construction brigades perform quick construction by themselves.`, RULE.quickConstruction);
  if (b.defense < 2) throw new RuleViolation(`${q(b.unitId)} has a defense strength of ${b.defense}: a construction brigade performs quick construction by itself only with 2 or more.`, RULE.quickConstruction);
}

/** Rules version 3: a fort placed during play is begun, built when turn + 2 (+ 1 with quick construction) begins. */
function beginFort(state: EuropaState, p: Extract<FortificationAction, { action: 'place' }>): EuropaEvent {
  if (p.condition || p.level !== undefined) throw new RuleViolation('A fort has neither condition nor level: leave them out.', RULE.setup);
  checkQuickConstruction(state, p);
  const turns = p.quickConstruction ? FORT_TURNS.quick : FORT_TURNS.normal;
  return event('FortConstructionBegun', {
    site: p.site,
    owner: p.owner,
    turn: state.turn,
    turns,
    completesOnTurn: state.turn + turns,
    quickConstruction: p.quickConstruction === true,
    ...(p.builder ? { builder: p.builder } : {}),
  });
}

function place(state: EuropaState, p: Extract<FortificationAction, { action: 'place' }>): EuropaEvent {
  if (entryOf(state.sites, p.site)) throw new RuleViolation(`${q(p.site)} already holds a fortification.`, RULE.setup);
  if (state.rulesVersion >= 3 && p.kind === 'fort' && state.turn > 0) return beginFort(state, p);
  if (p.quickConstruction !== undefined || p.builder) {
    throw new RuleViolation(
      state.rulesVersion >= 3 && p.kind === 'fort'
        ? 'A fort placed before turn 1 is on the map from the start of play: it is not built, leave quickConstruction and builder out.'
        : `Only a fort placed during play is built${state.rulesVersion >= 3 ? '' : ' (from rules version 3)'}: leave quickConstruction and builder out.`,
      RULE.construction,
    );
  }
  if (MAP_KINDS.includes(p.kind) && state.turn > 0) throw new RuleViolation(`A ${p.kind} is on the map from the start of play: place it before turn 1.`, RULE.setup);
  if ((p.level === undefined) !== (p.kind !== 'westwall')) throw new RuleViolation('A Westwall hex has a level, [1] to [3]; no other fortification has one.', RULE.setup);
  let condition: Site['condition'] = 'intact';
  if (p.kind === 'fortress') {
    if (!p.condition) throw new RuleViolation('The order of battle gives each fortress its condition: say improved or unimproved.', RULE.setup);
    condition = p.condition;
  } else if (p.kind === 'westwall' || p.kind === 'fortified-hexside' || p.kind === 'ouvrage') {
    if (p.condition === 'improved') {
      const rule = p.kind === 'westwall' ? RULE.westwall : p.kind === 'ouvrage' ? RULE.ouvrage : RULE.hexside;
      throw new RuleViolation(`At the start of play every ${p.kind} is unimproved.`, rule);
    }
    condition = 'unimproved';
  } else if (p.condition) {
    throw new RuleViolation(`A ${p.kind} is improved or unimproved only as the chart says: leave the condition out.`, RULE.setup);
  }
  return event('FortificationPlaced', { site: p.site, kind: p.kind, owner: p.owner, condition, ...(p.level === undefined ? {} : { level: p.level }), chartRow: chartRowOf({ kind: p.kind, condition, level: p.level }) });
}

function beginImprovement(state: EuropaState, p: Extract<FortificationAction, { action: 'begin-improvement' }>, actor: string): EuropaEvent {
  if (actor === 'allied') throw new RuleViolation('Only the Axis player improves the Westwall.', RULE.westwall);
  if (state.turn === 0) throw new RuleViolation('Improvements take turns: begin turn 1 first (FortificationEvent turn).', RULE.turns);
  const site = siteOf(state, p.site);
  switch (site.kind) {
    case 'westwall':
      break;
    case 'fortress':
      throw new RuleViolation(
        site.condition === 'improved' ? `The fortress ${q(p.site)} is improved already.` : `The fortress ${q(p.site)} is unimproved, and an unimproved fortress may never be improved in the game.`,
        RULE.fortress,
      );
    case 'fortified-hexside':
      throw new RuleViolation(`${q(p.site)} is a fortified hexside: it stays unimproved for the whole game.`, RULE.hexside);
    case 'ouvrage':
      throw new RuleViolation(`${q(p.site)} is an ouvrage: it stays unimproved for the whole game.`, RULE.ouvrage);
    default:
      throw new RuleViolation(`Only Westwall hexes are improved; ${q(p.site)} is a ${site.kind}.`, RULE.westwall);
  }
  if (site.condition === 'improved') throw new RuleViolation(`The Westwall hex ${q(p.site)} is improved already.`, RULE.westwall);
  if (site.improvement) throw new RuleViolation(`The Westwall hex ${q(p.site)} is being improved already, until turn ${site.improvement.completesOnTurn}.`, RULE.westwall);
  if (site.owner !== 'axis') throw new RuleViolation(`The Axis player improves only Westwall hexes it owns; the allied side owns ${q(p.site)}.`, RULE.westwall);
  checkQuickConstruction(state, p);
  const turns = p.quickConstruction ? 2 : 4;
  return event('ImprovementBegun', { site: p.site, turn: state.turn, turns, completesOnTurn: state.turn + turns, quickConstruction: p.quickConstruction === true, resourcePoints: IMPROVEMENT_RP });
}

function initialPhase(state: EuropaState, side: Side): EuropaEvent[] {
  if (state.turn === 0) throw new RuleViolation('Begin turn 1 first (FortificationEvent turn).', RULE.turns);
  if (state.phases.includes(side)) throw new RuleViolation(`The ${side} initial phase of turn ${state.turn} has begun already.`, RULE.turns);
  const axisPhase = side === 'axis' ? state.axisPhases + 1 : null;
  const events = [event('InitialPhaseBegan', { turn: state.turn, side, axisPhase })];
  const sites = Object.entries(state.sites);
  if (side === 'allied') {
    const reverted = sites.filter(([, s]) => revertedByAllies(s));
    if (state.rulesVersion >= 2) return reverted.length > 0 ? [...events, event('AlliedWestwallUnimproved', { turn: state.turn, hexes: reverted.length })] : events;
    for (const [id, s] of reverted) events.push(changed(id, s, 'unimproved', 'allied-initial-phase'));
    return events;
  }
  const emergency = state.emergency;
  if (!emergency || emergency.status === 'completed') return events;
  if (axisPhase === emergency.declaredAtAxisPhase + 1) {
    events.push(event('EmergencyRestorationContinued', { turn: state.turn, axisPhase, forfeits: FORFEITS }));
  } else if (axisPhase === emergency.declaredAtAxisPhase + 2) {
    const restored = sites.filter(([, s]) => restoredByEmergency(s));
    if (state.rulesVersion >= 2) return [...events, event('EmergencyRestorationCompleted', { turn: state.turn, axisPhase, hexes: restored.length })];
    events.push(event('EmergencyRestorationCompleted', { turn: state.turn, axisPhase, sites: restored.map(([id]) => id) }));
    for (const [id, s] of restored) events.push(changed(id, s, 'improved', 'emergency-restoration'));
  }
  return events;
}
