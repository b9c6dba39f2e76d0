import type { DiceSource } from '../../dice';
import { RuleViolation } from '../../errors';
import { notACommand, type EventData } from '../../defineRuleset';
import type { DecideContext } from '../../ruleset';
import { entryOf } from '../idRecord';
import { allocateLosses, type Allocation } from './allocation';
import { identify, resolveBombardment } from './bombardment';
import { assessFight, rollFight, type Fight } from './combat';
import { cancelledBy, checkBombardment, refuseInVersion1, supportMission, turnChange, type Cancelled } from './airMissions';
import { RULE } from './rules';
import { refuseStrategicMovers, strategicMovers } from './strategicMovement';
import { type WarsAndBattlesEvent, warsAndBattlesEvents } from './events';
import type { WarsAndBattlesCommand } from './commands';
import type { Activate, Bombard, DeclareAttack, EndTurn, Replenish, ResolveAttack, Side } from './schemas';
import { evolveWarsAndBattles, otherSide, type WarsAndBattlesState } from './state';
import {
  alliedReplenishment,
  BOMBARD_KINDS,
  combatValueOf,
  FATIGUE,
  FATIGUE_THRESHOLD,
  GROUND_KINDS,
  lpStatus,
  RECOVERY,
  statusLevel,
  SUPPORT_KINDS,
  type UnitState,
} from './units';

/** Events as they are decided, each folded at once so that the next step sees it. */
class Sink {
  readonly events: WarsAndBattlesEvent[] = [];
  constructor(public state: WarsAndBattlesState) {}
  emit<T extends WarsAndBattlesEvent['type']>(type: T, data: EventData<typeof warsAndBattlesEvents, T>): void {
    // The compiler can't pair a generic type with its data; the signature does.
    const event = { type, data } as WarsAndBattlesEvent;
    this.events.push(event);
    this.state = evolveWarsAndBattles(this.state, event);
  }
  unit(unitId: string): UnitState {
    return entryOf(this.state.units, unitId)!;
  }
}

/** "an infantry unit", "a ship unit". */
const aUnit = (kind: string) => `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} unit`;

const isSide = (actor: string): actor is Side => actor === 'allied' || actor === 'axis';

function requirePhasing(state: WarsAndBattlesState, actor: string): Side {
  if (state.phasing === null) throw new RuleViolation(`Every impulse of turn ${state.turn} has been played: EndTurn comes next.`, RULE.sequence);
  if (!isSide(actor) || actor !== state.phasing) {
    throw new RuleViolation(`It is the ${state.phasing} side's impulse (impulse ${state.impulse} of turn ${state.turn}).`, RULE.sequence);
  }
  return actor;
}

function requireNoOpenAttack(state: WarsAndBattlesState): void {
  if (state.openAttack) throw new RuleViolation(`Attack ${state.openAttack.attackId} is declared: resolve it first.`, RULE.openAttack);
}

function knownUnit(state: WarsAndBattlesState, unitId: string): UnitState {
  const unit = entryOf(state.units, unitId);
  if (!unit) throw new RuleViolation(`This game has no unit ${unitId}.`, RULE.units);
  if (unit.out) throw new RuleViolation(`${unitId} is out of the game (${unit.out}).`, RULE.units);
  return unit;
}

function noDuplicates(unitIds: readonly string[], what: string): void {
  const seen = new Set<string>();
  for (const id of unitIds) {
    if (seen.has(id)) throw new RuleViolation(`${id} is named twice ${what}.`, RULE.units);
    seen.add(id);
  }
}

