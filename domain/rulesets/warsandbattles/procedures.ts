import type { DiceSource } from '../../dice';
import type { ProcedureSpec } from '../../ruleset';
import { allocateLosses, type Allocation } from './allocation';
import { identify, resolveBombardment } from './bombardment';
import { assessFight, rollFight, supportBonus, type Fighter } from './combat';
import type { BombardmentInput, CombatInput, Sight, SupportInput, WarsAndBattlesOptions } from './schemas';
import * as schema from './schemas';
import { procedureRulesVersion } from './rulesVersion';
import { alliedReplenishment, FATIGUE } from './units';

const withLp = (units: readonly { unitId?: string; lp?: number }[], values: readonly number[]) =>
  units.every((u) => u.lp !== undefined) ? units.map((u, i) => ({ ...(u.unitId === undefined ? {} : { unitId: u.unitId }), value: values[i], lp: u.lp! })) : null;

const allocated = (candidates: ReturnType<typeof withLp>, losses: number, dice: DiceSource): Allocation | null =>
  candidates && losses > 0 ? allocateLosses(candidates, losses, dice) : null;

/** A fight from its numbers: the same steps as DeclareAttack then ResolveAttack in a game. */
export function evaluateCombat(input: CombatInput, options: WarsAndBattlesOptions, dice: DiceSource) {
  const data = {
    combatTable: input.tables?.combat ?? options.tables.combat,
    supportTable: input.tables?.support ?? options.tables.support,
    terrain: input.terrainTable ?? options.terrain,
    commanders: input.commanders ?? options.commanders,
  };
  const fighter = (u: { unitId?: string; kind: schema.Kind; lp?: number; commander?: string; tiger?: boolean; smallerThanBattalion?: boolean }, value: number): Fighter => ({
    ...(u.unitId === undefined ? {} : { unitId: u.unitId }),
    kind: u.kind,
    value,
    ...(u.lp === undefined ? {} : { lp: u.lp }),
    ...(u.commander === undefined ? {} : { commander: u.commander }),
    tiger: u.tiger ?? false,
    smallerThanBattalion: u.smallerThanBattalion ?? false,
  });
  const fight = {
    attackerSide: input.attackerSide,
    attackers: input.attackers.map((a) => ({ ...fighter(a, a.attack), ...(a.hex === undefined ? {} : { hex: a.hex }) })),
    defenders: input.defenders.map((d) => fighter(d, d.defence)),
    support: input.support,
    terrain: input.terrain,
    across: input.across,
    ...(input.cherbourg ? { cherbourg: input.cherbourg } : {}),
    divisionalIntegrity: input.divisionalIntegrity,
    rulesVersion: procedureRulesVersion(options),
  };
  const assessment = assessFight(fight, data, dice);
  const result = rollFight(assessment, data.combatTable, dice);
  const attackerAllocation = allocated(withLp(input.attackers, input.attackers.map((a) => a.attack)), result.attackerLoss, dice);
  const defenderAllocation = allocated(withLp(input.defenders, input.defenders.map((d) => d.defence)), result.defenderLoss, dice);
  const retreats = result.retreat
    ? input.defenders
        .map((d, i) => ({ d, i, lpLeft: defenderAllocation ? defenderAllocation.units[i].lpAfter : d.lp }))
        .filter(({ lpLeft }) => lpLeft !== 0)
        .map(({ d, i, lpLeft }) => {
          const route = input.retreats.find((r) => d.unitId !== undefined && r.unitId === d.unitId)?.route ?? 'open';
          const lpLost = route === 'enemy-zoc' ? Math.min(lpLeft ?? options.zocRetreatLoss, options.zocRetreatLoss) : 0;
          return { ...(d.unitId === undefined ? {} : { unitId: d.unitId }), index: i, route, outcome: route === 'none' ? 'surrenders' : 'retreats one hex', lpLost };
        })
    : [];
  const fatigue = (side: 'attacker' | 'defender', allocation: Allocation | null, count: number) =>
    Array.from({ length: count }, (_, i) => {
      const retreat = side === 'defender' ? retreats.find((r) => r.index === i) : undefined;
      const lost = (allocation?.units[i].lost ?? 0) + (retreat?.lpLost ?? 0);
      return FATIGUE.fight + FATIGUE.perLpLost * lost + (retreat && retreat.route !== 'none' ? FATIGUE.retreat : 0);
    });
  const { resolution } = result;
  return {
    result: {
      ratio: resolution.landing.rounded ?? resolution.landing.reads,
      column: resolution.landing.column.label,
      roll: resolution.roll?.modified ?? null,
      code: resolution.code,
      unproven: resolution.unproven,
      attackerLoss: result.attackerLoss,
      defenderLoss: result.defenderLoss,
      retreat: result.retreat,
    },
    breakdown: {
      attack: assessment.attack,
      defence: assessment.defence,
      shifts: assessment.shifts,
      modifiers: assessment.modifiers,
      support: assessment.support,
      resolution,
      allocation: { attacker: attackerAllocation, defender: defenderAllocation },
      retreats,
      fatigue: { attackers: fatigue('attacker', attackerAllocation, input.attackers.length), defenders: fatigue('defender', defenderAllocation, input.defenders.length) },
    },
  };
}

