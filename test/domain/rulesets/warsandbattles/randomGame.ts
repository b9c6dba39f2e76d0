import fc from 'fast-check';
import type { DiceSource, Die } from '../../../../domain/dice';
import { DomainError } from '../../../../domain/errors';
import type { DomainEvent } from '../../../../domain/ruleset';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';
import type { WarsAndBattlesState } from '../../../../domain/rulesets/warsandbattles/state';
import { otherSide } from '../../../../domain/rulesets/warsandbattles/state';
import { BOMBARD_KINDS, GROUND_KINDS, SUPPORT_KINDS } from '../../../../domain/rulesets/warsandbattles/units';
import { options as testOptions, TEST_TERRAIN } from './harness';

/**
 * Random games: each step an intent read against the state when it is played (the side
 * whose impulse it is, the units it has), so that most steps are commands the rules
 * accept; the others are refused and skipped, as a server would.
 */
export type Intent =
  | { kind: 'activate'; picks: number[]; wrongSide: boolean }
  | { kind: 'attack'; attackers: number[]; defenders: number[]; support: { pick: number; points: number }[]; terrain: number; across: number[]; cherbourg: 'area' | 'city' | null; hexes: number[]; target: number; resolveAtOnce: boolean; routes: number[] }
  | { kind: 'resolve'; routes: number[] }
  | { kind: 'bombard'; bombarders: { pick: number; points: number }[]; targets: number[]; identification: number; antiAircraft: number }
  | { kind: 'replenish'; units: { pick: number; lp: number }[] }
  | { kind: 'endImpulse' }
  | { kind: 'endTurn'; outOfSupply: number[]; inContact: number[] };

const picks = (max: number) => fc.array(fc.nat({ max: 30 }), { minLength: 1, maxLength: max });
const activateIntent: fc.Arbitrary<Intent> = fc.record({ kind: fc.constant('activate' as const), picks: picks(4), wrongSide: fc.boolean() });
const attackIntent: fc.Arbitrary<Intent> = fc.record({
  kind: fc.constant('attack' as const),
  attackers: picks(4),
  defenders: picks(3),
  support: fc.array(fc.record({ pick: fc.nat({ max: 30 }), points: fc.nat({ max: 25 }) }), { maxLength: 4 }),
  terrain: fc.nat({ max: TEST_TERRAIN.length - 1 }),
  across: fc.array(fc.nat({ max: TEST_TERRAIN.length - 1 }), { maxLength: 1 }),
  cherbourg: fc.constantFrom('area' as const, 'city' as const, null),
  hexes: fc.array(fc.nat({ max: 2 }), { minLength: 4, maxLength: 4 }),
  target: fc.nat({ max: 6 }),
  resolveAtOnce: fc.oneof({ arbitrary: fc.constant(true), weight: 4 }, { arbitrary: fc.constant(false), weight: 1 }),
  routes: fc.array(fc.nat({ max: 4 }), { maxLength: 3 }),
});
const resolveIntent: fc.Arbitrary<Intent> = fc.record({ kind: fc.constant('resolve' as const), routes: fc.array(fc.nat({ max: 4 }), { maxLength: 3 }) });
const bombardIntent: fc.Arbitrary<Intent> = fc.record({
  kind: fc.constant('bombard' as const),
  bombarders: fc.array(fc.record({ pick: fc.nat({ max: 30 }), points: fc.integer({ min: 1, max: 30 }) }), { minLength: 1, maxLength: 2 }),
  targets: picks(3),
  identification: fc.nat({ max: 3 }),
  antiAircraft: fc.oneof({ arbitrary: fc.constant(0), weight: 4 }, { arbitrary: fc.integer({ min: 1, max: 3 }), weight: 1 }),
});
const replenishIntent: fc.Arbitrary<Intent> = fc.record({
  kind: fc.constant('replenish' as const),
  units: fc.array(fc.record({ pick: fc.nat({ max: 30 }), lp: fc.integer({ min: 1, max: 4 }) }), { minLength: 1, maxLength: 2 }),
});
const endTurnIntent: fc.Arbitrary<Intent> = fc.record({
  kind: fc.constant('endTurn' as const),
  outOfSupply: fc.array(fc.nat({ max: 30 }), { maxLength: 3 }),
  inContact: fc.array(fc.nat({ max: 30 }), { maxLength: 3 }),
});