/** §5.2: which of these units cost a point now; refuses units spent in an earlier impulse, and too few points. */
function activationNeeds(state: WarsAndBattlesState, unitIds: readonly string[]) {
  const newly: string[] = [];
  const already: string[] = [];
  for (const id of unitIds) {
    const unit = entryOf(state.units, id)!;
    if (unit.activatedInImpulse === state.impulse) already.push(id);
    else if (unit.activatedInImpulse !== null) {
      throw new RuleViolation(`${id} was activated in impulse ${unit.activatedInImpulse}: it is unavailable in impulse ${state.impulse}.`, RULE.impulse2);
    } else newly.push(id);
  }
  if (state.activationLeft !== null && newly.length > state.activationLeft) {
    throw new RuleViolation(
      `Activating ${newly.length} unit${newly.length === 1 ? '' : 's'} takes ${newly.length} activation point${newly.length === 1 ? '' : 's'}; ${state.activationLeft} ${state.activationLeft === 1 ? 'is' : 'are'} left this impulse.`,
      RULE.activation,
    );
  }
  return { newly, already };
}

function activate(sink: Sink, side: Side, needs: { newly: string[]; already: string[] }, always = false, strategic: string[] = []): void {
  if (needs.newly.length === 0 && !always) return;
  const left = sink.state.activationLeft;
  sink.emit('UnitsActivated', {
    side,
    turn: sink.state.turn,
    impulse: sink.state.impulse,
    unitIds: needs.newly,
    alreadyActive: needs.already,
    pointsSpent: needs.newly.length,
    pointsLeft: left === null ? null : left - needs.newly.length,
    ...(strategic.length ? { strategic } : {}),
  });
}

/** A unit out of the game, or one whose status is gone: after any change of LP or energy (§7.3.4, §8.4.3). */
function settle(sink: Sink, unitId: string): void {
  const unit = sink.unit(unitId);
  if (unit.out) return;
  if (unit.lp === 0) {
    sink.emit('UnitDestroyed', { unitId });
    return;
  }
  const threshold = FATIGUE_THRESHOLD[unit.quality];
  if (!unit.fatigued && unit.energy < threshold) {
    if (lpStatus(unit) <= 1) sink.emit('UnitSurrendered', { unitId, reason: 'fatigue', energy: unit.energy, threshold });
    else sink.emit('StatusLevelLost', { unitId, energy: unit.energy, threshold, statusAfter: lpStatus(unit) - 1 });
  } else if (unit.fatigued && lpStatus(unit) <= 1) {
    sink.emit('UnitSurrendered', { unitId, reason: 'fatigue', energy: unit.energy, threshold });
  }
}

type Cause = { cause: 'fight' | 'lp-lost' | 'retreat' | 'bombarded'; points: number };

/** §8.4.2: fatigue, in points of energy, never below 0; then the status check. */
function tire(sink: Sink, unitId: string, causes: Cause[]): void {
  const unit = sink.unit(unitId);
  if (unit.out) return;
  const counted = causes.filter((c) => c.points > 0);
  const total = counted.reduce((s, c) => s + c.points, 0);
  if (total > 0) sink.emit('FatigueGained', { unitId, causes: counted, energyBefore: unit.energy, energyAfter: Math.max(0, unit.energy - total) });
  settle(sink, unitId);
}

function allocate(sink: Sink, cause: 'combat' | 'bombardment', ref: string | null, side: 'attacker' | 'defender', units: { unitId: string; value: number }[], losses: number, dice: DiceSource): Allocation | null {
  if (losses <= 0) return null;
  const allocation = allocateLosses(
    units.map((u) => ({ unitId: u.unitId, value: u.value, lp: sink.unit(u.unitId).lp })),
    losses,
    dice,
  );
  sink.emit('LossesAllocated', {
    cause,
    ref,
    side,
    losses,
    ranking: allocation.ranking.map((i) => units[i].unitId),
    picks: allocation.picks.map(({ index: _index, ...pick }) => pick),
    units: allocation.units.filter((u) => u.lost > 0).map((u) => ({ unitId: units[u.index].unitId, lost: u.lost, lpAfter: u.lpAfter })),
    unallocated: allocation.unallocated,
  });
  for (const u of units) if (sink.unit(u.unitId).lp === 0) settle(sink, u.unitId);
  return allocation;
}

const lostBy = (allocation: Allocation | null, index: number) => allocation?.units[index].lost ?? 0;

