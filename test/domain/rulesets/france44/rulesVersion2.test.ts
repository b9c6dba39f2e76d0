import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RuleViolation } from '../../../../domain/errors';
import type { Commit } from '../../../../domain/fairness/hashChain';
import { france44Ruleset } from '../../../../domain/rulesets/france44';
import type { ExportBundle } from '../../../../domain/verify/exportBundle';
import { verifyExport } from '../../../../domain/verify/verifyExport';
import { evaluateProcedure } from '../../../../functions/application/evaluate';
import type { Step } from '../../../support/rulesetHarness';
import { apply, declaration, given, refused } from './harness';

const current = { rulesVersion: 2 };
const turn: Step = ['organizer', 'StartTurn', { turn: 1 }];
const openIncrement = (options: Record<string, unknown> = current) => given([turn, ['allied', 'BeginAttackIncrement']], options);
const hq = (unitId: string, hex: string, extra: Record<string, unknown> = {}) => ({ unitId, hex, hq: true, strength: 5, ...extra });
const unit = (unitId: string, hex: string, strength = 2, extra: Record<string, unknown> = {}) => ({ unitId, hex, strength, ...extra });
const procedure = (input: Record<string, unknown>, options?: Record<string, unknown>) =>
  evaluateProcedure('france44', { procedure: 'combat', input: { kind: 'set-piece', attackerMorale: 3, defenderMorale: 3, ...input }, dice: [4], ...(options ? { options } : {}) });

