import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';
import { fightModifiers, type Fight } from '../../../../domain/rulesets/warsandbattles/combat';
import { EXAMPLE_TERRAIN } from '../../../../domain/rulesets/warsandbattles/exampleTables';
import { RULE } from '../../../../domain/rulesets/warsandbattles/rules';
import { equalLpBands } from '../../../../domain/rulesets/warsandbattles/unitStatus';
import { combatValueOf, statusLevel } from '../../../../domain/rulesets/warsandbattles/units';
import type { WarsAndBattlesState } from '../../../../domain/rulesets/warsandbattles/state';
import { apply, declaration, endBothImpulses, FIGHT_DATA, given, options, plainFight, refused, TEST_COMBAT_TABLE, TEST_COMMANDERS, TEST_TABLES, TEST_TERRAIN, unitOf, type Step } from './harness';

/** Rules version 2 (issue 31): the harness builds games from the options schema, so each game here asks for it. */
const v2 = (over: Record<string, unknown> = {}) => options({ rulesVersion: 2, ...over });
const v1 = (over: Record<string, unknown> = {}) => options(over);

function refusedBy(state: WarsAndBattlesState, step: Step, message: RegExp, rule: string) {
  refused(state, step, message);
  let error: unknown;
  try {
    apply(state, step);
  } catch (e) {
    error = e;
  }
  expect((error as { rule?: string }).rule).toBe(rule);
}

const declared = (attackId: string, extra: Record<string, unknown> = {}): Step => ['allied', 'DeclareAttack', declaration(attackId, extra)];
const shiftsOf = (events: { type: string; data: unknown }[]) => (events.find((e) => e.type === 'AttackDeclared')!.data as { shifts: { source: string; value: number }[] }).shifts;