export function decideWarsAndBattles(state: WarsAndBattlesState, command: WarsAndBattlesCommand, ctx: DecideContext): WarsAndBattlesEvent[] {
  const sink = new Sink(state);
  switch (command.type) {
    case 'Activate':
      activateUnits(sink, command.payload, ctx.actor);
      break;
    case 'DeclareAttack':
      declareAttack(sink, command.payload, ctx);
      break;
    case 'ResolveAttack':
      resolveAttack(sink, command.payload, ctx);
      break;
    case 'Bombard':
      requirePhasing(sink.state, ctx.actor);
      refuseStrategicMovers(sink.state, command.payload.bombarders.map((b) => b.unitId), 'bombard');
      bombard(sink, command.payload, ctx);
      break;
    case 'Replenish':
      replenish(sink, command.payload, ctx.actor);
      break;
    case 'EndImpulse':
      endImpulse(sink, ctx.actor);
      break;
    case 'EndTurn':
      endTurn(sink, command.payload, ctx);
      break;
    default:
      return notACommand(command, 'Wars and Battles', 'wars-and-battles: commands');
  }
  return sink.events;
}

function ownUnits(state: WarsAndBattlesState, side: Side, unitIds: readonly string[]): void {
  for (const id of unitIds) {
    const unit = knownUnit(state, id);
    if (unit.side !== side) throw new RuleViolation(`${id} is a unit of the ${unit.side} side, not yours.`, RULE.units);
  }
}

function activateUnits(sink: Sink, { unitIds, strategic }: Activate, actor: string): void {
  const side = requirePhasing(sink.state, actor);
  requireNoOpenAttack(sink.state);
  noDuplicates(unitIds, 'in the activation');
  ownUnits(sink.state, side, unitIds);
  const movers = strategicMovers(sink.state, unitIds, strategic);
  activate(sink, side, activationNeeds(sink.state, unitIds), true, movers);
}

/** Every division of `side` whose units still in the game are all among `involved`. */
function completeDivisions(state: WarsAndBattlesState, side: Side, involved: readonly string[]): string[] {
  const names = new Set<string>();
  for (const id of involved) {
    const division = entryOf(state.units, id)?.division;
    if (division) names.add(division);
  }
  const inGame = Object.entries(state.units).filter(([, u]) => u.side === side && !u.out);
  return [...names].filter((name) => inGame.filter(([, u]) => u.division === name).every(([id]) => involved.includes(id)));
}

