import { readFileSync } from 'node:fs';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../domain/dice';
import { RuleViolation } from '../../../domain/errors';
import {
  adjustedDefenderMorale,
  controlModifier,
  resolveCombat,
  strengthsInHalves,
  type CombatOptions,
  type CombatSituation,
} from '../../../domain/rulesets/france44/combatResolution';
import { ODDS_COLUMNS, REVISED_COMBAT_TABLE } from '../../../domain/rulesets/france44/tables';
import { resolveOnTable, validateTable, type TableDefinition, type TableResolution } from '../../../domain/tables';

/** The France 1944 Revised Combat Table as data (docs/examples/tables/), checked as any table is. */
function exampleTable(kind: 'set-piece' | 'mobile'): TableDefinition {
  const json: unknown = JSON.parse(readFileSync(new URL(`../../../docs/examples/tables/france44-crt-${kind}.json`, import.meta.url), 'utf8'));
  const validation = validateTable(json);
  if (!validation.ok) throw new Error(JSON.stringify(validation.issues));
  return validation.table;
}
const TABLES = { 'set-piece': exampleTable('set-piece'), mobile: exampleTable('mobile') };

describe('the France 1944 CRT as data', () => {
  it('holds the ruleset\'s Table 1 cell by cell: the set-piece letter in one table, the mobile letter in the other', () => {
    for (const [kind, part] of [['set-piece', 0], ['mobile', 1]] as const) {
      const table = TABLES[kind];
      expect(table.columns.labels).toEqual(ODDS_COLUMNS.map((c) => c.label));
      expect(table.rows).toEqual([1, 2, 3, 4, 5, 6].map((roll) => ({ roll })));
      expect(table.cells).toEqual(REVISED_COMBAT_TABLE.map((row) => row.map((cell) => cell.split('/')[part])));
      expect(table.columns).toMatchObject({ kind: 'ratio', landing: 'defender', belowFirst: 'refuse', aboveLast: 'last-column', shiftPastLeft: 'die-modifier', shiftPastRight: 'die-modifier' });
      expect(table).toMatchObject({ dice: '1d6', rowsOffTable: 'clamp' });
      expect(table.example).toBeUndefined();
    }
  });

  it('gives C the effect the rules page gives it (2 defender steps) and leaves the other letters as the table gives them', () => {
    for (const table of Object.values(TABLES)) {
      expect(table.results.map((r) => r.code)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
      expect(table.results.find((r) => r.code === 'C')!.effects).toEqual([{ effect: 'step-loss', side: 'defender', value: 2 }]);
      for (const result of table.results.filter((r) => r.code !== 'C')) expect(result.effects).toEqual([]);
    }
  });
});

const options: CombatOptions = { cAttackerLoss: false, airPowerMoraleModifier: -1, rulesVersion: 2 };

/** Declarations the ruleset accepts as to who attacks (1 to 8 units, up to 2 HQs), any strengths and morale. */
const combat = fc.record({
  kind: fc.constantFrom('set-piece' as const, 'mobile' as const),
  units: fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 8 }),
  hqs: fc.array(fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }), { maxLength: 2 }),
  defenders: fc.array(fc.record({ strength: fc.integer({ min: 1, max: 12 }), outOfSupply: fc.boolean() }), { minLength: 1, maxLength: 3 }),
  attackerMorale: fc.integer({ min: 1, max: 6 }),
  defenderMorale: fc.integer({ min: 1, max: 6 }),
  terrain: fc.array(fc.constantFrom(1, 2), { maxLength: 3 }),
  others: fc.array(fc.record({ source: fc.constantFrom('79th Armoured', 'heavy bombing', 'other'), value: fc.integer({ min: -3, max: 3 }) }), { maxLength: 3 }),
  airPower: fc.boolean(),
  die: fc.integer({ min: 1, max: 6 }),
});

