import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';
import { allocateLosses } from '../../../../domain/rulesets/warsandbattles/allocation';
import { fightModifiers, type Fight } from '../../../../domain/rulesets/warsandbattles/combat';
import { apply, declaration, FIGHT_DATA, given, options, plainFight, TEST_COMBAT_TABLE, unitOf } from './harness';

const data = FIGHT_DATA;
const fight = plainFight;
const shifts = (over: Partial<Fight>) => fightModifiers(fight(over), data).shifts.filter((s) => !s.source.startsWith('terrain:'));

describe('the combat ratio (§7.3.2)', () => {
  const ratio = (attack: number, defence: number) => {
    const spec = warsAndBattlesRuleset.procedures.combat;
    const input = spec.input.parse({ attackerSide: 'allied', attackers: [{ kind: 'other', attack }], defenders: [{ kind: 'other', defence }], terrain: 'open', terrainTable: [{ terrain: 'open', c: 0 }], tables: { combat: TEST_COMBAT_TABLE } });
    return (spec.evaluate(input, warsAndBattlesRuleset.options.parse({}), new GivenDice([1, 1])).result as { ratio: string }).ratio;
  };

  it('reduces to n:1 or 1:n and rounds to the nearest, an exact half in the defender\'s favour (ruling)', () => {
    expect([ratio(13, 2), ratio(5, 2), ratio(11, 4), ratio(7, 3), ratio(9, 2)]).toEqual(['6:1', '2:1', '3:1', '2:1', '4:1']);
    expect([ratio(2, 5), ratio(4, 9), ratio(3, 7), ratio(3, 8)]).toEqual(['1:3', '1:2', '1:2', '1:3']);
    expect(ratio(4, 4)).toBe('1:1');
  });
});

