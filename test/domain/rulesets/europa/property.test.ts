import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GivenDice, type DiceSource, type Die } from '../../../../domain/dice';
import { DomainError } from '../../../../domain/errors';
import { europaRuleset } from '../../../../domain/rulesets/europa';
import { resolveAAFire, type AAFireInput } from '../../../../domain/rulesets/europa/aaFire';
import { AIR_TYPES } from '../../../../domain/rulesets/europa/allocation';
import { TEST_AA_TABLE } from './harness';

/** Dice from a pool of numbers, recorded as a game's dice are. */
const poolDice = (pool: number[]): DiceSource => {
  const drawn: Die[] = [];
  let i = 0;
  return { drawn, roll: (sides) => { const value = (pool[i++ % pool.length] % sides) + 1; drawn.push({ sides, value }); return value; } };
};

const MISSIONS = ['ground-support', 'bombing', 'air-transport', 'airdrop', 'das', 'harassment', 'naval-at-sea', 'naval-in-port'] as const;
const fireInput = fc
  .record({
    mission: fc.constantFrom(...MISSIONS),
    night: fc.boolean(),
    year: fc.integer({ min: 39, max: 45 }),
    nationality: fc.constantFrom('german', 'allied', 'soviet', 'minor', 'other'),
    claim: fc.boolean(),
    aa: fc.array(fc.record({ aa: fc.integer({ min: 0, max: 12 }), hex: fc.constantFrom('A', 'B', 'C'), light: fc.boolean() }), { minLength: 1, maxLength: 6 }),
    air: fc.array(fc.record({ type: fc.constantFrom(...AIR_TYPES), df: fc.integer({ min: 0, max: 12 }), escort: fc.boolean(), dedicated: fc.boolean(), codeT: fc.boolean() }), { minLength: 1, maxLength: 14 }),
  })
  .map(({ mission, night, year, nationality, claim, aa, air }) => ({
    mission,
    date: `Jun II ${year}`,
    night,
    nationality,
    germanOrAlliedShift: claim,
    hex: 'T',
    aa: aa.map((u, i) => ({
      unitId: `aa${i}`,
      aa: u.aa,
      light: u.light,
      ...(mission === 'das' || (mission === 'harassment' && i > 0) ? { hex: u.hex } : {}),
      ...(mission.startsWith('naval') && i % 2 === 0 ? { naval: true } : {}),
    })),
    airUnits: air.map((u, i) => ({ unitId: `air${i}`, type: u.type, df: u.df, dedicated: u.dedicated, codeT: u.codeT, ...(u.escort && i > 0 ? { mission: 'escort' } : {}) })),
  }));

describe('random AA fires (fast-check)', () => {
  it('never affect more units than the force has, nor more DF than the result; every die is recorded, and the recorded dice replay the same fire', () => {
    let resolved = 0;
    let allocated = 0;
    fc.assert(
      fc.property(fireInput, fc.array(fc.nat(), { minLength: 1, maxLength: 30 }), (raw, pool) => {
        const input = europaRuleset.procedures.aaFire.input.parse(raw) as AAFireInput;
        const dice = poolDice(pool);
        let outcome;
        try {
          outcome = resolveAAFire(input, TEST_AA_TABLE, true, dice, 2);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          expect(dice.drawn).toEqual([]);
          return;
        }
        resolved += 1;
        const { allocation, force, result } = outcome;
        const affected = allocation.selections.filter((s) => s.outcome !== 'unaffected');
        if (affected.length) allocated += 1;
        expect(affected.length).toBeLessThanOrEqual(force.length);
        expect(new Set(affected.map((s) => s.unitId)).size).toBe(affected.length);
        expect(allocation.affectedDf).toBe(affected.reduce((s, a) => s + a.df, 0));
        expect(allocation.affectedDf).toBeLessThanOrEqual(result ?? 0);
        expect(affected.length + allocation.unaffected.length).toBe(force.length);
        if (allocation.atLeastForce) expect(allocation.unaffected).toEqual([]);
        expect(outcome.escorts.every((id) => !force.some((u) => u.unitId === id))).toBe(true);
        // 2d6, then one die per selection among two or more units.
        expect(dice.drawn.length).toBe(2 + allocation.selections.filter((s) => s.die).length);
        const replay = resolveAAFire(input, TEST_AA_TABLE, true, new GivenDice(dice.drawn.map((d) => d.value)), 2);
        expect(replay).toEqual(outcome);
      }),
      { numRuns: 400, seed: 37 },
    );
    expect(resolved).toBeGreaterThan(100);
    expect(allocated).toBeGreaterThan(30);
  });
});