function declareAttack(sink: Sink, p: DeclareAttack, ctx: DecideContext): void {
  const state = sink.state;
  const side = requirePhasing(state, ctx.actor);
  requireNoOpenAttack(state);
  if (state.attackIds.includes(p.attackId)) throw new RuleViolation(`Attack ${p.attackId} was already declared in this game.`, RULE.attackIds);
  if (state.hexesAttacked.includes(p.targetHex)) throw new RuleViolation(`Hex ${p.targetHex} was already attacked this turn: a hex is attacked once per turn (it may be bombarded again).`, RULE.oneHex);
  if (p.support.length > 3) throw new RuleViolation(`A fight takes at most 3 support units; this one names ${p.support.length}.`, RULE.supports);
  const attackerIds = p.attackers.map((a) => a.unitId);
  const supportIds = p.support.map((s) => s.unitId);
  noDuplicates([...attackerIds, ...p.defenders, ...supportIds], 'in this attack');

  for (const id of attackerIds) {
    const unit = knownUnit(state, id);
    if (unit.side !== side) throw new RuleViolation(`${id} is a unit of the ${unit.side} side: it can't attack for the ${side} side.`, RULE.landCombat);
    if (!GROUND_KINDS.includes(unit.kind)) throw new RuleViolation(`${id} is ${aUnit(unit.kind)}: only ground units attack in land combat (it may support or bombard).`, RULE.landCombat);
    if (unit.outOfSupply) throw new RuleViolation(`${id} is out of supply: an out-of-supply unit cannot attack.`, RULE.outOfSupply);
    if (unit.attackedThisTurn) throw new RuleViolation(`${id} has already attacked this turn: a unit makes one attack per turn (supporting or bombarding counts as its attack, ruling).`, RULE.oneAttack);
  }
  for (const id of p.defenders) {
    const unit = knownUnit(state, id);
    if (unit.side === side) throw new RuleViolation(`${id} is one of your own units: the defenders are the enemy units in the attacked hex.`, RULE.landCombat);
    if (!GROUND_KINDS.includes(unit.kind)) throw new RuleViolation(`${id} is ${aUnit(unit.kind)}: land combat is fought against ground units.`, RULE.landCombat);
  }
  for (const id of supportIds) {
    const unit = knownUnit(state, id);
    if (unit.side !== side) throw new RuleViolation(`${id} is a unit of the defending side: defenders cannot benefit from any support.`, RULE.defenderSupport);
    if (!SUPPORT_KINDS.includes(unit.kind)) throw new RuleViolation(`${id} is ${aUnit(unit.kind)}: support comes from artillery, ships and aircraft.`, RULE.supportKind);
    if (unit.outOfSupply) throw new RuleViolation(`${id} is out of supply: an out-of-supply unit cannot attack, nor support an attack (ruling).`, RULE.outOfSupply);
    if (unit.attackedThisTurn) throw new RuleViolation(`${id} has already attacked, supported or bombarded this turn: one of them per turn (ruling).`, RULE.oneAttack);
  }
  refuseStrategicMovers(state, attackerIds, 'attack');
  refuseStrategicMovers(state, supportIds, 'support an attack');
  const air = state.rulesVersion >= 2 ? supportMission(state, p) : p.antiAircraft.length ? refuseInVersion1('anti-aircraft fire on support') : null;
  const needs = activationNeeds(state, [...attackerIds, ...supportIds]);

  const unit = (id: string) => entryOf(state.units, id)!;
  const integrity = { attacker: completeDivisions(state, side, [...attackerIds, ...supportIds]), defender: completeDivisions(state, otherSide(side), p.defenders) };
  const fighter = (id: string) => ({ unitId: id, kind: unit(id).kind, tiger: unit(id).tiger, commander: unit(id).commander, smallerThanBattalion: unit(id).smallerThanBattalion });
  const attackers = p.attackers.map((a) => ({ ...fighter(a.unitId), value: combatValueOf(unit(a.unitId), 'attack'), hex: a.hex }));
  const defenders = p.defenders.map((id) => ({ ...fighter(id), value: combatValueOf(unit(id), 'defence') }));
  const fight: Fight = {
    attackerSide: side,
    attackers,
    defenders,
    support: air ? air.delivered : p.support,
    terrain: p.terrain,
    across: p.across,
    ...(p.cherbourg ? { cherbourg: p.cherbourg } : {}),
    divisionalIntegrity: { attacker: integrity.attacker.length > 0, defender: integrity.defender.length > 0 },
    rulesVersion: state.rulesVersion,
  };
  const assessment = assessFight(fight, { combatTable: state.tables.combat, supportTable: state.tables.support, terrain: state.terrain, commanders: state.commanders }, ctx.dice);

  activate(sink, side, needs);
  if (air) antiAircraftFire(sink, p.antiAircraft, { mission: 'support', ref: p.attackId, targetHex: p.targetHex });
  sink.emit('AttackDeclared', {
    attackId: p.attackId,
    attacker: side,
    targetHex: p.targetHex,
    attackers: attackers.map((a) => ({ unitId: a.unitId, hex: a.hex, attack: a.value, status: statusLevel(unit(a.unitId)) })),
    defenders: defenders.map((d) => ({ unitId: d.unitId, defence: d.value, status: statusLevel(unit(d.unitId)) })),
    support: p.support,
    terrain: p.terrain,
    across: p.across,
    ...(p.cherbourg ? { cherbourg: p.cherbourg } : {}),
    divisionalIntegrity: integrity,
    ratio: { attack: assessment.attack, defence: assessment.defence },
    shifts: assessment.shifts,
    modifiers: assessment.modifiers,
    supportLookup: assessment.support.lookup ? { points: assessment.support.points, bonus: assessment.support.bonus, lookup: assessment.support.lookup } : null,
    landing: assessment.landing,
  });
}