describe('C and L modifiers (§7.4): every source, cumulative', () => {
  it('divisional integrity: +1 for the attacker, -1 for the defender, when every unit of a division fights', () => {
    expect(shifts({ divisionalIntegrity: { attacker: true, defender: true } })).toEqual([
      { source: 'divisional integrity (attacker)', value: 1 },
      { source: 'divisional integrity (defender)', value: -1 },
    ]);
  });

  it('combined arms: tanks and infantry stacked, in one attacking hex or in the defending stack', () => {
    const together = [{ kind: 'armored' as const, value: 8, hex: 'a' }, { kind: 'infantry' as const, value: 4, hex: 'a' }];
    expect(shifts({ attackers: together })).toEqual([{ source: 'combined arms (attacker)', value: 1 }]);
    expect(shifts({ attackers: [together[0], { ...together[1], hex: 'b' }] })).toEqual([]);
    expect(shifts({ defenders: [{ kind: 'armored', value: 4 }, { kind: 'infantry', value: 2 }] })).toEqual([{ source: 'combined arms (defender)', value: -1 }]);
    expect(shifts({ attackers: [{ kind: 'mechanized', value: 6, hex: 'a' }, { kind: 'armored', value: 6, hex: 'a' }] })).toEqual([]);
  });

  it('terrain from the data: the hex and what the attack crosses; an unknown terrain is refused', () => {
    expect(fightModifiers(fight({ terrain: 'marshes', across: ['river'] }), data).shifts).toEqual([
      { source: 'terrain: marshes', value: -2 },
      { source: 'across: river', value: -1 },
    ]);
    expect(() => fightModifiers(fight({ terrain: 'lava' }), data)).toThrow(/The terrain table has no "lava" \(the attacked hex\); its terrain: "clear", "hedgerows", "bocage", "marshes", "river"\./);
  });

  it('commanders from the data: C and L for the side they fight on', () => {
    const m = fightModifiers(fight({ attackers: [{ kind: 'commander', value: 0, commander: 'Bradley' }], defenders: [{ kind: 'infantry', value: 2 }, { kind: 'commander', value: 0, commander: 'Rommel' }] }), data);
    expect(m.shifts.slice(1)).toEqual([
      { source: 'commander Bradley (attacker)', value: 1 },
      { source: 'commander Rommel (defender)', value: -1 },
    ]);
    const defending = fightModifiers(fight({ defenders: [{ kind: 'commander', value: 1, commander: 'Bradley' }] }), data);
    expect(defending.modifiers).toEqual([{ source: 'commander Bradley (defender)', value: -1 }]);
  });

  it('Tiger: +1 column when the Axis attacks with one (ruling: C1), not when it defends', () => {
    expect(shifts({ attackerSide: 'axis', attackers: [{ kind: 'armored', value: 10, tiger: true }] })).toEqual([{ source: 'Tiger attacking', value: 1 }]);
    expect(shifts({ attackerSide: 'allied', defenders: [{ kind: 'armored', value: 6, tiger: true }] })).toEqual([]);
    expect(shifts({ attackerSide: 'allied', attackers: [{ kind: 'armored', value: 10, tiger: true }] })).toEqual([]);
  });

  it('Cherbourg: -1 for an Allied attack in its area, -3 on the city (ruling: C, the city\'s -3 in place of the area\'s -1); nothing for the Axis', () => {
    expect(shifts({ cherbourg: 'area' })).toEqual([{ source: 'Cherbourg area (Allied attack)', value: -1 }]);
    expect(shifts({ cherbourg: 'city' })).toEqual([{ source: 'Cherbourg city (Allied attack)', value: -3 }]);
    expect(shifts({ cherbourg: 'city', attackerSide: 'axis' })).toEqual([]);
  });

  it('clear terrain against all-infantry defenders: +2 with any armored attacker, else +1 with any mechanized', () => {
    const clear = { terrain: 'clear' };
    expect(shifts({ ...clear, attackers: [{ kind: 'infantry', value: 4 }, { kind: 'armored', value: 8, hex: 'b' }, { kind: 'mechanized', value: 6 }] })).toEqual([{ source: 'clear terrain: armored attacker against infantry', value: 2 }]);
    expect(shifts({ ...clear, attackers: [{ kind: 'mechanized', value: 6 }] })).toEqual([{ source: 'clear terrain: mechanized attacker against infantry', value: 1 }]);
    expect(shifts({ ...clear, attackers: [{ kind: 'mechanized', value: 6 }], defenders: [{ kind: 'infantry', value: 2 }, { kind: 'mechanized', value: 2 }] })).toEqual([]);
    expect(shifts({ terrain: 'bocage', attackers: [{ kind: 'armored', value: 8 }] })).toEqual([]);
  });

  it('add up without limit: 24:6 = 4:1; +1 divisions, +1 and -1 combined arms, -2 marshes, +1 Bradley, -1 Cherbourg area = -1: 3:1; 20 support points L4', () => {
    const state = given([], options());
    const { events } = apply(state, [
      'allied',
      'DeclareAttack',
      declaration('big', {
        attackers: [{ unitId: 'us-inf-1', hex: 'h' }, { unitId: 'us-inf-2', hex: 'h' }, { unitId: 'us-arm', hex: 'h' }, { unitId: 'us-arm-2', hex: 'h' }, { unitId: 'bradley', hex: 'h' }],
        defenders: ['pz-iv', 'gr-916'],
        terrain: 'marshes',
        cherbourg: 'area',
        support: [{ unitId: 'us-art', points: 5 }, { unitId: 'us-ship', points: 5 }, { unitId: 'us-air', points: 10 }],
      }),
    ]);
    const declared = events.find((e) => e.type === 'AttackDeclared')!.data as Record<string, any>;
    expect(declared.ratio).toEqual({ attack: 24, defence: 6 });
    expect(declared.divisionalIntegrity).toEqual({ attacker: ['29th', '2nd Armored'], defender: [] });
    expect(declared.shifts.map((s: { value: number }) => s.value)).toEqual([1, 1, -1, -2, 1, -1]);
    expect(declared.modifiers).toEqual([{ source: 'support (20 points)', value: 4 }]);
    expect(declared.landing).toMatchObject({ rounded: '4:1', landedColumn: { label: '4:1' }, shifts: { total: -1 }, column: { label: '3:1' } });
  });
});