describe('status follows LP (3.2: "When the LP decrease, the State of the unit also decreases")', () => {
  /** One Allied armored unit against an Axis infantry unit whose values differ at each level. */
  const duel = (defender: Record<string, unknown>, over: Record<string, unknown> = {}) => ({
    units: [
      { unitId: 'arm', side: 'allied', kind: 'armored', quality: 'veteran', maxLp: 8, attack: 8, defence: 4 },
      { unitId: 't', side: 'axis', kind: 'infantry', quality: 'veteran', maxLp: 8, attack: [1, 2, 3, 4], defence: [1, 2, 3, 4], ...defender },
    ],
    tables: TEST_TABLES,
    terrain: TEST_TERRAIN,
    ...over,
  });
  // 8 against 4 is 2:1; a roll of 7 on the test table costs the defender 3 + 7 - 6 = 4 LP, no retreat, the attacker 0.
  const fight: Step[] = [
    ['allied', 'DeclareAttack', { attackId: 'a', targetHex: 'h', attackers: [{ unitId: 'arm', hex: 'g' }], defenders: ['t'], terrain: 'hedgerows' }],
    ['allied', 'ResolveAttack', { attackId: 'a' }, [3, 4]],
  ];

  it('the ruling\'s bands: four equal bands of the maximum LP, cell by cell', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 12, 16].map((maxLp) => [maxLp, equalLpBands(maxLp)])).toEqual([
      [1, [1, 1, 1]],
      [2, [1, 2, 2]],
      [3, [1, 2, 3]],
      [4, [2, 3, 4]],
      [5, [2, 3, 4]],
      [6, [2, 4, 5]],
      [7, [2, 4, 6]],
      [8, [3, 5, 7]],
      [12, [4, 7, 10]],
      [16, [5, 9, 13]],
    ]);
    const levels = [1, 2, 3, 4, 5, 6, 7, 8].map((lp) => statusLevel(unitOf(given([], { ...duel({ lp }), rulesVersion: 2 }), 't')));
    expect(levels).toEqual([1, 1, 2, 2, 3, 3, 4, 4]);
  });

  it('a unit that loses LP loses status, and its attack and defence with it, without statusLp (3.2)', () => {
    const state = given(fight, { ...duel({}), rulesVersion: 2 });
    const t = unitOf(state, 't');
    expect([t.lp, statusLevel(t), combatValueOf(t, 'attack'), combatValueOf(t, 'defence')]).toEqual([4, 2, 2, 2]);
    const view = warsAndBattlesRuleset.present(state) as { units: { unitId: string; status: number; attack: number; defence: number }[] };
    expect(view.units.find((u) => u.unitId === 't')).toMatchObject({ lp: 4, status: 2, attack: 2, defence: 2 });
  });

  it('replenished LP bring the level back', () => {
    const state = given([...fight, ['allied', 'EndImpulse'], ['axis', 'Replenish', { units: [{ unitId: 't', lp: 3 }] }]], { ...duel({}), rulesVersion: 2, replenishment: { allied: true, axisPointsPerTurn: 5 } });
    expect(statusLevel(unitOf(state, 't'))).toBe(4);
  });

  it('the game\'s statusLp stays its explicit data; status is the highest level LP give', () => {
    expect(statusLevel(unitOf(given([], { ...duel({ statusLp: [2, 3, 8], lp: 7 }), rulesVersion: 2 }), 't'))).toBe(3);
    expect(statusLevel(unitOf(given([], { ...duel({ status: 3 }), rulesVersion: 2 }), 't'))).toBe(3);
    expect(statusLevel(unitOf(given([], { ...duel({ status: 3, lp: 4 }), rulesVersion: 2 }), 't'))).toBe(2);
  });

  it('fatigue surrender is reachable in an ordinary game (8.4.3): LP down to level 1 and fatigue past the threshold', () => {
    // 6 LP (level 3, defence 3): 8 against 3 is 3:1, a roll of 6 costs 4 LP and leaves 2 (level 1); 15 + 4 fatigue leave 41 energy, below the veteran's 50.
    const { events, state } = apply(given([fight[0]], { ...duel({ lp: 6, energy: 60 }), rulesVersion: 2 }), ['allied', 'ResolveAttack', { attackId: 'a' }, [3, 3]]);
    expect(events.find((e) => e.type === 'UnitSurrendered')!.data).toEqual({ unitId: 't', reason: 'fatigue', energy: 41, threshold: 50 });
    expect(unitOf(state, 't').out).toBe('surrendered');
  });

  it('version 1: a unit keeps the status it was created with, whatever its LP', () => {
    const state = given(fight, duel({}));
    const t = unitOf(state, 't');
    expect([t.lp, statusLevel(t), combatValueOf(t, 'defence')]).toEqual([4, 4, 4]);
    const tired = apply(given([fight[0]], duel({ lp: 6, energy: 60 })), fight[1]);
    expect(tired.events.map((e) => e.type)).toContain('StatusLevelLost');
    expect(tired.events.map((e) => e.type)).not.toContain('UnitSurrendered');
  });
});

