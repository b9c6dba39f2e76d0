import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allRulesets } from '../../../domain/rulesets/registry';
import { drawWith, Tally, walkGame, type Walk } from './refusesBeforeDice';
import { diceWalk } from './dice/walk';
import { tableWalk } from './table/walk';
import { france44Walk } from './france44/walk';
import { normandy44Walk } from './normandy44/walk';
import { memoir44Walk } from './memoir44/walk';
import { warsAndBattlesWalk } from './warsandbattles/walk';
import { europaWalk } from './europa/walk';

/**
 * beacon.md §4, a property of every ruleset: no ruleset refuses a command after its first
 * die. A beacon game accepts a command that reaches a die as pending, and its reveal decides
 * it again with the beacon's dice: a refusal then would leave a pending roll the game cannot
 * resolve. Random games of each ruleset, both sides and the organizer, valid and invalid
 * payloads: each command is decided with probe dice and with real dice, and both must agree.
 */
const WALKS: ReadonlyMap<string, { walk: Walk<any>; numRuns: number; steps: [number, number]; seed: number }> = new Map([
  ['dice', { walk: diceWalk, numRuns: 100, steps: [5, 15], seed: 32 }],
  ['table', { walk: tableWalk, numRuns: 100, steps: [5, 15], seed: 32 }],
  ['france44', { walk: france44Walk, numRuns: 200, steps: [20, 50], seed: 32 }],
  ['normandy44', { walk: normandy44Walk, numRuns: 150, steps: [20, 50], seed: 32 }],
  ['memoir44-d6', { walk: memoir44Walk, numRuns: 150, steps: [20, 50], seed: 32 }],
  ['wars-and-battles', { walk: warsAndBattlesWalk, numRuns: 150, steps: [20, 60], seed: 32 }],
  ['europa', { walk: europaWalk, numRuns: 150, steps: [10, 30], seed: 32 }],
]);

describe('no ruleset refuses after its first die (beacon.md §4)', () => {
  it('every ruleset of the registry is walked', () => {
    expect(allRulesets().map((r) => r.id).filter((id) => !WALKS.has(id))).toEqual([]);
  });

  for (const ruleset of allRulesets()) {
    const plan = WALKS.get(ruleset.id);
    if (!plan) continue;
    it(`${ruleset.id}: every refusal comes before the first die; every command that reaches a die is accepted`, () => {
      const tally = new Tally();
      fc.assert(
        fc.property(plan.walk.game, fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.gen(), (game, gameKey, g) => {
          const draw = drawWith(g);
          walkGame(ruleset, plan.walk, game, gameKey, draw, draw.int(...plan.steps), tally);
        }),
        { numRuns: plan.numRuns, seed: plan.seed },
      );
      // Never vacuous: the games got somewhere (every command of the ruleset was accepted), each rolling command
      // reached its dice, and the rules refused some of them before their dice.
      for (const type of Object.keys(ruleset.commands)) expect(tally.of('accepted, no die', type) + tally.of('reached a die', type), `${type} accepted`).toBeGreaterThan(0);
      for (const type of plan.walk.rolling) expect(tally.of('reached a die', type), `${type} reached a die`).toBeGreaterThanOrEqual(10);
      expect(plan.walk.rolling.reduce((n, type) => n + tally.of('refused before a die', type), 0), 'rolling commands refused before their dice').toBeGreaterThanOrEqual(10);
    });
  }
});
