import { unknownEvent } from '../../defineRuleset';
import type { EuropaEvent } from './events';
import { tableHash, type TableDefinition } from '../../tables';
import { entryOf, idRecord, withEntry, withoutEntry, type IdRecord } from '../idRecord';
import type { ChartRow } from './fortificationChart';
import { gameRulesVersion, type RulesVersion } from './rulesVersion';

import { SIDES, SITE_KINDS, type Side, type SiteKind } from './sides';

export { SIDES, SITE_KINDS, type Side, type SiteKind };
export type Condition = 'intact' | 'improved' | 'unimproved' | 'destroyed' | 'under-construction';

export interface Site {
  kind: SiteKind;
  owner: Side;
  condition: Condition;
  /** Westwall only: the level, [1] to [3], an improved hex has */
  level?: number;
  improvement?: { begunOnTurn: number; completesOnTurn: number; quickConstruction: boolean };
  /** rules version 3: a fort placed during play, in effect once the turn it completes on begins */
  construction?: { begunOnTurn: number; completesOnTurn: number; quickConstruction: boolean };
}

export interface EuropaState {
  /** which events the game records (rulesVersion.ts) */
  rulesVersion: RulesVersion;
  aaTable: TableDefinition;
  otherEuropaGames: boolean;
  fires: number;
  lastFire: { fireId: string; hex: string; column: string; roll: number; result: number | null; affected: number } | null;
  turn: number;
  /** the initial phases begun this turn, in order */
  phases: Side[];
  /** Axis initial phases begun in the game */
  axisPhases: number;
  emergency: { declaredOnTurn: number; declaredAtAxisPhase: number; status: 'declared' | 'continuing' | 'completed' } | null;
  /** by site id (a hex or a hexside, as the players name it) */
  sites: IdRecord<Site>;
}

export function initialEuropaState(options: { aaTable: TableDefinition; otherEuropaGames: boolean; rulesVersion?: RulesVersion }): EuropaState {
  return {
    rulesVersion: gameRulesVersion(options),
    aaTable: options.aaTable,
    otherEuropaGames: options.otherEuropaGames,
    fires: 0,
    lastFire: null,
    turn: 0,
    phases: [],
    axisPhases: 0,
    emergency: null,
    sites: idRecord(),
  };
}

/** The line of the fortification effects chart a site's fortification stands on now. */
export function chartRowOf(site: Pick<Site, 'kind' | 'condition' | 'level'>): ChartRow {
  switch (site.kind) {
    case 'fortified-hexside':
    case 'fortress':
      return `${site.kind}-${site.condition === 'improved' ? 'improved' : 'unimproved'}`;
    case 'westwall':
      return site.condition === 'improved' ? (`westwall-${site.level}` as ChartRow) : 'westwall-unimproved';
    case 'ouvrage':
      return site.condition === 'destroyed' ? 'ouvrage-destroyed' : 'ouvrage';
    default:
      return site.kind;
  }
}

const update = (state: EuropaState, id: string, change: Partial<Site>): EuropaState => {
  const site = entryOf(state.sites, id);
  if (!site) return state;
  const next: Site = { ...site, ...change };
  if (next.improvement === undefined) delete next.improvement;
  return { ...state, sites: withEntry(state.sites, id, next) };
};

/** Every site `selected` changed at once, in one pass over the sites (a step of version 2's rules names no hex). */
function changeEvery(state: EuropaState, selected: (site: Site) => boolean, condition: Condition): EuropaState {
  const sites = Object.entries(state.sites).map(([id, site]): [string, Site] => {
    if (!selected(site)) return [id, site];
    const { improvement: _done, ...rest } = site;
    return [id, { ...rest, condition }];
  });
  return { ...state, sites: idRecord(sites) };
}

/** The forts whose construction completes when this turn begins (rules version 3). */
export const built = (turn: number) => (site: Site) => site.construction?.completesOnTurn === turn;

/** The line of the chart in effect at a site: none for a fort still under construction. */
export const chartRowInEffect = (site: Site): ChartRow | null => (site.condition === 'under-construction' ? null : chartRowOf(site));

/** The sites each bulk step of version 2 changes: the same as version 1 names one by one (fortifications.ts). */
export const completing = (turn: number) => (site: Site) => site.improvement?.completesOnTurn === turn;
export const revertedByAllies = (site: Site) => site.kind === 'westwall' && site.owner === 'allied' && site.condition === 'improved';
export const restoredByEmergency = (site: Site) => site.kind === 'westwall' && site.owner === 'axis' && site.condition === 'unimproved';