function resolveAttack(sink: Sink, p: ResolveAttack, ctx: DecideContext): void {
  const attack = sink.state.openAttack;
  if (!attack || attack.attackId !== p.attackId) {
    const reason = sink.state.attackIds.includes(p.attackId) ? 'is already resolved' : 'was not declared';
    throw new RuleViolation(`Attack ${p.attackId} ${reason}.`, RULE.attackIds);
  }
  if (ctx.actor !== attack.attacker) throw new RuleViolation(`Attack ${p.attackId} is the ${attack.attacker} side's to resolve.`, RULE.sequence);
  const defenderIds = attack.defenders.map((d) => d.unitId);
  noDuplicates(p.retreats.map((r) => r.unitId), 'in the retreats');
  for (const r of p.retreats) {
    if (!defenderIds.includes(r.unitId)) throw new RuleViolation(`${r.unitId} is not one of the defenders of attack ${p.attackId}.`, RULE.landCombat);
  }

  const result = rollFight(attack, sink.state.tables.combat, ctx.dice);
  sink.emit('AttackResolved', {
    attackId: p.attackId,
    resolution: result.resolution,
    unproven: result.resolution.unproven,
    attackerLoss: result.attackerLoss,
    defenderLoss: result.defenderLoss,
    retreat: result.retreat,
  });
  const attackers = attack.attackers.map((a) => ({ unitId: a.unitId, value: a.attack }));
  const defenders = attack.defenders.map((d) => ({ unitId: d.unitId, value: d.defence }));
  const attackerLosses = allocate(sink, 'combat', p.attackId, 'attacker', attackers, result.attackerLoss, ctx.dice);
  const defenderLosses = allocate(sink, 'combat', p.attackId, 'defender', defenders, result.defenderLoss, ctx.dice);

  const retreated = new Map<string, number>();
  if (result.retreat) {
    for (const id of defenderIds) {
      const unit = sink.unit(id);
      if (unit.out) continue;
      const route = p.retreats.find((r) => r.unitId === id)?.route ?? 'open';
      if (route === 'none') {
        sink.emit('UnitSurrendered', { unitId: id, reason: 'no-retreat' });
        continue;
      }
      const lpLost = route === 'enemy-zoc' ? Math.min(unit.lp, sink.state.zocRetreatLoss) : 0;
      sink.emit('UnitRetreated', { attackId: p.attackId, unitId: id, route, lpLost, lpAfter: unit.lp - lpLost });
      retreated.set(id, lpLost);
      settle(sink, id);
    }
  }
  attack.attackers.forEach((a, i) => tire(sink, a.unitId, [{ cause: 'fight', points: FATIGUE.fight }, { cause: 'lp-lost', points: FATIGUE.perLpLost * lostBy(attackerLosses, i) }]));
  attack.defenders.forEach((d, i) => {
    const zoc = retreated.get(d.unitId);
    tire(sink, d.unitId, [
      { cause: 'fight', points: FATIGUE.fight },
      { cause: 'lp-lost', points: FATIGUE.perLpLost * (lostBy(defenderLosses, i) + (zoc ?? 0)) },
      { cause: 'retreat', points: zoc === undefined ? 0 : FATIGUE.retreat },
    ]);
  });
}

