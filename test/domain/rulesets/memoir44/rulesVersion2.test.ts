import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RuleViolation } from '../../../../domain/errors';
import type { Commit } from '../../../../domain/fairness/hashChain';
import { memoir44Ruleset } from '../../../../domain/rulesets/memoir44';
import type { ExportBundle } from '../../../../domain/verify/exportBundle';
import { verifyExport } from '../../../../domain/verify/verifyExport';
import { evaluateProcedure } from '../../../../functions/application/evaluate';
import { harness, type Step } from '../../../support/rulesetHarness';

const { given, apply, refused } = harness(memoir44Ruleset);
const current = { rulesVersion: 2 };
const unit = (unitId: string, type: string, figures: number, extra: Record<string, unknown> = {}) => ({ unitId, type, figures, ...extra });
const battle = (attacker: object, target: object, range = 1, extra: Record<string, unknown> = {}) => ({ attacker, target, range, ...extra });
const tanks = unit('7th Armored', 'armor', 3);
/** 7th Armored (6 dice, 4+) eliminates two grenadiers in close assault. */
const assault: Step = ['allies', 'Battle', battle(tanks, unit('Grenadiers', 'infantry', 2)), [6, 6, 5, 5, 2, 2]];
const takeGround = (unitId = '7th Armored'): Step => ['allies', 'TakeGround', { unitId }];
const procedure = (input: object, dice: number[], options?: object) => evaluateProcedure('memoir44-d6', { procedure: 'battle', input, dice, ...(options ? { options } : {}) });