export function evolveEuropa(state: EuropaState, event: EuropaEvent): EuropaState {
  switch (event.type) {
    case 'AAFired': {
      const d = event.data;
      return {
        ...state,
        fires: state.fires + 1,
        lastFire: { fireId: d.fireId, hex: d.hex, column: d.resolution.landing.column.label, roll: d.resolution.roll.modified, result: d.result, affected: d.allocation.selections.filter((s) => s.outcome !== 'unaffected').length },
      };
    }
    case 'FortificationPlaced': {
      const d = event.data;
      return { ...state, sites: withEntry(state.sites, d.site, { kind: d.kind, owner: d.owner, condition: d.condition, ...(d.level === undefined ? {} : { level: d.level }) }) };
    }
    case 'OwnershipChanged':
      return update(state, event.data.site, { owner: event.data.to });
    case 'FortificationRemoved':
      return { ...state, sites: withoutEntry(state.sites, event.data.site) };
    case 'ConditionChanged':
      return update(state, event.data.site, { condition: event.data.to, improvement: undefined });
    case 'ImprovementBegun': {
      const d = event.data;
      return update(state, d.site, { improvement: { begunOnTurn: d.turn, completesOnTurn: d.completesOnTurn, quickConstruction: d.quickConstruction } });
    }
    case 'FortConstructionBegun': {
      const d = event.data;
      const construction = { begunOnTurn: d.turn, completesOnTurn: d.completesOnTurn, quickConstruction: d.quickConstruction };
      return { ...state, sites: withEntry(state.sites, d.site, { kind: 'fort', owner: d.owner, condition: 'under-construction', construction }) };
    }
    case 'FortsCompleted': {
      const done = built(event.data.turn);
      const sites = Object.entries(state.sites).map(([id, site]): [string, Site] => {
        if (!done(site)) return [id, site];
        const { construction: _built, ...rest } = site;
        return [id, { ...rest, condition: 'intact' }];
      });
      return { ...state, sites: idRecord(sites) };
    }
    case 'ImprovementCancelled':
      return update(state, event.data.site, { improvement: undefined });
    case 'EmergencyRestorationDeclared':
      return { ...state, emergency: { declaredOnTurn: event.data.turn, declaredAtAxisPhase: event.data.axisPhase, status: 'declared' } };
    case 'EmergencyRestorationContinued':
      return { ...state, emergency: { ...state.emergency!, status: 'continuing' } };
    case 'EmergencyRestorationCompleted': {
      // Version 1 names the hexes here and records each one's ConditionChanged after; version 2 counts them.
      const restored = typeof event.data.hexes === 'number' ? changeEvery(state, restoredByEmergency, 'improved') : state;
      return { ...restored, emergency: { ...state.emergency!, status: 'completed' } };
    }
    case 'ImprovementsCompleted':
      return changeEvery(state, completing(event.data.turn), 'improved');
    case 'AlliedWestwallUnimproved':
      return changeEvery(state, revertedByAllies, 'unimproved');
    case 'TurnBegan':
      return { ...state, turn: event.data.turn, phases: [] };
    case 'InitialPhaseBegan': {
      const { side } = event.data;
      return { ...state, phases: [...state.phases, side], axisPhases: side === 'axis' ? state.axisPhases + 1 : state.axisPhases };
    }
    default:
      return unknownEvent(event, state);
  }
}

/**
 * The side whose initial phase began last (its player-turn); nobody before the first
 * InitialPhaseBegan, or once a new turn began and no phase yet.
 */
export const europaToMove = (state: EuropaState): Side | null => state.phases.at(-1) ?? null;

export function presentEuropa(state: EuropaState) {
  const table = state.aaTable;
  return {
    aaTable: { id: table.id, title: table.title, hash: tableHash(table), example: table.example === true },
    otherEuropaGames: state.otherEuropaGames,
    fires: state.fires,
    lastFire: state.lastFire,
    turn: state.turn,
    phase: state.phases.at(-1) ?? null,
    emergencyRestoration: state.emergency,
    sites: Object.entries(state.sites).map(([site, s]) => ({
      site,
      kind: s.kind,
      owner: s.owner,
      condition: s.condition,
      ...(s.level === undefined ? {} : { level: s.level }),
      chartRow: chartRowInEffect(s),
      improvement: s.improvement ?? null,
      ...(s.construction ? { construction: s.construction } : {}),
    })),
  };
}