function bombard(sink: Sink, p: Bombard, ctx: DecideContext): void {
  const state = sink.state;
  const side = requirePhasing(state, ctx.actor);
  requireNoOpenAttack(state);
  const bombarderIds = p.bombarders.map((b) => b.unitId);
  noDuplicates([...bombarderIds, ...p.targets], 'in this bombardment');
  for (const id of bombarderIds) {
    const unit = knownUnit(state, id);
    if (unit.side !== side) throw new RuleViolation(`${id} is a unit of the ${unit.side} side, not yours.`, RULE.bombard);
    if (!BOMBARD_KINDS[side].includes(unit.kind)) {
      throw new RuleViolation(
        side === 'axis' ? `${id} is ${aUnit(unit.kind)}: the Axis bombards only with artillery.` : `${id} is ${aUnit(unit.kind)}: only artillery, ships and heavy bombers bombard.`,
        RULE.bombard,
      );
    }
    if (unit.outOfSupply) throw new RuleViolation(`${id} is out of supply: an out-of-supply unit cannot attack, nor bombard (ruling).`, RULE.outOfSupply);
    if (unit.attackedThisTurn) throw new RuleViolation(`${id} has already attacked, supported or bombarded this turn: one of them per turn (ruling).`, RULE.oneAttack);
  }
  for (const id of p.targets) {
    const unit = knownUnit(state, id);
    if (unit.side === side) throw new RuleViolation(`${id} is one of your own units.`, RULE.bombard);
    if (!GROUND_KINDS.includes(unit.kind)) throw new RuleViolation(`${id} is ${aUnit(unit.kind)}: bombardment falls on the units in a hex.`, RULE.bombard);
  }
  noDuplicates(p.antiAircraft.map((a) => a.unitId), 'in the anti-aircraft losses');
  for (const hit of p.antiAircraft) {
    if (!bombarderIds.includes(hit.unitId) || entryOf(state.units, hit.unitId)!.kind !== 'heavy-bomber') {
      throw new RuleViolation(`${hit.unitId} is not a heavy bomber of this bombardment: only heavy bombers lose LP bombarding.`, RULE.antiAircraft);
    }
  }
  if (state.rulesVersion >= 2) checkBombardment(state, p);
  else if (p.antiAircraft.some((hit) => hit.aborted)) refuseInVersion1('aborted missions');
  const needs = activationNeeds(state, bombarderIds);
  const seen = p.sight ? identify(p.sight) : null;
  const identification = seen?.level ?? p.identification!;
  const points = p.bombarders.reduce((s, b) => s + b.points, 0);
  // Version 2, 7.5.2: a bomber the AA shot down or turned back delivers nothing, so nothing is rolled.
  const delivers = state.rulesVersion < 2 || cancelledBy(state, p.antiAircraft).length === 0;
  const bombardment = delivers ? resolveBombardment(points, identification, state.tables.bombardment, ctx.dice) : null;

  activate(sink, side, needs);
  if (state.rulesVersion >= 2) {
    // 7.5.2: a heavy bomber destroyed or aborted by the AA delivers nothing: no roll.
    antiAircraftFire(sink, p.antiAircraft, { mission: 'bombardment', ref: p.bombardmentId ?? null, targetHex: p.targetHex });
  } else if (p.antiAircraft.length) {
    const units = p.antiAircraft.map((hit) => {
      const lp = sink.unit(hit.unitId).lp;
      return { unitId: hit.unitId, lost: Math.min(lp, hit.lp), lpAfter: Math.max(0, lp - hit.lp) };
    });
    sink.emit('AntiAircraftLosses', { units });
    for (const u of units) tire(sink, u.unitId, [{ cause: 'lp-lost', points: FATIGUE.perLpLost * u.lost }]);
  }
  if (!bombardment) return;
  sink.emit('BombardmentResolved', {
    ...(p.bombardmentId === undefined ? {} : { bombardmentId: p.bombardmentId }),
    side,
    targetHex: p.targetHex,
    targets: p.targets,
    bombarders: p.bombarders,
    ...(seen ? { sight: seen.breakdown } : {}),
    identification,
    effectiveness: bombardment.effectiveness,
    points,
    effectivePoints: bombardment.effectivePoints,
    resolution: bombardment.resolution,
    unproven: bombardment.resolution.unproven,
    loss: bombardment.loss,
  });
  const targets = p.targets.map((id) => ({ unitId: id, value: combatValueOf(sink.unit(id), 'defence') }));
  const allocation = allocate(sink, 'bombardment', p.bombardmentId ?? null, 'defender', targets, bombardment.loss, ctx.dice);
  targets.forEach((t, i) => tire(sink, t.unitId, [{ cause: 'bombarded', points: FATIGUE.bombarded }, { cause: 'lp-lost', points: FATIGUE.perLpLost * lostBy(allocation, i) }]));
}

