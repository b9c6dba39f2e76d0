import type { DiceSource } from '../../dice';
import { RuleViolation } from '../../errors';
import { entryOf } from '../idRecord';
import { AIR_KINDS, rolesFor, rollAvailability, type AvailabilityCheck } from './availability';
import { returnsInTurn, waitingUntil } from './airState';
import { checkReach } from './bombardmentReach';
import { RULE } from './rules';
import type { Bombard, DeclareAttack, EndTurn, Kind } from './schemas';
import type { WarsAndBattlesState } from './state';

/** Rules version 2 (issue 31): air missions, weather and availability. Version 1 never calls these. */

type Hit = { unitId: string; lp: number; aborted?: boolean | undefined };
export type Cancelled = { unitId: string; reason: 'aborted' | 'destroyed' };

const unit = (state: WarsAndBattlesState, id: string) => entryOf(state.units, id)!;
const flies = (kind: Kind) => AIR_KINDS.includes(kind);

/** 4.2.2 and 10.3: a unit that cannot fly or fire this turn is refused its mission. */
function requireAvailable(state: WarsAndBattlesState, id: string, what: string): void {
  const { kind } = unit(state, id);
  if (flies(kind) && state.weather === 'storm') throw new RuleViolation(`${id} is an air unit and the weather is storm: every air unit is grounded, it cannot ${what}.`, RULE.storm);
  const rolled = entryOf(state.air.unavailable, id);
  if (rolled) {
    const why = rolled === 'weather' ? `the weather (${state.weather}) grounds it` : rolled === 'maintenance' ? 'it has a maintenance issue' : 'it is not available';
    throw new RuleViolation(`${id} is not available in turn ${state.turn}: ${why}, as rolled at the start of the turn; it cannot ${what}.`, RULE.availability);
  }
  const waiting = waitingUntil(state, id);
  if (waiting !== null) throw new RuleViolation(`${id} is a heavy bomber that bombarded in turn ${entryOf(state.air.lastMission, id)}: it is next available in turn ${waiting}.`, RULE.bomberWait);
}

/** The air units the AA shot down (all their LP) or made give up: they deliver nothing (7.4.4, 7.5.2). */
export function cancelledBy(state: WarsAndBattlesState, hits: readonly Hit[]): Cancelled[] {
  return hits.flatMap((hit): Cancelled[] => {
    if (hit.lp >= unit(state, hit.unitId).lp) return [{ unitId: hit.unitId, reason: 'destroyed' }];
    return hit.aborted ? [{ unitId: hit.unitId, reason: 'aborted' }] : [];
  });
}

function noRepeats(ids: readonly string[]): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new RuleViolation(`${id} is named twice in the anti-aircraft fire.`, RULE.units);
    seen.add(id);
  }
}

/** Version 2 checks of a bombardment, after version 1's: one unit (7.5.1), its reach (7.5.1), the weather (4.2.2), its availability (10.3). */
export function checkBombardment(state: WarsAndBattlesState, p: Bombard): void {
  if (p.bombarders.length > 1) {
    throw new RuleViolation(
      `This bombardment names ${p.bombarders.length} units: each bombardment is one unit's, on its own roll of the bombardment table. Send one Bombard per unit (a hex can be bombarded several times a turn).`,
      RULE.oneBombardment,
    );
  }
  const [bombarder] = p.bombarders;
  if (p.sight && state.weather && p.sight.weather !== state.weather) {
    throw new RuleViolation(`The sight gives the weather as ${p.sight.weather}, but this turn's weather is ${state.weather}.`, RULE.weather);
  }
  checkReach(unit(state, bombarder.unitId).kind, bombarder);
  requireAvailable(state, bombarder.unitId, 'bombard');
}

/** Version 2 checks of the support of an attack; the support that still counts once the AA has fired (7.4.4). */
export function supportMission(state: WarsAndBattlesState, p: DeclareAttack) {
  for (const s of p.support) requireAvailable(state, s.unitId, 'support an attack');
  noRepeats(p.antiAircraft.map((a) => a.unitId));
  for (const hit of p.antiAircraft) {
    const supporting = p.support.some((s) => s.unitId === hit.unitId);
    if (!supporting || unit(state, hit.unitId).kind !== 'air') {
      throw new RuleViolation(`${hit.unitId} is not an aircraft supporting this attack: only supporting aircraft are fired on by anti-aircraft.`, RULE.supportAntiAircraft);
    }
  }
  const cancelled = cancelledBy(state, p.antiAircraft);
  const delivered = p.support.filter((s) => !cancelled.some((c) => c.unitId === s.unitId));
  return { cancelled, delivered };
}

/** Version 1 knows no AA on support, no abort and no weather: refused rather than ignored. */
export function refuseInVersion1(what: string): never {
  throw new RuleViolation(`This game plays rules version 1, which has no ${what}: it was created before version 2 and keeps its rules.`, RULE.rulesVersion);
}

/** The turn change (version 2): the next turn's weather, air units back (3.3), the availability rolls (10.3, 10.1.1). */
export function turnChange(state: WarsAndBattlesState, p: EndTurn, dice: DiceSource) {
  const turn = state.turn;
  const weather = p.weather ?? state.weather ?? 'sunny';
  const returned = Object.entries(state.units)
    .filter(([id, u]) => u.out === 'destroyed' && flies(u.kind) && returnsInTurn(state, id) === turn)
    .map(([unitId, u]) => ({ unitId, destroyedInTurn: entryOf(state.air.destroyedInTurn, unitId)!, lpAfter: u.maxLp }));
  const back = new Set(returned.map((r) => r.unitId));
  const rolled: { unitId: string; available: boolean; checks: AvailabilityCheck[] }[] = [];
  for (const [unitId, u] of Object.entries(state.units)) {
    if ((u.out && !back.has(unitId)) || rolesFor(u.kind).length === 0) continue;
    // Grounded by the storm whatever the tables say (4.2.2), waiting heavy bombers (10.3): no roll.
    if (flies(u.kind) && (weather === 'storm' || waitingUntil(state, unitId) !== null)) continue;
    rolled.push({ unitId, ...rollAvailability(u.kind, state.air.availability, weather, dice) });
  }
  return { weather: p.weather === undefined ? null : { turn, weather }, returned, availability: rolled.length ? { turn, weather, units: rolled } : null };
}