export function evaluateBombardment(input: BombardmentInput, options: WarsAndBattlesOptions, dice: DiceSource) {
  const seen = input.sight ? identify(input.sight) : null;
  const identification = seen?.level ?? input.identification!;
  const table = input.tables?.bombardment ?? options.tables.bombardment;
  const bombardment = resolveBombardment(input.points, identification, table, dice);
  const targets = input.targets.length ? input.targets.map((t) => ({ ...(t.unitId === undefined ? {} : { unitId: t.unitId }), value: t.defence, lp: t.lp })) : null;
  const allocation = allocated(targets, bombardment.loss, dice);
  return {
    result: {
      identification,
      effectivePoints: bombardment.effectivePoints,
      roll: bombardment.resolution.roll?.modified ?? null,
      code: bombardment.resolution.code,
      unproven: bombardment.resolution.unproven,
      loss: bombardment.loss,
    },
    breakdown: {
      ...(seen ? { sight: seen.breakdown } : {}),
      points: input.points,
      effectiveness: bombardment.effectiveness,
      effectivePoints: bombardment.effectivePoints,
      resolution: bombardment.resolution,
      allocation,
      fatigue: input.targets.map((_, i) => FATIGUE.bombarded + FATIGUE.perLpLost * (allocation?.units[i].lost ?? 0)),
    },
  };
}

export function evaluateSupport(input: SupportInput, options: WarsAndBattlesOptions, dice: DiceSource) {
  const support = supportBonus(input.support, input.tables?.support ?? options.tables.support, dice);
  return {
    result: { points: support.points, bonus: support.bonus, code: support.lookup?.code ?? null },
    breakdown: { units: input.support, points: support.points, lookup: support.lookup },
  };
}

export const procedures: Record<string, ProcedureSpec<WarsAndBattlesOptions>> = {
  combat: {
    input: schema.CombatInput,
    description: 'A land combat from its numbers: ratio to the nearest (halves to the defender), every C and L modifier, 2d6 on the combat table, then the loss points unit by unit (the even ones by a die among the units standing).',
    evaluate: evaluateCombat,
  },
  bombardment: {
    input: schema.BombardmentInput,
    description: 'Bombardment points cut by identification (or by the sight: distance, view distance, weather), then 2d6 on the bombardment table; with the stack, the LP unit by unit.',
    evaluate: evaluateBombardment,
  },
  support: {
    input: schema.SupportInput,
    description: 'The L bonus (added to the attacker\'s roll) of up to 3 support units, from the support table. No dice.',
    evaluate: evaluateSupport,
  },
  identification: {
    input: schema.IdentificationInput,
    description: 'Identified, recognized or detected, from the distance, the view distance and the weather. No dice.',
    evaluate: (input: Sight) => {
      const seen = identify(input);
      return { result: { identification: seen.level, effectiveness: seen.effectiveness }, breakdown: seen.breakdown };
    },
  },
  'allied-replenishment': {
    input: schema.ReplenishmentInput,
    description: 'LP an Allied unit regains at the end of a turn: out of contact, at least 25% of its LP lost, 20% of its maximum rounded to the nearest. No dice.',
    evaluate: (input: { maxLp: number; lp: number; inContact: boolean }) => {
      const r = alliedReplenishment(input.maxLp, input.lp, input.inContact);
      return { result: { gained: r.gained, lpAfter: r.lpAfter }, breakdown: r };
    },
  },
};
