import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { RuleViolation } from '../../../../domain/errors';
import { france44Ruleset } from '../../../../domain/rulesets/france44';
import { resolveCombat } from '../../../../domain/rulesets/france44/combatResolution';
import { CONTROL_LIMITS, ODDS_COLUMNS, REVISED_COMBAT_TABLE } from '../../../../domain/rulesets/france44/tables';
import { evaluateProcedure } from '../../../../functions/application/evaluate';
import { oracleCombat } from '../../../independent/france44-combat.mjs';
import { apply, given } from './harness';
import { randomCombats } from './randomCombats';

const options = { hexGrid: 'odd-q' as const, cAttackerLoss: false, airPowerMoraleModifier: -1, rulesVersion: 2 as const };
const cases = randomCombats(5000);
const column = (label: string) => ODDS_COLUMNS.findIndex((c) => c.label === label);

describe('properties of every combat', () => {
  it('an accepted combat resolves to a letter of its cell, and its breakdown adds up', () => {
    let accepted = 0;
    for (const { combat, die } of cases) {
      let b;
      try {
        b = resolveCombat(combat, options, combat.airPower === true, new GivenDice([die]));
      } catch (error) {
        expect(error).toBeInstanceOf(RuleViolation);
        continue;
      }
      accepted += 1;
      const [s, m] = REVISED_COMBAT_TABLE[b.adjustedDie - 1][column(b.column)].split('/');
      expect(b.code).toBe(b.kind === 'set-piece' ? s : m);
      expect(b.attack / b.defence).toBeGreaterThanOrEqual(1 / 4);
      // Morale: best terrain + the other modifiers, clamped; then the defender's morale, clamped.
      expect(b.morale.adjustment).toBe(Math.max(-3, Math.min(2, b.morale.bestTerrain + b.morale.otherTotal)));
      expect(b.morale.adjustedDefender).toBe(Math.max(1, Math.min(6, b.morale.defenderBase + b.morale.adjustment)));
      expect(b.morale.modifier).toBe(b.morale.attacker - b.morale.adjustedDefender);
      expect(b.control.limit).toBe(CONTROL_LIMITS[b.morale.attacker]);
      expect(b.control.modifier).toBe(Math.min(0, b.control.limit - b.control.units));
      expect(b.combatModifier).toBe(b.morale.modifier + b.control.modifier);
      // The shift lands on the final column, any excess on the die.
      expect(column(b.column) + b.dieModifier).toBe(column(b.baseColumn) + b.combatModifier);
      expect(b.dieModifier === 0 || column(b.column) === 0 || column(b.column) === 8).toBe(true);
      expect(b.adjustedDie).toBe(Math.max(1, Math.min(6, b.die + b.dieModifier)));
    }
    expect(accepted).toBeGreaterThan(3000);
  });
});

describe('the combat procedure against an independent implementation of the rules page', () => {
  it('agrees on 5,000 random combats', () => {
    let compared = 0;
    for (const { combat, die } of cases) {
      const expected = oracleCombat(combat, die);
      let actual;
      try {
        actual = evaluateProcedure('france44', { procedure: 'combat', input: combat, dice: [die] }).result;
      } catch (error) {
        expect(expected.refused, `${combat.combatId} was refused: ${(error as Error).message}`).toBe(true);
        continue;
      }
      expect(actual, combat.combatId).toEqual(expected);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(3000);
  });

  it('and a ResolveCombat in a game gives the breakdown the procedure gives', () => {
    for (const { combat, die } of cases.slice(0, 200)) {
      if (oracleCombat(combat, die).refused) continue;
      const { airPower, ...declared } = combat;
      const attackers = declared.attackers.map((a, i) => ({ ...a, hex: '2708', unitId: `a${i}` }));
      const defenders = declared.defenders.map((d, i) => ({ ...d, hex: '2709', unitId: `d${i}` }));
      const state = given([
        ['organizer', 'StartTurn', { turn: 1 }],
        ['allied', 'BeginAttackIncrement'],
        ['allied', 'DeclareCombat', { ...declared, attackers, defenders }],
        ...(airPower ? [['allied', 'RollAirPower', { combatId: combat.combatId, availability: 6 }, [1]] as [string, string, unknown, number[]]] : []),
      ], { rulesVersion: 2 });
      const { events } = apply(state, ['allied', 'ResolveCombat', { combatId: combat.combatId }, [die]]);
      const procedure = france44Ruleset.procedures.combat.evaluate({ ...combat, attackers, defenders }, options, new GivenDice([die]));
      expect(events[0].data).toEqual({ combatId: combat.combatId, ...(procedure.breakdown as object) });
    }
  });
});
