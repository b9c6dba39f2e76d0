import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { checkAttack, resolveAttack } from '../../../../domain/rulesets/normandy44/attackResolution';
import { rollDeterminedDefense } from '../../../../domain/rulesets/normandy44/otherRolls';
import type { ExportBundle } from '../../../../domain/verify/exportBundle';
import { verifyExport } from '../../../../domain/verify/verifyExport';

import { apply, attack, given, maf, refused } from './harness';

/** What the service decides where the player aid is silent or ambiguous (docs/rulesets/normandy44.md, Rulings). */
describe("Normandy '44 rulings", () => {
  it('impassable hexside — "Interdit" to cross, "Pas de ZDC à travers": an attack across it is refused, before any die (ruling)', () => {
    const across = { attackId: 'a1', weather: 'overcast', defenderHex: { terrain: 'clear' }, attackers: [{ unitId: '29Inf', factors: 6, mainAttackForce: true, hexside: 'impassable' }], defenders: [{ unitId: '352', factors: 2, steps: 2 }] };
    refused(given([]), ['allied', 'DeclareAttack', across], /^29Inf can't attack across an impassable hexside: no unit may cross it, nor exert a zone of control across it\.$/);
    const dice = new GivenDice([]);
    expect(() => resolveAttack(attack({ attackers: [maf(6, { hexside: 'impassable' })] }), 'allied', dice)).toThrow(/impassable hexside/);
    expect(dice.drawn).toEqual([]);
  });

  it('"18 facteurs … Tous les facteurs de combat en excès sont ignorés": the cap applies after halving (ruling)', () => {
    // 20 + 20 across a minor river count 10 + 10 = 20, capped at 18 (capping first would give 9).
    const checked = checkAttack(attack({ attackers: [maf(20, { hexside: 'minor-river' }), maf(20, { hexside: 'minor-river' })], defenders: [{ factors: 6, steps: 3 }] }), 'allied');
    expect(checked.attack).toEqual({ total: 20, counted: 18, capped: true });
    expect(checked.odds).toBe('18:6');
  });

  it('"Rivière mineure … Attq 1/2": halves are kept exact — 3 across a minor river against 2 is 1.5:2, the 1-2 column (ruling)', () => {
    const { events } = apply(given([]), ['allied', 'DeclareAttack', { attackId: 'a1', weather: 'overcast', defenderHex: { terrain: 'clear' }, attackers: [{ unitId: '29Inf', factors: 3, mainAttackForce: true, hexside: 'minor-river' }], defenders: [{ unitId: '352', factors: 2, steps: 2 }] }]);
    expect(events[0].data).toMatchObject({ odds: '1.5:2', baseColumn: '1-2' });
  });

  it('"Jabos – temps clair seulement": the Jabos die is rolled automatically, before the combat die, on every German attack in clear weather (ruling)', () => {
    const german = { attackId: 'g1', weather: 'clear', defenderHex: { terrain: 'clear' }, attackers: [{ unitId: 'PzLehr', factors: 12, mainAttackForce: true }], defenders: [{ unitId: '1Inf', factors: 3, steps: 2 }] };
    const declared = apply(given([]), ['german', 'DeclareAttack', german]).state;
    const resolved = apply(declared, ['german', 'ResolveAttack', { attackId: 'g1' }, [5, 4]]);
    expect(resolved.events[0].data).toMatchObject({ breakdown: { jabos: { die: 5, shift: 2 }, baseColumn: '4-1', column: '2-1', die: 4 } });
    const overcast = apply(apply(given([]), ['german', 'DeclareAttack', { ...german, weather: 'overcast' }]).state, ['german', 'ResolveAttack', { attackId: 'g1' }, [4]]);
    expect(overcast.events[0].data.breakdown).not.toHaveProperty('jabos');
  });

  it('the legend "= la retraite est annulée", its mark lost in the transcript: ● cancels the retreat, a lone "-" leaves it standing (ruling)', () => {
    const roll = (die: number) => rollDeterminedDefense({ defenderHex: { terrain: 'bocage' } }, new GivenDice([die])).result;
    expect(roll(4)).toMatchObject({ code: '-', retreatCancelled: false, leadUnitSteps: 0 });
    expect(roll(5)).toMatchObject({ code: '●-1', retreatCancelled: true, leadUnitSteps: 1 });
    expect(rollDeterminedDefense({ defenderHex: { terrain: 'clear' } }, new GivenDice([5])).result).toMatchObject({ code: '-1', retreatCancelled: false, leadUnitSteps: 1 });
  });
});

describe("Normandy '44 games recorded before issue 19", () => {
  it('a game exported before issue 19 (a minor river crossing, a German attack with Jabos) still verifies', () => {
    const fixture = JSON.parse(readFileSync(new URL('./fixtures/game-before-issue-19.json', import.meta.url), 'utf8')) as { trusted: string; bundle: ExportBundle };
    expect(fixture.bundle.commits[2].events[0].data).toMatchObject({ odds: '1.5:2', baseColumn: '1-2' });
    expect(verifyExport(fixture.bundle, { trusted: [fixture.trusted] })).toMatchObject({ ok: true, exitCode: 0, rulesReplayed: fixture.bundle.commits.length, failures: [] });
  });
});