describe('support (§7.4.4)', () => {
  it('the calculator refuses more than 3 support units too, before any die', () => {
    const spec = warsAndBattlesRuleset.procedures.support;
    const dice = new GivenDice([]);
    expect(() => spec.evaluate(spec.input.parse({ support: [1, 2, 3, 4].map((points) => ({ points })) }), warsAndBattlesRuleset.options.parse({}), dice)).toThrow(/^A fight takes at most 3 support units; this one has 4\.$/);
    expect(spec.evaluate(spec.input.parse({ support: [{ points: 5 }, { points: 5 }, { points: 5 }] }), warsAndBattlesRuleset.options.parse({}), dice).result).toEqual({ points: 15, bonus: 3, code: 'L3' });
  });
});

describe('loss points (§7.3.4): the most powerful, a random one, the second most powerful, a random one, …', () => {
  const units = [
    { unitId: 'weak', value: 2, lp: 8 },
    { unitId: 'strong', value: 6, lp: 8 },
    { unitId: 'middle', value: 4, lp: 8 },
  ];

  it('with chosen dice: the odd LP down the ranking, the even ones by a die over the units standing', () => {
    const dice = new GivenDice([3, 1, 2]);
    const allocation = allocateLosses(units, 6, dice);
    expect(allocation.ranking).toEqual([1, 2, 0]);
    expect(allocation.picks.map((p) => [p.lp, p.rule, p.rank ?? p.die?.value, p.unitId])).toEqual([
      [1, 'most-powerful', 1, 'strong'],
      [2, 'random', 3, 'weak'],
      [3, 'most-powerful', 2, 'middle'],
      [4, 'random', 1, 'strong'],
      [5, 'most-powerful', 3, 'weak'],
      [6, 'random', 2, 'middle'],
    ]);
    expect(dice.drawn).toEqual([{ sides: 3, value: 3 }, { sides: 3, value: 1 }, { sides: 3, value: 2 }]);
    expect(allocation.units.map((u) => u.lpAfter)).toEqual([6, 6, 6]);
  });

  it('ties rank by more LP, then by the order given (ruling); a rank whose unit is gone passes to the next standing; no die for one unit', () => {
    expect(allocateLosses([{ value: 4, lp: 3 }, { value: 4, lp: 5 }, { value: 4, lp: 5 }], 0, new GivenDice([])).ranking).toEqual([1, 2, 0]);
    const dice = new GivenDice([2, 1]);
    const allocation = allocateLosses([{ unitId: 'a', value: 6, lp: 1 }, { unitId: 'b', value: 4, lp: 2 }, { unitId: 'c', value: 2, lp: 1 }], 5, dice);
    expect(allocation.picks.map((p) => [p.rule, p.unitId, p.die?.sides])).toEqual([
      ['most-powerful', 'a', undefined],
      ['random', 'c', 2],
      ['most-powerful', 'b', undefined],
      ['random', 'b', undefined],
    ]);
    expect(allocation.unallocated).toBe(1);
    expect(dice.drawn).toEqual([{ sides: 2, value: 2 }]);
  });

  it('wrap round after the least powerful: the 7th LP of three units goes to the most powerful again', () => {
    const allocation = allocateLosses(units, 7, new GivenDice([1, 1, 1]));
    expect(allocation.picks[6]).toMatchObject({ lp: 7, rule: 'most-powerful', rank: 1, unitId: 'strong' });
  });

  it('in a game: the 2d6 first, then the attacker\'s picks, then the defender\'s, each die recorded', () => {
    // 8:6 → 1:1, roll 2: the attacker loses 4 LP, the defender 0 (test table: 8 - 2 - 2, 2 + 2 - 6).
    const state = given([['allied', 'DeclareAttack', declaration('a', { attackers: [{ unitId: 'us-inf-1', hex: 'h' }, { unitId: 'us-mech', hex: 'i' }], defenders: ['pz-iv', 'gr-916'] })]], options());
    const dice = [1, 1, 2, 1];
    const { events, state: after } = apply(state, ['allied', 'ResolveAttack', { attackId: 'a' }, dice]);
    const losses = events.find((e) => e.type === 'LossesAllocated')!.data;
    expect(losses).toMatchObject({ side: 'attacker', losses: 4, ranking: ['us-mech', 'us-inf-1'] });
    expect(losses.picks).toEqual([
      { lp: 1, rule: 'most-powerful', rank: 1, unitId: 'us-mech' },
      { lp: 2, rule: 'random', die: { sides: 2, value: 2 }, unitId: 'us-inf-1' },
      { lp: 3, rule: 'most-powerful', rank: 2, unitId: 'us-inf-1' },
      { lp: 4, rule: 'random', die: { sides: 2, value: 1 }, unitId: 'us-mech' },
    ]);
    expect([unitOf(after, 'us-mech').lp, unitOf(after, 'us-inf-1').lp]).toEqual([6, 6]);
  });
});

