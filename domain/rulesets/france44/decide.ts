import { RuleViolation } from '../../errors';
import { notACommand } from '../../defineRuleset';
import type { DecideContext } from '../../ruleset';
import { entryOf } from '../idRecord';
import { checkCombatHexes } from './combatGeometry';
import { checkAttackers, checkOdds, formatStrength, resolveCombat, rollAirPower } from './combatResolution';
import { gameRulesVersion } from './rulesVersion';
import { ODDS_COLUMNS } from './tables';
import type { France44Event } from './events';
import type { France44Command } from './commands';
import type { ApplySupplyAttrition, DeclareCombat, France44Options, ReactionPhase } from './schemas';
import { SIDES, type DeclaredCombat, type France44State, type Side } from './state';

const RULE = {
  turnOrder: 'france44: game turns follow one another (StartTurn)',
  turnStarted: 'france44: commands of a game turn need a started turn (ruling)',
  hqTwice: 'France 1944 errata: no HQ may be activated more than twice per game turn',
  hqInARow: 'France 1944 errata: from game turn 2, another friendly HQ must be activated between two activations of one HQ',
  segment: 'France 1944 revisions, Reaction Phase: a Reaction Segment is one Army Reaction Phase or up to three Single-Piece Reaction Phases',
  segmentUnits: 'France 1944 clarifications: no unit may be activated more than once during a Reaction Segment',
  points: 'France 1944 revisions, Reaction Phase: a player cannot spend more reaction points than the track holds',
  oosHq: 'France 1944 revisions, Supply: an out-of-supply HQ may not be used in a Single-Piece Reaction Phase',
  increment: 'France 1944 clarifications, Combat Resolution Order: combats are declared by the attacker of the open attack increment',
  locked: 'France 1944 clarifications, Combat Resolution Order: all combats of an increment are declared before any is resolved',
  oncePerIncrement: 'France 1944 clarifications: a unit takes part in at most one combat per attack increment',
  resolveOnce: 'France 1944 clarifications, Combat Resolution Order: every declared combat is resolved exactly once, none cancelled',
  airPower: 'France 1944 revisions, Air Power: one attempt per combat increment, for one combat situation',
  attrition: 'France 1944 errata, Out of Supply Effects: supply attrition happens once per game turn (ruling)',
};

const other = (side: Side): Side => SIDES.find((s) => s !== side)!;

type HQActivated = Extract<France44Event, { type: 'HQActivated' }>;

export function decideFrance44(state: France44State, command: France44Command, ctx: DecideContext, options: France44Options): France44Event[] {
  // Who may send each command lets only the two sides through (index.ts).
  const side = ctx.actor as Side;
  switch (command.type) {
    case 'StartTurn': {
      const payload = command.payload;
      if (payload.turn !== state.turn + 1) {
        throw new RuleViolation(`The next game turn is turn ${state.turn + 1}, not turn ${payload.turn}.`, RULE.turnOrder);
      }
      if (state.increment) throw new RuleViolation(`Attack increment ${state.increment.number} of the ${state.increment.attacker} side is still open: end it before the next turn.`, RULE.turnOrder);
      if (state.segment) throw new RuleViolation(`The ${state.segment.side} reaction segment is still open: end it before the next turn.`, RULE.turnOrder);
      return [{ type: 'TurnStarted', data: { turn: payload.turn, reactionPoints: payload.reactionPoints ?? state.reactionPoints } }];
    }
    case 'ActivateHQ':
      requireTurn(state);
      return [hqActivation(state, side, command.payload.hqId, 'initiative')];
    case 'BeginReactionSegment':
      requireTurn(state);
      if (state.segment) throw new RuleViolation(`A reaction segment of the ${state.segment.side} side is already open.`, RULE.segment);
      return [{ type: 'ReactionSegmentBegun', data: { side } }];
    case 'ReactionPhase':
      return reactionPhase(state, side, command.payload);
    case 'EndReactionSegment': {
      const segment = ownSegment(state, side);
      const left = state.reactionPoints[side];
      // All or nothing: a segment that spent anything costs 3 in all, or all that remains.
      const forfeited = segment.spent > 0 && segment.spent < 3 ? Math.min(3 - segment.spent, left) : 0;
      return [{ type: 'ReactionSegmentEnded', data: { side, spent: segment.spent, forfeited, pointsLeft: left - forfeited } }];
    }
    case 'DeclineReactionSegment':
      requireTurn(state);
      if (state.segment) throw new RuleViolation(`A reaction segment of the ${state.segment.side} side is open: end it instead of declining.`, RULE.segment);
      return [{ type: 'ReactionSegmentDeclined', data: { side } }];
    case 'BeginAttackIncrement':
      requireTurn(state);
      if (state.increment) {
        throw new RuleViolation(`Attack increment ${state.increment.number} of the ${state.increment.attacker} side is still open.`, RULE.increment);
      }
      return [{ type: 'AttackIncrementBegun', data: { increment: state.incrementsPlayed + 1, attacker: side } }];
    case 'DeclareCombat':
      return [declareCombat(state, side, command.payload, options)];
    case 'RollAirPower': {
      const payload = command.payload;
      if (state.increment && state.increment.attacker !== side) {
        throw new RuleViolation(`Air power supports the allied side's own attacks; attack increment ${state.increment.number} is the german side's.`, RULE.airPower);
      }
      const increment = ownIncrement(state, side, 'roll air power');
      openCombat(state, payload.combatId);
      if (increment.airPowerTried) {
        throw new RuleViolation('Air power was already tried in this attack increment; the next try waits for the next increment.', RULE.airPower);
      }
      const { die, availability, allocated } = rollAirPower(payload.availability, ctx.dice);
      return allocated
        ? [{ type: 'AirPowerAllocated', data: { combatId: payload.combatId, die, availability, allocated, moraleModifier: options.airPowerMoraleModifier } }]
        : [{ type: 'AirPowerUnavailable', data: { combatId: payload.combatId, die, availability, allocated } }];
    }
    case 'ResolveCombat': {
      ownIncrement(state, side, 'resolve combats');
      const { combatId } = command.payload;
      const combat = openCombat(state, combatId);
      const breakdown = resolveCombat(combat.declaration, { ...options, rulesVersion: gameRulesVersion(options) }, combat.airPower, ctx.dice);
      return [{ type: 'CombatResolved', data: { combatId, ...breakdown } }];
    }
    case 'EndAttackIncrement': {
      const increment = ownIncrement(state, side, 'end it');
      const unresolved = Object.entries(increment.combats).find(([, c]) => !c.resolved);
      if (unresolved) throw new RuleViolation(`Combat ${unresolved[0]} is not resolved yet: every declared combat is resolved before the increment ends.`, RULE.resolveOnce);
      return [{ type: 'AttackIncrementEnded', data: { increment: increment.number, attacker: side, combats: Object.keys(increment.combats).length } }];
    }
    case 'ApplySupplyAttrition':
      return supplyAttrition(state, side, command.payload);
    default:
      return notACommand(command, 'France 1944', 'france44: commands');
  }
}

