import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';
import { EXAMPLE_TABLES, EXAMPLE_TERRAIN } from '../../../../domain/rulesets/warsandbattles/exampleTables';
import { tableDefinitionSchema, tableHash } from '../../../../domain/tables';
import { apply, given, refused, TEST_TABLES, unitOf } from './harness';
import { refusal } from '../../../support/rulesetHarness';

const parseOptions = (options: unknown) => warsAndBattlesRuleset.options.safeParse(options);
const issuePaths = (options: unknown) => parseOptions(options).error?.issues.map((i) => i.path.join('.')) ?? [];
const defaults = warsAndBattlesRuleset.options.parse({});
const evaluate = (procedure: string, input: unknown, dice: number[] = []) => {
  const spec = warsAndBattlesRuleset.procedures[procedure];
  const given = new GivenDice(dice);
  return { ...(spec.evaluate(spec.input.parse(input), defaults, given) as { result: Record<string, any> }), drawn: given.drawn };
};

describe('the bundled example tables', () => {
  it('are valid arbiter-table/1 tables, marked as examples, saying what they hold', () => {
    for (const table of Object.values(EXAMPLE_TABLES)) {
      expect(tableDefinitionSchema.safeParse(table).error).toBeUndefined();
      expect(table.example).toBe(true);
      expect(table.source).toMatch(/worked example/);
    }
    expect(EXAMPLE_TERRAIN.map(({ terrain, c }) => ({ terrain, c }))).toEqual([{ terrain: 'marshes', c: 2 }, { terrain: 'clear', c: 0 }]);
  });

  it('go into the creation request (newGameOptions), so a game replays with exactly its tables, and are what options default to', () => {
    expect(warsAndBattlesRuleset.newGameOptions).toMatchObject({ tables: EXAMPLE_TABLES, terrain: EXAMPLE_TERRAIN, commanders: [] });
    expect(defaults.tables).toEqual(EXAMPLE_TABLES);
    const view = warsAndBattlesRuleset.present(given([])) as { tables: { role: string; hash: string; example: boolean }[] };
    expect(view.tables).toEqual([
      { role: 'combat', id: EXAMPLE_TABLES.combat.id, title: EXAMPLE_TABLES.combat.title, hash: tableHash(EXAMPLE_TABLES.combat), example: true },
      { role: 'bombardment', id: EXAMPLE_TABLES.bombardment.id, title: EXAMPLE_TABLES.bombardment.title, hash: tableHash(EXAMPLE_TABLES.bombardment), example: true },
      { role: 'support', id: EXAMPLE_TABLES.support.id, title: EXAMPLE_TABLES.support.title, hash: tableHash(EXAMPLE_TABLES.support), example: true },
    ]);
  });

  it('refuse, with the table\'s own 422, an input off their columns: no die is drawn', () => {
    const fight = (attack: number, defence: number) => ({ attackerSide: 'allied', attackers: [{ kind: 'infantry', attack }], defenders: [{ kind: 'infantry', defence }], terrain: 'hedgerows', terrainTable: [{ terrain: 'hedgerows', c: 0 }] });
    const dice = new GivenDice([3, 4]);
    const spec = warsAndBattlesRuleset.procedures.combat;
    expect(refusal(() => spec.evaluate(spec.input.parse(fight(10, 2)), defaults, dice))).toEqual({
      message: expect.stringMatching(/^Odds of 10:2 \(rounded to 5:1\) are left of the first column \(6:1\)/),
      rule: `table ${EXAMPLE_TABLES.combat.id}: belowFirst refuse`,
    });
    expect(refusal(() => spec.evaluate(spec.input.parse(fight(14, 2)), defaults, dice)).rule).toBe(`table ${EXAMPLE_TABLES.combat.id}: aboveLast refuse`);
    // 6.5:1 rounds to 6:1, halves in the defender's favour (ruling).
    expect(evaluate('combat', fight(13, 2), [3, 4]).result).toMatchObject({ ratio: '6:1', code: '1/13R' });
    expect(dice.drawn).toEqual([]);
    expect(refusal(() => evaluate('support', { support: [{ points: 10 }] })).rule).toBe(`table ${EXAMPLE_TABLES.support.id}: belowFirst refuse`);
    expect(refusal(() => evaluate('support', { support: [{ points: 16 }] }))).toEqual({
      message: expect.stringMatching(/^A value of 16 is right of the last column \(15\)/),
      rule: `table ${EXAMPLE_TABLES.support.id}: aboveLast refuse`,
    });
    expect(refusal(() => evaluate('bombardment', { points: 14, identification: 'identified' })).rule).toBe(`table ${EXAMPLE_TABLES.bombardment.id}: belowFirst refuse`);
    const bombDice = new GivenDice([3, 4]);
    const bomb = warsAndBattlesRuleset.procedures.bombardment;
    expect(refusal(() => bomb.evaluate(bomb.input.parse({ points: 16, identification: 'identified' }), defaults, bombDice)).rule).toBe(`table ${EXAMPLE_TABLES.bombardment.id}: aboveLast refuse`);
    expect(bombDice.drawn).toEqual([]);
  });

  it('refuse before the dice a roll whose every result is one the manual does not show', () => {
    const fight = { attackerSide: 'axis', attackers: [{ kind: 'armored', attack: 12 }, { kind: 'commander', attack: 0, commander: 'X' }], defenders: [{ kind: 'infantry', defence: 2 }], terrain: 't', terrainTable: [{ terrain: 't', c: 0 }], commanders: [{ commander: 'X', attack: { l: 6 } }] };
    const dice = new GivenDice([1, 1]);
    const spec = warsAndBattlesRuleset.procedures.combat;
    expect(refusal(() => spec.evaluate(spec.input.parse(fight), defaults, dice)).message).toMatch(/does not show any result at 6:1 with die modifiers of \+6/);
    expect(dice.drawn).toEqual([]);
  });

  it('record a roll on a cell the manual does not show, with no effect (ruling): the dice are the commit\'s, refused they would leak', () => {
    expect(evaluate('bombardment', { points: 15, identification: 'identified', targets: [{ defence: 2, lp: 8 }] }, [4, 4]).result).toEqual({ identification: 'identified', effectivePoints: 15, roll: 8, code: 'unproven', unproven: true, loss: 0 });
    const units = [
      { unitId: 'pz', side: 'axis', kind: 'armored', quality: 'elite', maxLp: 8, attack: 12 },
      { unitId: 'us', side: 'allied', kind: 'infantry', quality: 'veteran', maxLp: 16, defence: 2 },
    ];
    const state = given([['allied', 'EndImpulse'], ['axis', 'DeclareAttack', { attackId: 'a', targetHex: 'x', attackers: [{ unitId: 'pz', hex: 'y' }], defenders: ['us'], terrain: 'open' }]], { units, terrain: [{ terrain: 'open', c: 0 }] });
    const { events, state: after } = apply(state, ['axis', 'ResolveAttack', { attackId: 'a' }, [6, 6]]);
    expect(events[0].data).toMatchObject({ unproven: true, attackerLoss: 0, defenderLoss: 0, retreat: false, resolution: { code: 'unproven', roll: { modified: 12 } } });
    expect(events.map((e) => e.type)).toEqual(['AttackResolved', 'FatigueGained', 'FatigueGained']);
    expect(unitOf(after, 'us').lp).toBe(16);
    expect(warsAndBattlesRuleset.summarize({ type: 'ResolveAttack', payload: {} }, events)).toMatch(/-> unproven \(not in the example table: no effect\)$/);
  });

  it('a table of the game may mark cells "not-in-source" too: without dice, such a cell is refused (422)', () => {
    const support = structuredClone(TEST_TABLES.support);
    support.results.push({ code: 'unknown', effects: [{ effect: 'not-in-source' }] });
    support.cells[0][4] = 'unknown';
    expect(parseOptions({ tables: { ...TEST_TABLES, support } }).success).toBe(true);
    expect(refusal(() => evaluate('support', { support: [{ points: 20 }], tables: { support } }))).toEqual({
      message: '"Test support table" does not show the result at 20: it holds only what its source proves. Bring the full table as data to resolve this.',
      rule: 'table test-support: cell not in the source',
    });
  });

  it('are refused in a game the same way: a DeclareAttack off the columns is a 422 before any die', () => {
    const units = [
      { unitId: 'a', side: 'allied', kind: 'infantry', quality: 'veteran', maxLp: 8, attack: 10 },
      { unitId: 'd', side: 'axis', kind: 'infantry', quality: 'veteran', maxLp: 8, defence: 2 },
    ];
    refused(given([], { units }), ['allied', 'DeclareAttack', { attackId: 'x', targetHex: 'h', attackers: [{ unitId: 'a', hex: 'g' }], defenders: ['d'], terrain: 'marshes' }], /left of the first column \(6:1\)/);
  });
});