describe('France 1944, rules version 2 (issue 19)', () => {
  it('"HQ units … add to the combat strength of an attacking unit": an HQ attacking alone is refused, an HQ beside a unit is not', () => {
    const hqAlone = declaration('c1', { attackers: [hq('1US-HQ', '2708')], defenders: [unit('352', '2709', 1)] });
    refused(openIncrement(), ['allied', 'DeclareCombat', hqAlone], /Only HQs attack here: .* needs at least one unit that is not an HQ/);
    const withUnit = apply(openIncrement(), ['allied', 'DeclareCombat', declaration('c1', { attackers: [hq('1US-HQ', '2708'), unit('29Inf', '2708')], defenders: [unit('352', '2709', 1)] })]);
    expect(withUnit.events[0].data).toMatchObject({ odds: '7:1', baseColumn: '4-1' });
    // The calculator follows the current rules, and the first ones when asked.
    expect(() => procedure({ attackers: [{ hq: true, strength: 5 }], defenders: [{ strength: 1 }] })).toThrow(RuleViolation);
    expect(procedure({ attackers: [{ hq: true, strength: 5 }], defenders: [{ strength: 1 }] }, { rulesVersion: 1 }).result).toMatchObject({ column: '4-1', code: 'C' });
  });

  it('"Out of supply HQ units may not … add to the combat strength of an attacking unit": an out-of-supply HQ attacker is refused, in every game', () => {
    const attackers = [hq('1US-HQ', '2708', { outOfSupply: true }), unit('29Inf', '2708', 4)];
    for (const options of [current, {}]) {
      refused(openIncrement(options), ['allied', 'DeclareCombat', declaration('c1', { attackers })], /HQ 1US-HQ is out of supply: it can't add its strength to an attack/);
    }
    expect(() => procedure({ attackers: [{ hq: true, strength: 2, outOfSupply: true }, { strength: 4 }], defenders: [{ strength: 2 }] })).toThrow(/An HQ is out of supply/);
    // Malformed, not refused: a 400 naming the field.
    const malformed = france44Ruleset.commands.DeclareCombat.schema.safeParse(declaration('c1', { attackers: [unit('29Inf', '2708', 4, { outOfSupply: 'yes' })] }));
    expect(malformed.success).toBe(false);
    expect(malformed.error?.issues[0].path).toEqual(['attackers', 0, 'outOfSupply']);
  });

  it('"does not suffer the one-half combat strength reduction": an out-of-supply combat unit attacks at full strength', () => {
    const { events } = apply(openIncrement(), ['allied', 'DeclareCombat', declaration('c1', { attackers: [unit('29Inf', '2708', 6, { outOfSupply: true })] })]);
    expect(events[0].data).toMatchObject({ odds: '6:3', baseColumn: '2-1' });
  });

  it('"the maximum number of attacking units that can be involved in a combat is 8": a ninth is refused, HQs not counted', () => {
    const nine = Array.from({ length: 9 }, (_, i) => unit(`inf${i + 1}`, '1010'));
    const morale5 = { defenders: [unit('716', '1011', 6)], attackerMorale: 5 };
    refused(openIncrement(), ['allied', 'DeclareCombat', declaration('c1', { attackers: nine, ...morale5 })], /9 units attack in this combat: at most 8 may, HQs not counted/);
    expect(() => procedure({ attackers: nine.map(({ strength }) => ({ strength })), defenders: [{ strength: 6 }], attackerMorale: 5 })).toThrow(/at most 8/);

    // Eight units and two HQs: the most a combat holds, and morale 5 is never penalized.
    const eightAndHqs = [...nine.slice(0, 8), hq('V-HQ', '1010'), hq('VII-HQ', '1010')];
    const declared = apply(openIncrement(), ['allied', 'DeclareCombat', declaration('c1', { attackers: eightAndHqs, ...morale5 })]);
    const resolved = apply(declared.state, ['allied', 'ResolveCombat', { combatId: 'c1' }, [3]]);
    expect(resolved.events[0].data).toMatchObject({ control: { limit: 8, units: 8, modifier: 0 } });
  });

  it('"you may change the C combat result to cause the attacker to lose 1 step" stays a house rule a game opts into (ruling)', () => {
    const cResult = (options: Record<string, unknown>) => {
      const declared = apply(openIncrement(options), ['allied', 'DeclareCombat', declaration('c1', { attackers: [unit('2Arm', '2708', 12)] })]);
      return apply(declared.state, ['allied', 'ResolveCombat', { combatId: 'c1' }, [6]]).events[0].data;
    };
    expect(cResult(current)).toMatchObject({ column: '4-1', code: 'C', stepLosses: { defender: 2, attacker: 0 } });
    expect(cResult({ ...current, cAttackerLoss: true })).toMatchObject({ column: '4-1', code: 'C', stepLosses: { defender: 2, attacker: 1 } });
  });
});

describe('France 1944 games recorded before rules version 2', () => {
  const fixture = JSON.parse(readFileSync(new URL('./fixtures/game-before-issue-19.json', import.meta.url), 'utf8')) as { trusted: string; bundle: ExportBundle };
  const commits: Commit[] = fixture.bundle.commits;
  const moves = commits.slice(1, -1).map((c): Step => [c.actor, c.command.type, c.command.payload, c.dice.map((d) => d.value)]);

  it('records rulesVersion in commit 1 only when a game asks for it: none means version 1', () => {
    expect(commits[0].events[0].data.options).toEqual({ hexGrid: 'odd-q', cAttackerLoss: false, airPowerMoraleModifier: -1 });
    expect(france44Ruleset.options.parse({})).not.toHaveProperty('rulesVersion');
    expect(france44Ruleset.options.parse(current)).toMatchObject(current);
    const unknown = france44Ruleset.options.safeParse({ rulesVersion: 3 });
    expect(unknown.error?.issues[0].path).toEqual(['rulesVersion']);
  });

  it('a game exported before issue 19, with an HQ attacking alone and nine attacking units, still verifies', () => {
    const declared = commits.filter((c) => c.command.type === 'DeclareCombat').map((c) => (c.command.payload as { combatId: string }).combatId);
    expect(declared).toEqual(['hq-alone', 'nine']);
    expect(commits.find((c) => c.events[0]?.type === 'CombatResolved' && c.events[0].data.combatId === 'nine')?.events[0].data.control).toEqual({ limit: 8, units: 9, modifier: -1 });
    expect(verifyExport(fixture.bundle, { trusted: [fixture.trusted] })).toMatchObject({ ok: true, exitCode: 0, rulesReplayed: commits.length, failures: [] });
  });

  it('its commands replay under version 1, and the same commands are refused in a version 2 game', () => {
    expect(() => given(moves)).not.toThrow();
    const beforeDeclaring = moves.slice(0, 2);
    const [hqAlone, nine] = moves.slice(2, 4);
    refused(given(beforeDeclaring, current), hqAlone, /Only HQs attack here/);
    refused(given(beforeDeclaring, current), nine, /9 units attack in this combat/);
  });
});