function requireTurn(state: France44State): void {
  if (state.turn === 0) throw new RuleViolation('No game turn has started yet: send StartTurn first.', RULE.turnStarted);
}

function hqActivation(state: France44State, side: Side, hqId: string, via: HQActivated['data']['via'], alsoThisCommand: string[] = []): HQActivated {
  const record = state.hq[side];
  const count = (entryOf(record.byHq, hqId) ?? 0) + alsoThisCommand.filter((h) => h === hqId).length;
  if (count >= 2) throw new RuleViolation(`HQ ${hqId} was already activated twice this game turn.`, RULE.hqTwice);
  if (state.turn >= 2 && record.last === hqId) {
    throw new RuleViolation(`HQ ${hqId} was the last ${side} HQ activated: another ${side} HQ must be activated before it again.`, RULE.hqInARow);
  }
  return { type: 'HQActivated', data: { side, hqId, via, activationsThisTurn: count + 1 } };
}

function ownSegment(state: France44State, side: Side) {
  if (!state.segment) throw new RuleViolation('No reaction segment is open: send BeginReactionSegment first.', RULE.segment);
  if (state.segment.side !== side) throw new RuleViolation(`The open reaction segment is the ${state.segment.side} side's.`, RULE.segment);
  return state.segment;
}

function reactionPhase(state: France44State, side: Side, phase: ReactionPhase): France44Event[] {
  const segment = ownSegment(state, side);
  const points = state.reactionPoints[side];
  if (segment.army) throw new RuleViolation('This segment was an Army Reaction Phase: it holds no other phase.', RULE.segment);
  if (phase.kind === 'army') {
    if (segment.units.length > 0) throw new RuleViolation('An Army Reaction Phase is a whole segment: this one already had a Single-Piece Reaction Phase.', RULE.segment);
    if (points < 3) throw new RuleViolation(`An Army Reaction Phase costs 3 reaction points; the ${side} track holds ${points}.`, RULE.points);
    return [
      hqActivation(state, side, phase.hqId, 'army-reaction'),
      { type: 'ReactionPhaseTaken', data: { side, kind: 'army', unitId: phase.hqId, unitKind: 'hq', cost: 3, pointsLeft: points - 3 } },
    ];
  }
  if (segment.units.length >= 3) throw new RuleViolation('A reaction segment holds at most three Single-Piece Reaction Phases.', RULE.segment);
  if (segment.units.includes(phase.unitId)) throw new RuleViolation(`${phase.unitId} was already activated in this reaction segment.`, RULE.segmentUnits);
  if (points < 1) throw new RuleViolation(`The ${side} reaction point track is at 0.`, RULE.points);
  const events: France44Event[] = [];
  if (phase.unitKind === 'hq') {
    if (phase.outOfSupply) throw new RuleViolation(`HQ ${phase.unitId} is out of supply: it can't be used in a Single-Piece Reaction Phase.`, RULE.oosHq);
    events.push(hqActivation(state, side, phase.unitId, 'single-piece-reaction'));
  } else if (phase.outOfSupply) {
    // Revisions, Supply: the step is lost before the phase begins.
    events.push({ type: 'UnitStepLost', data: { side, unitId: phase.unitId, reason: 'out-of-supply reaction' } });
  }
  events.push({
    type: 'ReactionPhaseTaken',
    data: { side, kind: 'single-piece', unitId: phase.unitId, unitKind: phase.unitKind, outOfSupply: phase.outOfSupply === true, cost: 1, pointsLeft: points - 1 },
  });
  return events;
}