describe('Tigers and commanders defend with their bonus (10.1.1 "Unit bonus: … an attack and defense bonus")', () => {
  const onTiger = (over: Record<string, unknown>) => apply(given([], over), declared('a', { attackers: [{ unitId: 'us-arm', hex: 'g' }], defenders: ['tiger'] })).events;

  it('a Tiger defending shifts the ratio one column to the defender (10.1.1)', () => {
    expect(shiftsOf(onTiger(v2()))).toContainEqual({ source: 'Tiger defending', value: -1 });
    expect(shiftsOf(onTiger(v1())).map((s) => s.source)).not.toContain('Tiger defending');
  });

  it('once per fight, however many Tigers (ruling), and an attacking Tiger keeps its C1', () => {
    const units = [...options().units, { unitId: 'tiger-2', side: 'axis', kind: 'armored', quality: 'elite', maxLp: 4, attack: 10, defence: 6, tiger: true }];
    const both = apply(given([], v2({ units })), declared('a', { attackers: [{ unitId: 'us-arm', hex: 'g' }], defenders: ['tiger', 'tiger-2'] })).events;
    expect(shiftsOf(both).filter((s) => s.source.startsWith('Tiger'))).toEqual([{ source: 'Tiger defending', value: -1 }]);
    const attacking = apply(given([['allied', 'EndImpulse']], v2()), ['axis', 'DeclareAttack', { attackId: 'b', targetHex: 'u', attackers: [{ unitId: 'tiger', hex: 't' }], defenders: ['us-inf-1'], terrain: 'hedgerows' }]).events;
    expect(shiftsOf(attacking)).toContainEqual({ source: 'Tiger attacking', value: 1 });
  });

  it('the combat calculator: a defending Tiger shifts under the current rules, not under version 1', () => {
    const spec = warsAndBattlesRuleset.procedures.combat;
    const input = { attackerSide: 'allied', attackers: [{ kind: 'armored', attack: 12 }], defenders: [{ kind: 'armored', defence: 6, tiger: true }], terrain: 'hedgerows', terrainTable: TEST_TERRAIN, tables: { combat: TEST_COMBAT_TABLE } };
    const shifts = (rulesVersion?: 1 | 2) =>
      (spec.evaluate(spec.input.parse(input), warsAndBattlesRuleset.options.parse(rulesVersion ? { rulesVersion } : {}), new GivenDice([3, 3])).breakdown as { shifts: { source: string }[] }).shifts.map((s) => s.source);
    expect(shifts()).toContain('Tiger defending');
    expect(shifts(1)).not.toContain('Tiger defending');
  });

  it('a defending commander gives its defence bonus in a game (7.4.5)', () => {
    const { events } = apply(given([], v2()), declared('a', { defenders: ['gr-916', 'rommel'] }));
    expect(shiftsOf(events)).toContainEqual({ source: 'commander Rommel (defender)', value: -1 });
  });
});

describe('strategic movement (6.3: "following a strategic move, a unit cannot attack")', () => {
  const strategic: Step = ['allied', 'Activate', { unitIds: ['us-inf-1'], strategic: true }];

  it('a unit that moved strategically cannot attack (6.3)', () => {
    const moved = apply(given([], v2()), strategic);
    expect(moved.events[0].data).toMatchObject({ unitIds: ['us-inf-1'], strategic: ['us-inf-1'] });
    expect(unitOf(moved.state, 'us-inf-1').movedStrategically).toBe(true);
    expect(warsAndBattlesRuleset.summarize({ type: 'Activate', payload: {} }, moved.events)).toBe('activates us-inf-1: 1 point (strategic move: us-inf-1 cannot attack this turn)');
    refusedBy(moved.state, declared('a'), /^us-inf-1 moved strategically this turn: following a strategic move, a unit cannot attack until the next turn\.$/, RULE.strategicMove);
    const view = warsAndBattlesRuleset.present(moved.state) as { units: { unitId: string; movedStrategically: boolean }[] };
    expect(view.units.find((u) => u.unitId === 'us-inf-1')!.movedStrategically).toBe(true);
  });

  it('nor support an attack or bombard that turn (ruling: they are its attack); the next turn it may attack', () => {
    const art: Step = ['allied', 'Activate', { unitIds: ['us-art'], strategic: true }];
    refusedBy(given([art], v2()), declared('a', { support: [{ unitId: 'us-art', points: 5 }] }), /^us-art moved strategically this turn/, RULE.strategicMove);
    refusedBy(given([art], v2()), ['allied', 'Bombard', { targetHex: '0812', targets: ['gr-916'], bombarders: [{ unitId: 'us-art', points: 5 }], identification: 'identified' }, [1, 1]], /^us-art moved strategically this turn/, RULE.strategicMove);
    const next = given([strategic, ...endBothImpulses, ['allied', 'EndTurn', {}]], v2());
    expect(unitOf(next, 'us-inf-1').movedStrategically).toBe(false);
    expect(apply(next, declared('a')).events.map((e) => e.type)).toContain('AttackDeclared');
  });

  it('a unit activated without strategic movement attacks as before; version 1 does not record strategic movement', () => {
    expect(apply(given([['allied', 'Activate', { unitIds: ['us-inf-1'] }]], v2()), declared('a')).events.map((e) => e.type)).toEqual(['AttackDeclared']);
    refusedBy(given([], v1()), strategic, /rules version 1, which does not record strategic movement/, RULE.strategicMove);
    expect(apply(given([['allied', 'Activate', { unitIds: ['us-inf-1'] }]], v1()), declared('a')).events.map((e) => e.type)).toEqual(['AttackDeclared']);
  });
});

