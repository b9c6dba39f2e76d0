import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';
import type { WarsAndBattlesState } from '../../../../domain/rulesets/warsandbattles/state';
import { statusLevel } from '../../../../domain/rulesets/warsandbattles/units';
import { STACKING_LIMIT, stackingWeight } from '../../../../domain/rulesets/warsandbattles/stacking';
import { unitOf } from './harness';
import { gameOptions, intent, play, randomOptions } from './randomGame';

/** What must hold in every state a game can reach. */
function invariantProblems(state: WarsAndBattlesState): string[] {
  const problems: string[] = [];
  for (const [id, u] of Object.entries(state.units)) {
    if (!(u.lp >= 0 && u.lp <= u.maxLp)) problems.push(`${id}: LP ${u.lp} of ${u.maxLp}`);
    if (!(u.energy >= 0 && u.energy <= 100)) problems.push(`${id}: energy ${u.energy}`);
    if ((u.out !== null) !== (u.lp === 0)) problems.push(`${id}: LP ${u.lp} but out ${u.out}`);
    const status = statusLevel(u);
    if (u.out ? status !== 0 : status < 1 || status > 4) problems.push(`${id}: status ${status}`);
    if (u.turnsOutOfSupply < 0 || u.outOfSupply !== u.turnsOutOfSupply > 0) problems.push(`${id}: supply ${u.outOfSupply} ${u.turnsOutOfSupply}`);
    if (u.activatedInImpulse !== null && u.activatedInImpulse > state.impulse) problems.push(`${id}: activated in impulse ${u.activatedInImpulse}`);
  }
  if (state.activationLeft !== null && state.activationLeft < 0) problems.push(`activation points ${state.activationLeft}`);
  if (state.axisReplenishmentPoints < 0) problems.push(`replenishment points ${state.axisReplenishmentPoints}`);
  if (state.impulse < 1 || state.impulse > state.impulses) problems.push(`impulse ${state.impulse}`);
  if (new Set(state.hexesAttacked).size !== state.hexesAttacked.length) problems.push('a hex attacked twice');
  return problems;
}

describe('random games (fast-check)', () => {
  it('fold, whatever valid commands come in whatever order, to states whose invariants hold; the events replay to the same state', () => {
    let resolved = 0;
    fc.assert(
      fc.property(gameOptions, fc.array(intent, { minLength: 20, maxLength: 60 }), fc.array(fc.nat(), { minLength: 8, maxLength: 40 }), (o, intents, pool) => {
        const game = play(randomOptions(o), intents, pool);
        for (const state of game.states) expect(invariantProblems(state)).toEqual([]);
        const replayed = game.events.reduce(warsAndBattlesRuleset.evolve, game.initial);
        expect(replayed).toEqual(game.states.at(-1) ?? game.initial);
        resolved += game.events.filter((e) => e.type === 'AttackResolved' || e.type === 'BombardmentResolved').length;
        for (const commit of game.commits) {
          const line = warsAndBattlesRuleset.summarize({ type: commit.type, payload: {} }, commit.events);
          expect(line).not.toMatch(/[\n\r]/);
          expect(line.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300, seed: 44 },
    );
    // The runs reach the table: resolutions happen, not only refusals.
    expect(resolved).toBeGreaterThan(100);
  });

  it('rules version 2 too: the invariants hold, a unit that moved strategically does not fight that turn, and no defending stack is over the limit', () => {
    let resolved = 0;
    fc.assert(
      fc.property(gameOptions, fc.array(intent, { minLength: 20, maxLength: 60 }), fc.array(fc.nat(), { minLength: 8, maxLength: 40 }), (o, intents, pool) => {
        const game = play({ ...randomOptions(o), rulesVersion: 2 }, intents, pool);
        for (const state of game.states) expect(invariantProblems(state)).toEqual([]);
        const replayed = game.events.reduce(warsAndBattlesRuleset.evolve, game.initial);
        expect(replayed).toEqual(game.states.at(-1) ?? game.initial);
        game.commits.forEach((commit, i) => {
          const before = i === 0 ? game.initial : game.states[i - 1];
          for (const e of commit.events) {
            if (e.type !== 'AttackDeclared') continue;
            const data = e.data as { attacker: 'allied' | 'axis'; attackers: { unitId: string }[]; support: { unitId: string }[]; defenders: { unitId: string }[] };
            for (const { unitId } of [...data.attackers, ...data.support]) expect(unitOf(before, unitId).movedStrategically, `${unitId} moved strategically, then fought`).toBe(false);
            const weight = data.defenders.reduce((n, d) => n + stackingWeight(data.attacker === 'allied' ? 'axis' : 'allied', unitOf(before, d.unitId)), 0);
            expect(weight).toBeLessThanOrEqual(STACKING_LIMIT);
          }
        });
        resolved += game.events.filter((e) => e.type === 'AttackResolved').length;
      }),
      { numRuns: 150, seed: 31 },
    );
    expect(resolved).toBeGreaterThan(50);
  });

  it('the invariants can fail: a state with LP above its maximum is caught', () => {
    const game = play(randomOptions({ impulses: 1, axisPointsPerTurn: 0, zocRetreatLoss: 1, energy: [50] }), [], [1]);
    const [id, unit] = Object.entries(game.initial.units)[0];
    const broken = { ...game.initial, units: { ...game.initial.units, [id]: { ...unit, lp: unit.maxLp + 1 } } };
    expect(invariantProblems(broken)).toEqual([`${id}: LP ${unit.maxLp + 1} of ${unit.maxLp}`]);
  });
});