/** The ruleset's own combat modifier (morale and control), from its exported functions, as resolveCombat composes them. */
function combatModifierOf(situation: CombatSituation, airPower: boolean): number {
  const others = [...(situation.otherMoraleModifiers ?? []), ...(airPower ? [{ source: 'air power', value: options.airPowerMoraleModifier }] : [])];
  const morale = adjustedDefenderMorale(situation.defenderMorale, [...(situation.terrainMoraleModifiers ?? [])], others);
  const control = controlModifier(situation.attackerMorale, situation.attackers.filter((a) => !a.hq).length);
  return situation.attackerMorale - morale.adjusted + control.modifier;
}

describe('resolveOnTable on the data table agrees with the France 1944 ruleset', () => {
  it('on 10,000 random combats: the same column, adjusted die and letter, and the same refusals', () => {
    let accepted = 0;
    let refused = 0;
    let pastAnEnd = 0;
    fc.assert(
      fc.property(combat, (c) => {
        const situation: CombatSituation = {
          kind: c.kind,
          attackers: [...c.units.map((strength, i) => ({ unitId: `a${i}`, strength })), ...c.hqs.map((strength, i) => ({ unitId: `hq${i}`, hq: true, ...(strength === undefined ? {} : { strength }) }))],
          defenders: c.defenders.map((d, i) => ({ unitId: `d${i}`, ...d })),
          attackerMorale: c.attackerMorale,
          defenderMorale: c.defenderMorale,
          terrainMoraleModifiers: c.terrain,
          otherMoraleModifiers: c.others,
        };
        const { attack, defence } = strengthsInHalves(situation);
        const combatModifier = combatModifierOf(situation, c.airPower);

        const rulesetDice = new GivenDice([c.die]);
        const tableDice = new GivenDice([c.die]);
        let breakdown: ReturnType<typeof resolveCombat> | undefined;
        let resolution: TableResolution | undefined;
        let rulesetError: unknown;
        let tableError: unknown;
        try {
          breakdown = resolveCombat(situation, options, c.airPower, rulesetDice);
        } catch (error) {
          rulesetError = error;
        }
        try {
          resolution = resolveOnTable(TABLES[c.kind], { attack, defence, shifts: [{ source: 'combat modifier', value: combatModifier }] }, tableDice);
        } catch (error) {
          tableError = error;
        }

        if (rulesetError !== undefined || tableError !== undefined) {
          expect(rulesetError, `the ruleset: ${String(rulesetError)}; the table: ${String(tableError)}`).toBeInstanceOf(RuleViolation);
          expect(tableError, `the ruleset: ${String(rulesetError)}; the table: ${String(tableError)}`).toBeInstanceOf(RuleViolation);
          // Both refuse before the die.
          expect(rulesetDice.drawn).toEqual([]);
          expect(tableDice.drawn).toEqual([]);
          refused += 1;
          return;
        }
        accepted += 1;
        const b = breakdown!;
        const r = resolution!;
        expect(b.combatModifier).toBe(combatModifier);
        expect(r.landing.landedColumn.label).toBe(b.baseColumn);
        expect(r.landing.column.label).toBe(b.column);
        expect(r.landing.dieModifier).toBe(b.dieModifier);
        if (b.dieModifier !== 0) pastAnEnd += 1;
        expect(r.roll!.natural).toBe(b.die);
        expect(Number(r.roll!.row.label)).toBe(b.adjustedDie);
        expect(r.code).toBe(b.code);
        expect(r.effects).toEqual(b.code === 'C' ? [{ effect: 'step-loss', side: 'defender', value: 2 }] : []);
      }),
      { numRuns: 10_000 },
    );
    expect(accepted + refused).toBe(10_000);
    expect(accepted).toBeGreaterThan(5000);
    expect(refused).toBeGreaterThan(100);
    expect(pastAnEnd).toBeGreaterThan(500);
  });

  it('refuses odds below 1-4 in the table\'s words, with the odds in half points', () => {
    const situation = { attackers: [{ strength: 1 }], defenders: [{ strength: 5 }] };
    const { attack, defence } = strengthsInHalves(situation);
    expect(() => resolveOnTable(TABLES['set-piece'], { attack, defence }, new GivenDice([3]))).toThrow(
      'Odds of 2:10 are left of the first column (1-4) of "France 1944 Revised Combat Table (set-piece)", and this table refuses attacks off its left end.',
    );
  });
});