describe('retreat (§7.3.5)', () => {
  // 4:2 → 2:1 on the test table; roll 9: 3 + 9 - 6 = 6 LP for the defender, with a retreat.
  const resolved = (retreats: unknown[], over: Record<string, unknown> = {}) => {
    const state = given([['allied', 'DeclareAttack', declaration('a', { defenders: ['gr-916', 'rommel'] })]], options(over));
    return apply(state, ['allied', 'ResolveAttack', { attackId: 'a', retreats }, [4, 5, 1, 1, 1]]);
  };

  it('into an open hex costs no LP; into an enemy zone of control costs LP (ruling: 1, the zocRetreatLoss option); nowhere to go: surrender', () => {
    const open = resolved([]);
    expect(open.events.filter((e) => e.type === 'UnitRetreated').map((e) => e.data)).toEqual([
      { attackId: 'a', unitId: 'gr-916', route: 'open', lpLost: 0, lpAfter: unitOf(open.state, 'gr-916').lp },
      { attackId: 'a', unitId: 'rommel', route: 'open', lpLost: 0, lpAfter: unitOf(open.state, 'rommel').lp },
    ]);
    const zoc = resolved([{ unitId: 'gr-916', route: 'enemy-zoc' }], { zocRetreatLoss: 2 });
    expect(zoc.events.find((e) => e.type === 'UnitRetreated')!.data).toMatchObject({ unitId: 'gr-916', route: 'enemy-zoc', lpLost: 2 });
    const trapped = resolved([{ unitId: 'gr-916', route: 'none' }]);
    expect(trapped.events.find((e) => e.type === 'UnitSurrendered')!.data).toEqual({ unitId: 'gr-916', reason: 'no-retreat' });
    expect(unitOf(trapped.state, 'gr-916')).toMatchObject({ lp: 0, out: 'surrendered' });
    expect(warsAndBattlesRuleset.summarize({ type: 'ResolveAttack', payload: {} }, trapped.events)).toMatch(/; 1 surrendered$/);
  });

  it('costs 10 energy besides the fight\'s 15 and 1 a LP', () => {
    const zoc = resolved([{ unitId: 'gr-916', route: 'enemy-zoc' }]);
    const gr = zoc.events.find((e) => e.type === 'FatigueGained' && e.data.unitId === 'gr-916')!.data;
    const lost = zoc.events.filter((e) => e.type === 'LossesAllocated').flatMap((e) => e.data.units as { unitId: string; lost: number }[]).find((u) => u.unitId === 'gr-916')?.lost ?? 0;
    expect(gr.causes).toEqual([{ cause: 'fight', points: 15 }, { cause: 'lp-lost', points: lost + 1 }, { cause: 'retreat', points: 10 }]);
  });

  it('names only the attack\'s defenders, once each', () => {
    const state = given([['allied', 'DeclareAttack', declaration('a')]], options());
    expect(() => apply(state, ['allied', 'ResolveAttack', { attackId: 'a', retreats: [{ unitId: 'pz-iv', route: 'none' }] }, [1, 1]])).toThrow(/pz-iv is not one of the defenders of attack a/);
    expect(() => apply(state, ['allied', 'ResolveAttack', { attackId: 'a', retreats: [{ unitId: 'gr-916', route: 'none' }, { unitId: 'gr-916', route: 'open' }] }, [1, 1]])).toThrow(/named twice/);
  });
});