describe('tables a game brings', () => {
  it('are validated by arbiter-table/1: a malformed table fails the options with a path naming the table and the cell', () => {
    const broken = structuredClone(TEST_TABLES);
    broken.combat.cells[3][4] = 'ZZ';
    expect(issuePaths({ tables: broken })).toEqual(['tables.combat.cells.3.4']);
    const message = parseOptions({ tables: broken }).error!.issues[0].message;
    expect(message).toMatch(/"ZZ" is not a code of results/);
    const short = structuredClone(TEST_TABLES);
    short.bombardment.cells[0].pop();
    expect(issuePaths({ tables: short })).toContain('tables.bombardment.cells.0');
  });

  it('must fit their role: ratio columns and 2d6 for combat, thresholds for bombardment and support, support without dice, the effects each reads', () => {
    const wrong = structuredClone(TEST_TABLES) as any;
    wrong.combat.columns.landing = 'defender';
    wrong.support.dice = '2d6';
    wrong.support.rows = [{ atMost: 7 }, { atLeast: 8 }];
    wrong.support.rowsOffTable = 'clamp';
    wrong.support.cells = [wrong.support.cells[0], wrong.support.cells[0]];
    wrong.bombardment.results[2].effects = [{ effect: 'disrupted', side: 'defender', value: 1 }];
    wrong.combat.results[0].effects.push({ effect: 'retreat', side: 'attacker', value: 1 });
    expect(issuePaths({ tables: wrong }).sort()).toEqual(
      ['tables.bombardment.results.2.effects.0.effect', 'tables.combat.columns.landing', 'tables.combat.results.0.effects.2.side', 'tables.support.dice'].sort(),
    );
    // The combat table as the bombardment table, with only the effects a bombardment table reads: its columns are the wrong kind.
    const lossesOnly = { ...TEST_TABLES.combat, results: TEST_TABLES.combat.results.map((r) => ({ ...r, effects: r.effects.filter((e) => e.effect === 'loss' && e.side === 'defender') })) };
    const ratioBombardment = { ...TEST_TABLES, bombardment: lossesOnly };
    expect(issuePaths({ tables: ratioBombardment })).toContain('tables.bombardment.columns.kind');
  });

  it('come all three, or none (the bundled ones): a game never mixes in tables it did not record', () => {
    expect(issuePaths({ tables: { combat: TEST_TABLES.combat } }).sort()).toEqual(['tables.bombardment', 'tables.support']);
    expect(parseOptions({ tables: TEST_TABLES }).success).toBe(true);
  });

  it('terrain and commanders are data too, with unique names', () => {
    expect(issuePaths({ terrain: [{ terrain: 'marshes', c: 2 }, { terrain: 'marshes', c: 1 }] })).toEqual(['terrain.1.terrain']);
    expect(issuePaths({ commanders: [{ commander: 'Rommel' }, { commander: 'Rommel' }] })).toEqual(['commanders.1.commander']);
    expect(issuePaths({ units: [{ unitId: 'c', side: 'axis', kind: 'commander', quality: 'elite', maxLp: 2, commander: 'Nobody' }] })).toEqual(['units.0.commander']);
  });
});

describe('the published options of wars-and-battles', () => {
  it('name the effects each table reads, so that the JSON Schema allows exactly what the ruleset takes', async () => {
    const { rulesetEntry } = await import('../../../../functions/http/catalogue');
    const { warsAndBattlesRuleset } = await import('../../../../domain/rulesets/warsandbattles');
    const tables = (rulesetEntry(warsAndBattlesRuleset).options as any).properties.tables.properties;
    const effectsOf = (role: string) => tables[role].properties.results.items.properties.effects.items.properties.effect.enum;
    expect(effectsOf('combat')).toEqual(['loss', 'retreat', 'not-in-source']);
    expect(effectsOf('bombardment')).toEqual(['loss', 'not-in-source']);
    expect(effectsOf('support')).toEqual(['modifier', 'not-in-source']);
  });
});