describe('stacking (8.1: "A hex can contain up to 3 units")', () => {
  const small = { unitId: 'pio-co', side: 'axis', kind: 'infantry', quality: 'veteran', maxLp: 4, attack: 1, defence: 1, smallerThanBattalion: true };
  const units = [...options().units, small];
  const four = ['gr-916', 'gr-915', 'gr-914', 'pz-iv'];

  it('a fight naming a fourth defender in one hex is refused (8.1), not summed', () => {
    refusedBy(given([], v2()), declared('a', { defenders: four }), /^The attacked hex holds 4 units that count for stacking: a hex holds at most 3/, RULE.stacking);
    expect(apply(given([], v2()), declared('a', { defenders: four.slice(0, 3) })).events.map((e) => e.type)).toContain('AttackDeclared');
  });

  it('commanders and German units smaller than a battalion stack freely', () => {
    const declaredWith = (defenders: string[]) => apply(given([], v2({ units })), declared('a', { defenders })).events.map((e) => e.type);
    expect(declaredWith([...four.slice(0, 3), 'rommel', 'pio-co'])).toContain('AttackDeclared');
    expect(warsAndBattlesRuleset.options.safeParse({ units: [{ ...small, side: 'allied' }] }).error?.issues[0]).toMatchObject({ path: ['units', 0, 'smallerThanBattalion'] });
  });

  it('an attacking stack is checked too, hex by hex', () => {
    const attackers = (hexes: string[]) => ['us-inf-1', 'us-inf-2', 'us-arm', 'us-mech'].map((unitId, i) => ({ unitId, hex: hexes[i] }));
    refusedBy(given([], v2()), declared('a', { attackers: attackers(['g', 'g', 'g', 'g']) }), /^Hex g holds 4 units that count for stacking/, RULE.stacking);
    expect(apply(given([], v2()), declared('a', { attackers: [...attackers(['g', 'g', 'g', 'f']), { unitId: 'bradley', hex: 'g' }] })).events.map((e) => e.type)).toContain('AttackDeclared');
  });

  it('version 1 sums a fourth defender as before; the calculator checks the stack under the current rules', () => {
    expect(apply(given([], v1()), declared('a', { defenders: four })).events.map((e) => e.type)).toContain('AttackDeclared');
    const spec = warsAndBattlesRuleset.procedures.combat;
    const input = spec.input.parse({ attackerSide: 'allied', attackers: [{ kind: 'armored', attack: 30 }], defenders: four.map(() => ({ kind: 'infantry', defence: 2 })), terrain: 'hedgerows', terrainTable: TEST_TERRAIN, tables: { combat: TEST_COMBAT_TABLE } });
    expect(() => spec.evaluate(input, warsAndBattlesRuleset.options.parse({}), new GivenDice([3, 3]))).toThrow(/holds 4 units that count for stacking/);
    expect(() => spec.evaluate(input, warsAndBattlesRuleset.options.parse({ rulesVersion: 1 }), new GivenDice([3, 3]))).not.toThrow();
  });
});