describe("Memoir '44 d6: the overrun", () => {
  it('"still can perform an overrun": armor that took ground after its close assault battles once more, and the events say so', () => {
    const took = apply(given([assault], current), takeGround());
    expect(took.events).toEqual([{ type: 'GroundTaken', data: { side: 'allies', unitId: '7th Armored', targetId: 'Grenadiers', mayOverrun: true } }]);
    expect(memoir44Ruleset.summarize({ type: 'TakeGround', payload: {} }, took.events)).toBe('7th Armored takes ground from Grenadiers; it may battle again (overrun)');

    const overrun = apply(took.state, ['allies', 'Battle', battle(tanks, unit('Pioneers', 'infantry', 4), 2), [4, 4, 1, 2, 3, 3]]);
    expect(overrun.events[0].data).toMatchObject({ attacker: { unitId: '7th Armored' }, target: { unitId: 'Pioneers' }, overrun: true, hits: 2, flags: 1 });
    expect(memoir44Ruleset.summarize({ type: 'Battle', payload: {} }, overrun.events)).toBe('7th Armored -> Pioneers (overrun, range 2): 4 4 1 2 3 3 -> 2 hits, 1 flag');
    expect(memoir44Ruleset.present(overrun.state)).toEqual({ turn: 1, activeSide: 'allies', battledThisTurn: ['7th Armored'] });
    // A first battle records no overrun field at all, as battles did before the overrun existed.
    expect(apply(given([], current), assault).events[0].data).not.toHaveProperty('overrun');
  });

  it('"A unit may only battle once per turn": no second battle without taking ground, after a fire, for infantry, or after the overrun', () => {
    refused(given([assault], current), ['allies', 'Battle', battle(tanks, unit('Pioneers', 'infantry', 4)), [6, 6, 6, 6, 6, 6]], /^7th Armored already battled this turn\.$/);

    const fired = given([['allies', 'Battle', battle(tanks, unit('Grenadiers', 'infantry', 2), 2), [6, 6, 5, 5, 2, 2]]], current);
    refused(fired, takeGround(), /its battle was not a close assault that eliminated Grenadiers or rolled a flag/);
    const held = given([['allies', 'Battle', battle(tanks, unit('Grenadiers', 'infantry', 4)), [6, 2, 2, 3, 3, 2]]], current);
    refused(held, takeGround(), /was not a close assault that eliminated Grenadiers or rolled a flag/);
    refused(given([], current), takeGround(), /7th Armored can't take ground: it has not battled this turn/);
    refused(given([assault, ['allies', 'Battle', battle(unit('1st Inf', 'infantry', 4), unit('MG 42', 'infantry', 2), 2), [1, 1, 1, 1]]], current), takeGround(), /another battle has been fought since its own/);
    refused(given([assault, takeGround()], current), takeGround(), /already took ground after this battle/);
    refused(given([assault, ['allies', 'EndTurn']], current), ['axis', 'TakeGround', { unitId: '7th Armored' }], /it has not battled this turn/);

    // Infantry takes ground, but only armor and cavalry overrun.
    const infantry = unit('1st Inf', 'infantry', 4);
    const infantryTook = apply(given([['allies', 'Battle', battle(infantry, unit('MG 42', 'infantry', 1)), [4, 2, 2, 2]]], current), takeGround('1st Inf'));
    expect(infantryTook.events[0].data).toMatchObject({ mayOverrun: false });
    refused(infantryTook.state, ['allies', 'Battle', battle(infantry, unit('Pioneers', 'infantry', 4)), [6, 6, 6, 6]], /^1st Inf already battled this turn\.$/);

    // After its overrun a unit may take ground again, but not battle a third time.
    const overran = given([assault, takeGround(), ['allies', 'Battle', battle(tanks, unit('Pioneers', 'infantry', 1)), [6, 2, 2, 2, 2, 2]]], current);
    expect(apply(overran, takeGround()).events[0].data).toMatchObject({ targetId: 'Pioneers', mayOverrun: false });
    refused(apply(overran, takeGround()).state, ['allies', 'Battle', battle(tanks, unit('Flak', 'infantry', 2)), [6, 6, 6, 6, 6, 6]], /already battled this turn/);
    refused(given([assault, takeGround()], current), ['allies', 'Battle', battle(unit('7th Armored', 'infantry', 3), unit('Pioneers', 'infantry', 4)), [6, 6, 6]], /battled as armor this turn/);

    // A new turn, a new battle.
    const nextTurn = given([assault, ['allies', 'EndTurn'], ['axis', 'EndTurn']], current);
    expect(apply(nextTurn, assault).events[0].data).not.toHaveProperty('overrun');
  });

  it('"treated as INFANTRY for order, but like ARMOR for movement and combat … can perform an overrun": cavalry overruns too', () => {
    const uhlans = unit('Uhlans', 'cavalry', 3);
    const charged = given([['allies', 'Battle', battle(uhlans, unit('Grenadiers', 'infantry', 1)), [5, 2, 2]], takeGround('Uhlans')], current);
    expect(apply(charged, ['allies', 'Battle', battle(uhlans, unit('Pioneers', 'infantry', 4)), [6, 1, 2]]).events[0].data).toMatchObject({ overrun: true, hits: 1, flags: 1 });
  });
});

describe("Memoir '44 d6, rules version 2 (issue 19)", () => {
  const cavalryTarget = battle(unit('Rangers', 'infantry', 4), unit('Uhlans', 'cavalry', 3));

  it('"like ARMOR for movement and combat": a cavalry target gets the armor defensive roll', () => {
    const { events } = apply(given([], current), ['allies', 'Battle', cavalryTarget, [6, 6, 6, 6, 5, 6, 1]]);
    expect(events[0].data).toMatchObject({ hits: 4, cancelled: 2, figuresLost: 2, eliminated: false, breakdown: { defensiveRolls: [5, 6, 1] } });
    expect(procedure(cavalryTarget, [6, 6, 6, 6, 5, 6, 1]).result).toEqual({ hits: 4, flags: 0, cancelled: 2, figuresLost: 2, eliminated: false });
    // Version 1, as first published: no defensive roll for cavalry.
    const first = apply(given([]), ['allies', 'Battle', cavalryTarget, [6, 6, 6, 6]]);
    expect(first.events[0].data).toMatchObject({ hits: 4, cancelled: 0, figuresLost: 3, eliminated: true, breakdown: { defensiveRolls: [] } });
  });

  it('"determined by the number of figures in it": figures are bounded by unit type — infantry 4, armor 3 (special 4), artillery 2, cavalry 4, sniper 1; 422 above, 400 outside 1..6', () => {
    const clear = unit('Grenadiers', 'infantry', 4);
    const fire = (attacker: object, target: object = clear): Step => ['allies', 'Battle', battle(attacker, target, 2), Array(16).fill(6)];
    refused(given([], current), fire(unit('Big Armor', 'armor', 6)), /^Big Armor has 6 figures: armor has at most 3 \(special armor 4\)\.$/);
    refused(given([], current), fire(unit('Tigers', 'armor', 5, { special: true })), /^Tigers has 5 figures: special armor has at most 4\.$/);
    refused(given([], current), fire(unit('Long Toms', 'artillery', 3)), /Long Toms has 3 figures: artillery has at most 2/);
    refused(given([], current), fire(unit('1st Inf', 'infantry', 5)), /1st Inf has 5 figures: infantry has at most 4/);
    refused(given([], current), fire(unit('Uhlans', 'cavalry', 5)), /Uhlans has 5 figures: cavalry has at most 4/);
    refused(given([], current), fire(unit('1st Inf', 'infantry', 4), unit('Panthers', 'armor', 4)), /Panthers has 4 figures: armor has at most 3/);
    for (const ok of [unit('Tigers', 'armor', 4, { special: true }), unit('Shermans', 'armor', 3), unit('Long Toms', 'artillery', 2), unit('Uhlans', 'cavalry', 4), unit('1st Inf', 'infantry', 4, { special: true })]) {
      expect(apply(given([], current), fire(ok)).events[0].type).toBe('BattleFought');
    }
    // Version 1, as first published: no bound but the command's 1..6.
    expect(apply(given([]), fire(unit('Big Armor', 'armor', 6))).events[0].data).toMatchObject({ breakdown: { dice: 12 } });
    expect(() => procedure(battle({ type: 'armor', figures: 6 }, { type: 'infantry', figures: 4 }, 2), Array(16).fill(6))).toThrow(RuleViolation);
    expect(() => procedure(battle({ type: 'armor', figures: 6 }, { type: 'infantry', figures: 4 }, 2), Array(16).fill(6))).toThrow('The attacker has 6 figures: armor has at most 3 (special armor 4).');

    // Outside what any unit has, or a sniper of more than one figure: malformed (400, naming the field).
    for (const [attacker, path] of [[unit('Big Armor', 'armor', 7), ['attacker', 'figures']], [unit('Sniper', 'sniper', 2), ['attacker', 'figures']]] as const) {
      const parsed = memoir44Ruleset.commands.Battle.schema.safeParse(battle(attacker, clear, 2));
      expect(parsed.error?.issues[0].path).toEqual(path);
    }
  });
});

describe("Memoir '44 d6 games recorded before rules version 2", () => {
  const fixture = JSON.parse(readFileSync(new URL('./fixtures/game-before-issue-19.json', import.meta.url), 'utf8')) as { trusted: string; bundle: ExportBundle };
  const commits: Commit[] = fixture.bundle.commits;
  const [bigArmor, cavalryBattle] = commits.slice(1, 3).map((c): Step => [c.actor, c.command.type, c.command.payload, c.dice.map((d) => d.value)]);

  it('a game exported before issue 19, with 6-figure armor rolling 12 dice and a cavalry target without a defensive roll, still verifies', () => {
    expect(commits[0].events[0].data.options).toEqual({ firstSide: 'allies' });
    expect(commits[1].events[0].data).toMatchObject({ attacker: { figures: 6 }, breakdown: { dice: 12 } });
    expect(commits[2].events[0].data).toMatchObject({ target: { type: 'cavalry' }, hits: 3, breakdown: { defensiveRolls: [] } });
    expect(verifyExport(fixture.bundle, { trusted: [fixture.trusted] })).toMatchObject({ ok: true, exitCode: 0, rulesReplayed: commits.length, failures: [] });
  });

  it('the same battles in a version 2 game: the armor is refused, and the cavalry rolls defensive dice the old record does not have', () => {
    refused(given([], current), bigArmor, /Big Armor has 6 figures/);
    refused(given([], current), cavalryBattle, /needs at least 6 dice/, 'insufficient_dice');
    expect(memoir44Ruleset.options.parse({})).not.toHaveProperty('rulesVersion');
  });
});