function replenish(sink: Sink, p: Replenish, actor: string): void {
  const state = sink.state;
  const side = requirePhasing(state, actor);
  requireNoOpenAttack(state);
  if (side !== 'axis') throw new RuleViolation('Allied units replenish automatically at the end of the turn.', RULE.replenishAxis);
  const ids = p.units.map((u) => u.unitId);
  noDuplicates(ids, 'in the replenishment');
  ownUnits(state, side, ids);
  for (const { unitId, lp } of p.units) {
    const unit = entryOf(state.units, unitId)!;
    if (!unit.replenishable) throw new RuleViolation(`${unitId} cannot be replenished.`, RULE.replenishable);
    if (unit.attackedThisTurn) throw new RuleViolation(`${unitId} attacked this turn: a unit cannot be replenished after attacking.`, RULE.replenishAfterAttack);
    if (unit.lp + lp > unit.maxLp) throw new RuleViolation(`${unitId} has ${unit.lp} of ${unit.maxLp} LP: it can regain at most ${unit.maxLp - unit.lp}.`, RULE.replenishAxis);
  }
  const cost = p.units.reduce((s, u) => s + u.lp, 0);
  if (cost > state.axisReplenishmentPoints) {
    throw new RuleViolation(`Restoring ${cost} LP takes ${cost} replenishment points; ${state.axisReplenishmentPoints} ${state.axisReplenishmentPoints === 1 ? 'is' : 'are'} left this turn.`, RULE.replenishAxis);
  }
  const needs = activationNeeds(state, ids);
  activate(sink, side, needs);
  sink.emit('UnitsReplenished', {
    side,
    automatic: false,
    units: p.units.map(({ unitId, lp }) => ({ unitId, lp, lpAfter: sink.unit(unitId).lp + lp })),
    pointsSpent: cost,
    pointsLeft: state.axisReplenishmentPoints - cost,
  });
}

function endImpulse(sink: Sink, actor: string): void {
  const state = sink.state;
  const side = requirePhasing(state, actor);
  requireNoOpenAttack(state);
  const first = state.firstSide;
  const next =
    side === first ? { impulse: state.impulse, side: otherSide(first) } : state.impulse < state.impulses ? { impulse: state.impulse + 1, side: first } : null;
  sink.emit('ImpulseEnded', {
    turn: state.turn,
    impulse: state.impulse,
    side,
    activationPointsUnused: state.activationLeft,
    next: next ? { ...next, activationPoints: state.activationPoints ? state.activationPoints[next.side] : null } : null,
  });
}