export const intent: fc.Arbitrary<Intent> = fc.oneof(
  { arbitrary: attackIntent, weight: 5 },
  { arbitrary: resolveIntent, weight: 2 },
  { arbitrary: bombardIntent, weight: 2 },
  { arbitrary: activateIntent, weight: 1 },
  { arbitrary: replenishIntent, weight: 1 },
  { arbitrary: fc.constant<Intent>({ kind: 'endImpulse' }), weight: 2 },
  { arbitrary: endTurnIntent, weight: 1 },
);


export type RandomOptions = { impulses: number; activationPoints?: { allied: number; axis: number }; axisPointsPerTurn: number; zocRetreatLoss: number; energy: number[] };

export const gameOptions: fc.Arbitrary<RandomOptions> = fc.record({
  impulses: fc.constantFrom(1, 2),
  activationPoints: fc.option(fc.record({ allied: fc.nat({ max: 6 }), axis: fc.nat({ max: 6 }) }), { nil: undefined }),
  axisPointsPerTurn: fc.nat({ max: 6 }),
  zocRetreatLoss: fc.nat({ max: 3 }),
  energy: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 18, maxLength: 18 }),
});

/** Dice from a pool of numbers, each folded onto the die's faces: any die the rules ask for. */
export class PoolDice implements DiceSource {
  readonly drawn: Die[] = [];
  private next = 0;
  constructor(private readonly pool: readonly number[]) {}
  roll(sides: number): number {
    const value = 1 + (this.pool[this.next++ % this.pool.length] % sides);
    this.drawn.push({ sides, value });
    return value;
  }
}

const ids = (state: WarsAndBattlesState, filter: (side: string, out: boolean) => boolean) =>
  Object.entries(state.units)
    .filter(([, u]) => filter(u.side, u.out !== null))
    .map(([id]) => id);
const choose = (from: string[], at: readonly number[]) => (from.length ? [...new Set(at.map((i) => from[i % from.length]))] : []);

/** The command an intent stands for in this state, and who sends it. */
export function commandOf(state: WarsAndBattlesState, x: Intent, step: number): { actor: string; type: string; payload: unknown } {
  const side = state.phasing ?? 'allied';
  const own = ids(state, (s, out) => s === side && !out);
  const enemy = ids(state, (s, out) => s !== side && !out);
  const all = ids(state, () => true);
  const kindOf = (id: string) => Object.entries(state.units).find(([u]) => u === id)?.[1].kind ?? 'none';
  const kind = (list: string[], kinds: readonly string[]) => list.filter((id) => kinds.includes(kindOf(id)));
  // Mostly units the rules allow in each role; a pick past 25 takes any unit, to meet the refusals too.
  const role = (list: string[], pick: number, fallback: string[]) => (pick > 25 ? all : list.length ? list : fallback);
  switch (x.kind) {
    case 'activate':
      // Version 2 games: one activation in three is a strategic move (6.3).
      return { actor: x.wrongSide ? otherSide(side) : side, type: 'Activate', payload: { unitIds: choose(own, x.picks), ...(state.rulesVersion >= 2 && (x.picks[0] ?? 0) % 3 === 0 ? { strategic: true } : {}) } };
    case 'attack': {
      const attackers = choose(role(kind(own, GROUND_KINDS), x.attackers[0], own), x.attackers);
      const defenders = choose(role(kind(enemy, GROUND_KINDS), x.defenders[0], enemy), x.defenders);
      const supporters = role(kind(own, SUPPORT_KINDS), x.support[0]?.pick ?? 0, own).filter((id) => !attackers.includes(id) && !defenders.includes(id));
      return {
        actor: side,
        type: 'DeclareAttack',
        payload: {
          attackId: `a${step}`,
          targetHex: `h${x.target}`,
          attackers: attackers.map((unitId, i) => ({ unitId, hex: `f${x.hexes[i % x.hexes.length]}` })),
          defenders,
          support: supporters.length ? x.support.map((s) => ({ unitId: supporters[s.pick % supporters.length], points: s.points })).filter((s, i, list) => list.findIndex((t) => t.unitId === s.unitId) === i) : [],
          terrain: TEST_TERRAIN[x.terrain].terrain,
          across: x.across.map((i) => TEST_TERRAIN[i].terrain),
          ...(x.cherbourg ? { cherbourg: x.cherbourg } : {}),
        },
      };
    }
    case 'resolve': {
      const open = state.openAttack;
      const retreats = open ? open.defenders.slice(0, x.routes.length).map((d, i) => ({ unitId: d.unitId, route: (['open', 'open', 'enemy-zoc', 'none', 'open'] as const)[x.routes[i]] })) : [];
      return { actor: open?.attacker ?? side, type: 'ResolveAttack', payload: { attackId: open?.attackId ?? 'none', retreats } };
    }
    case 'bombard': {
      const guns = role(kind(own, BOMBARD_KINDS[side]), x.bombarders[0].pick, own);
      const bombarders = x.bombarders.map((b) => ({ unitId: guns.length ? guns[b.pick % guns.length] : 'none', points: b.points })).filter((b, i, list) => list.findIndex((c) => c.unitId === b.unitId) === i);
      const bombers = kind(bombarders.map((b) => b.unitId), ['heavy-bomber']);
      const level = (['identified', 'recognized', 'detected', undefined] as const)[x.identification];
      return {
        actor: side,
        type: 'Bombard',
        payload: {
          targetHex: 'b',
          targets: choose(role(kind(enemy, GROUND_KINDS), x.targets[0], enemy), x.targets).filter((id) => !bombarders.some((b) => b.unitId === id)),
          bombarders,
          ...(level ? { identification: level } : { sight: { distance: x.antiAircraft, viewDistance: 6, weather: 'rain' } }),
          antiAircraft: x.antiAircraft && bombers.length ? [{ unitId: bombers[0], lp: x.antiAircraft }] : [],
        },
      };
    }
    case 'replenish': {
      const axis = role(ids(state, (s, out) => s === 'axis' && !out), x.units[0].pick, all);
      return { actor: 'axis', type: 'Replenish', payload: { units: x.units.map((u) => ({ unitId: axis[u.pick % axis.length], lp: u.lp })).filter((u, i, list) => list.findIndex((v) => v.unitId === u.unitId) === i) } };
    }
    case 'endImpulse':
      // Once every impulse is played, the turn ends.
      return state.phasing ? { actor: side, type: 'EndImpulse', payload: {} } : { actor: 'allied', type: 'EndTurn', payload: { outOfSupply: [], inContact: [] } };
    case 'endTurn':
      return { actor: 'organizer', type: 'EndTurn', payload: { outOfSupply: choose(all, x.outOfSupply), inContact: choose(all, x.inContact) } };
  }
}