describe('Cherbourg (7.4.7) and clear terrain (7.4.8), version 2', () => {
  const data = FIGHT_DATA;
  const fight = (over: Partial<Fight> = {}): Fight => plainFight({ rulesVersion: 2, ...over });
  const shifts = (over: Partial<Fight>) => fightModifiers(fight(over), data).shifts.filter((s) => !s.source.startsWith('terrain:'));

  it('Cherbourg: the area\'s -1 for the Allied attacker and the city\'s -3 for whoever attacks the city add up (7.4.7)', () => {
    expect(shifts({ cherbourg: 'city' })).toEqual([
      { source: 'Cherbourg area (Allied attack)', value: -1 },
      { source: 'Cherbourg city', value: -3 },
    ]);
    expect(shifts({ cherbourg: 'city', attackerSide: 'axis' })).toEqual([{ source: 'Cherbourg city', value: -3 }]);
    expect(shifts({ cherbourg: 'area' })).toEqual([{ source: 'Cherbourg area (Allied attack)', value: -1 }]);
    expect(shifts({ cherbourg: 'area', attackerSide: 'axis' })).toEqual([]);
    expect(shifts({ cherbourg: 'city', rulesVersion: 1 })).toEqual([{ source: 'Cherbourg city (Allied attack)', value: -3 }]);
    expect(shifts({ cherbourg: 'city', attackerSide: 'axis', rulesVersion: 1 })).toEqual([]);
  });

  it('clear terrain: armored and mechanized attackers add their bonuses (7.4: "All modifiers are cumulative")', () => {
    const mixed = { terrain: 'clear', attackers: [{ kind: 'armored' as const, value: 8 }, { kind: 'mechanized' as const, value: 6 }] };
    expect(shifts(mixed)).toEqual([
      { source: 'clear terrain: armored attacker against infantry', value: 2 },
      { source: 'clear terrain: mechanized attacker against infantry', value: 1 },
    ]);
    expect(shifts({ ...mixed, rulesVersion: 1 })).toEqual([{ source: 'clear terrain: armored attacker against infantry', value: 2 }]);
  });

  it('clear terrain: a commander in the defending stack does not cancel the bonus (7.4.5, 7.4.8); a commander alone gets none', () => {
    const withCommander = { terrain: 'clear', attackers: [{ kind: 'armored' as const, value: 8 }], defenders: [{ kind: 'infantry' as const, value: 2 }, { kind: 'commander' as const, value: 0 }] };
    expect(shifts(withCommander)).toEqual([{ source: 'clear terrain: armored attacker against infantry', value: 2 }]);
    expect(shifts({ ...withCommander, rulesVersion: 1 })).toEqual([]);
    expect(shifts({ ...withCommander, defenders: [{ kind: 'commander', value: 1 }] })).toEqual([]);
    expect(shifts({ ...withCommander, defenders: [{ kind: 'infantry', value: 2 }, { kind: 'mechanized', value: 2 }] })).toEqual([]);
  });

  it('a fight in the open on the bundled terrain list is not refused (7.4.8): clear is in it, marked as a ruling', () => {
    expect(EXAMPLE_TERRAIN).toEqual([
      { terrain: 'marshes', c: 2, note: expect.stringMatching(/7\.4\.3, worked example/) },
      { terrain: 'clear', c: 0, note: expect.stringMatching(/^ruling/) },
    ]);
    // A new game's options (index.ts newGameOptions): the bundled terrain list, with the test tables in place of the examples.
    const bundled = { ...warsAndBattlesRuleset.newGameOptions, units: options().units, tables: TEST_TABLES, commanders: TEST_COMMANDERS };
    expect(bundled).toMatchObject({ terrain: EXAMPLE_TERRAIN, rulesVersion: 2 });
    const { events } = apply(given([], bundled), declared('a', { attackers: [{ unitId: 'us-arm', hex: 'g' }], terrain: 'clear' }));
    expect(shiftsOf(events)).toEqual([{ source: 'terrain: clear', value: -0 }, { source: 'clear terrain: armored attacker against infantry', value: 2 }]);
  });
});