function endTurn(sink: Sink, p: EndTurn, ctx: DecideContext): void {
  const state = sink.state;
  if (state.phasing !== null) {
    throw new RuleViolation(`The ${state.phasing} side is still to play impulse ${state.impulse} of turn ${state.turn}: the turn ends after every impulse.`, RULE.endTurn);
  }
  if (state.rulesVersion < 2 && p.weather !== undefined) refuseInVersion1('weather');
  noDuplicates(p.outOfSupply, 'out of supply');
  noDuplicates(p.inContact, 'in contact');
  for (const id of [...p.outOfSupply, ...p.inContact]) knownUnit(state, id);
  const inGame = () => Object.entries(sink.state.units).filter(([, u]) => !u.out);

  // 1. Energy (§8.4.2): 10 points, 30 for a unit not activated this turn.
  const recovered = inGame()
    .map(([unitId, u]) => {
      const points = RECOVERY.endOfTurn + (u.activatedInImpulse === null ? RECOVERY.notActivated : 0);
      return { unitId, activated: u.activatedInImpulse !== null, points, energyAfter: Math.min(100, u.energy + points) };
    })
    .filter((u) => u.energyAfter !== sink.unit(u.unitId).energy);
  if (recovered.length) sink.emit('EnergyRecovered', { units: recovered });
  for (const [unitId, u] of inGame()) {
    const threshold = FATIGUE_THRESHOLD[u.quality];
    if (u.fatigued && u.energy >= threshold) sink.emit('StatusLevelRecovered', { unitId, energy: u.energy, threshold, statusAfter: lpStatus(u) });
  }

  // 2. Replenishment (§8.3): Allied automatic; unused Axis points lost.
  if (sink.state.alliedReplenishment) {
    const units = inGame()
      .filter(([, u]) => u.side === 'allied' && u.replenishable)
      .map(([unitId, u]) => ({ unitId, ...alliedReplenishment(u.maxLp, u.lp, p.inContact.includes(unitId)) }))
      .filter((r) => r.gained > 0)
      .map((r) => ({ unitId: r.unitId, lp: r.gained, lpAfter: r.lpAfter, lost: r.lost }));
    if (units.length) sink.emit('UnitsReplenished', { side: 'allied', automatic: true, units });
  }
  if (sink.state.axisReplenishmentPoints > 0) sink.emit('ReplenishmentPointsLost', { side: 'axis', points: sink.state.axisReplenishmentPoints });

  // 3. Supply (§8.5.2): out of supply for the next turn; from the second turn in a row, 1 LP a turn.
  const outOfSupply = inGame()
    .filter(([unitId]) => p.outOfSupply.includes(unitId))
    .map(([unitId, u]) => ({ unitId, turnsOutOfSupply: u.turnsOutOfSupply + 1 }));
  const backInSupply = inGame()
    .filter(([unitId, u]) => u.outOfSupply && !p.outOfSupply.includes(unitId))
    .map(([unitId]) => unitId);
  if (outOfSupply.length || backInSupply.length) sink.emit('SupplyChecked', { outOfSupply, backInSupply });
  const attrition = outOfSupply.filter((u) => u.turnsOutOfSupply >= 2).map((u) => ({ unitId: u.unitId, turnsOutOfSupply: u.turnsOutOfSupply, lpAfter: sink.unit(u.unitId).lp - 1 }));
  if (attrition.length) {
    sink.emit('SupplyAttrition', { units: attrition });
    for (const u of attrition) tire(sink, u.unitId, [{ cause: 'lp-lost', points: FATIGUE.perLpLost }]);
  }

  const first = sink.state.firstSide;
  sink.emit('TurnStarted', {
    turn: state.turn + 1,
    side: first,
    activationPoints: sink.state.activationPoints ? sink.state.activationPoints[first] : null,
    axisReplenishmentPoints: sink.state.axisPointsPerTurn,
  });
  if (state.rulesVersion >= 2) airTurnChange(sink, p, ctx.dice);
}

/** Version 2, the new turn: its weather (4.2), destroyed air units back (3.3), availability rolled (10.3, 10.1.1). */
function airTurnChange(sink: Sink, p: EndTurn, dice: DiceSource): void {
  const change = turnChange(sink.state, p, dice);
  if (change.weather) sink.emit('WeatherSet', change.weather);
  if (change.returned.length) sink.emit('AirUnitsReturned', { units: change.returned });
  if (change.availability) sink.emit('AvailabilityRolled', change.availability);
}

/**
 * Version 2: the AA fire the game reports on the air units of a mission (7.4.4, 7.5.2, 7.6):
 * LP lost, then the units shot down or aborted, which deliver nothing.
 */
function antiAircraftFire(
  sink: Sink,
  hits: readonly { unitId: string; lp: number; aborted?: boolean | undefined }[],
  mission: { mission: 'bombardment' | 'support'; ref: string | null; targetHex: string },
): Cancelled[] {
  const out = cancelledBy(sink.state, hits);
  const units = hits
    .filter((hit) => hit.lp > 0)
    .map((hit) => {
      const lp = sink.unit(hit.unitId).lp;
      return { unitId: hit.unitId, lost: Math.min(lp, hit.lp), lpAfter: Math.max(0, lp - hit.lp) };
    });
  if (units.length) sink.emit('AntiAircraftLosses', { units });
  for (const u of units) tire(sink, u.unitId, [{ cause: 'lp-lost', points: FATIGUE.perLpLost * u.lost }]);
  if (out.length) sink.emit('AirMissionsCancelled', { ...mission, units: out });
  return out;
}