function ownIncrement(state: France44State, side: Side, action: string) {
  if (!state.increment) throw new RuleViolation('No attack increment is open: send BeginAttackIncrement first.', RULE.increment);
  if (state.increment.attacker !== side) {
    throw new RuleViolation(`Attack increment ${state.increment.number} is the ${state.increment.attacker} side's: only it may ${action}.`, RULE.increment);
  }
  return state.increment;
}

function openCombat(state: France44State, combatId: string): DeclaredCombat {
  const combat = entryOf(state.increment!.combats, combatId);
  if (!combat) throw new RuleViolation(`No combat ${combatId} was declared in this attack increment.`, RULE.resolveOnce);
  if (combat.resolved) throw new RuleViolation(`Combat ${combatId} was already resolved.`, RULE.resolveOnce);
  return combat;
}

function declareCombat(state: France44State, side: Side, declaration: DeclareCombat, options: France44Options): France44Event {
  const increment = ownIncrement(state, side, 'declare combats in it');
  if (increment.firstResolved) {
    throw new RuleViolation(`Combats of this increment are locked: combat ${increment.firstResolved} was already resolved.`, RULE.locked);
  }
  if (entryOf(increment.combats, declaration.combatId)) throw new RuleViolation(`Combat ${declaration.combatId} is already declared in this increment.`, RULE.resolveOnce);
  const units = [
    ...declaration.attackers.map((a) => ({ key: `${side}:${a.unitId}`, unitId: a.unitId })),
    ...declaration.defenders.map((d) => ({ key: `${other(side)}:${d.unitId}`, unitId: d.unitId })),
  ];
  const seen = new Set<string>();
  for (const unit of units) {
    if (seen.has(unit.key)) throw new RuleViolation(`${unit.unitId} is named twice in this combat.`, RULE.oncePerIncrement);
    seen.add(unit.key);
    if (increment.units.includes(unit.key)) throw new RuleViolation(`${unit.unitId} is already in another combat of this increment.`, RULE.oncePerIncrement);
  }
  checkCombatHexes(declaration.attackers.map((a) => a.hex), declaration.defenders.map((d) => d.hex), options.hexGrid);
  checkAttackers(declaration.attackers, gameRulesVersion(options));
  const { attack, defence, baseColumn } = checkOdds(declaration);
  return {
    type: 'CombatDeclared',
    data: {
      increment: increment.number,
      declaration,
      odds: `${formatStrength(attack)}:${formatStrength(defence)}`,
      baseColumn: ODDS_COLUMNS[baseColumn].label,
    },
  };
}

function supplyAttrition(state: France44State, side: Side, { units }: ApplySupplyAttrition): France44Event[] {
  requireTurn(state);
  if (state.attrition.includes(side)) throw new RuleViolation(`The ${side} side already applied supply attrition this game turn.`, RULE.attrition);
  const ids = new Set<string>();
  const events: France44Event[] = [];
  for (const unit of units) {
    if (ids.has(unit.unitId)) throw new RuleViolation(`${unit.unitId} is listed twice.`, RULE.attrition);
    ids.add(unit.unitId);
    if (!unit.outOfSupply) continue;
    if (unit.kind === 'combat') {
      events.push(
        unit.atCadre
          ? { type: 'UnitEliminated', data: { side, unitId: unit.unitId, reason: 'out of supply at cadre' } }
          : { type: 'UnitStepLost', data: { side, unitId: unit.unitId, reason: 'out of supply' } },
      );
    } else if (!unit.stackedWithCombatUnit) {
      events.push({ type: 'HQDispersed', data: { side, hqId: unit.unitId, reason: 'out of supply, not stacked with a combat unit' } });
    }
  }
  events.push({ type: 'SupplyAttritionApplied', data: { side, checked: units.length, losses: events.length } });
  return events;
}