export interface PlayedGame {
  initial: WarsAndBattlesState;
  states: WarsAndBattlesState[];
  events: DomainEvent[];
  commits: { type: string; events: DomainEvent[] }[];
  refused: number;
}

/** The test roster with energies and LP drawn, and the sequence-of-play options drawn. */
export function randomOptions(o: RandomOptions) {
  const base = testOptions();
  return {
    ...base,
    units: base.units.map((u, i) => ({ ...u, energy: o.energy[i % o.energy.length], lp: 1 + (o.energy[i % o.energy.length] % (u.maxLp as number)) })),
    impulses: o.impulses,
    ...(o.activationPoints ? { activationPoints: o.activationPoints } : {}),
    replenishment: { allied: true, axisPointsPerTurn: o.axisPointsPerTurn },
    zocRetreatLoss: o.zocRetreatLoss,
  };
}

/** Plays intents through each command's schema, decide and evolve; refusals are skipped. */
export function play(options: unknown, intents: readonly Intent[], pool: readonly number[]): PlayedGame {
  const parsed = warsAndBattlesRuleset.options.parse(options);
  const initial = warsAndBattlesRuleset.initialState(parsed, warsAndBattlesRuleset.sides(parsed));
  let state = initial;
  const states: WarsAndBattlesState[] = [];
  const events: DomainEvent[] = [];
  const commits: PlayedGame['commits'] = [];
  let refused = 0;
  const steps = intents.flatMap((x): Intent[] => (x.kind === 'attack' && x.resolveAtOnce ? [x, { kind: 'resolve', routes: x.routes }] : [x]));
  steps.forEach((x, step) => {
    const command = commandOf(state, x, step);
    const schema = warsAndBattlesRuleset.commands[command.type].schema.safeParse(command.payload);
    if (!schema.success) {
      refused += 1;
      return;
    }
    try {
      const produced = warsAndBattlesRuleset.decide(state, { type: command.type, payload: schema.data }, { actor: command.actor, dice: new PoolDice(pool.slice(step % pool.length).concat(pool)), now: '' });
      state = produced.reduce(warsAndBattlesRuleset.evolve, state);
      events.push(...produced);
      commits.push({ type: command.type, events: produced });
      states.push(state);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      refused += 1;
    }
  });
  return { initial, states, events, commits, refused };
}
