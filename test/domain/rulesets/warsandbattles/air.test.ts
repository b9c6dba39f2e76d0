import { describe, expect, it } from 'vitest';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';
import { EXAMPLE_AIR_AVAILABILITY, EXAMPLE_AVAILABILITY, EXAMPLE_MAINTENANCE, EXAMPLE_SHIP_AVAILABILITY, checkAvailability } from '../../../../domain/rulesets/warsandbattles/availability';
import { RULE } from '../../../../domain/rulesets/warsandbattles/rules';
import { GivenDice } from '../../../../domain/dice';
import { refusal } from '../../../support/rulesetHarness';
import { apply, declaration, endBothImpulses, given, options, unitOf, type Step } from './harness';
import { AIR_EVENTS, TEST_AVAILABILITY, v2 } from './airHarness';

const types = (events: readonly { type: string }[]) => events.map((e) => e.type);
const refusedWith = (state: ReturnType<typeof given>, step: Step) => refusal(() => apply(state, step));

const bomb = (unitId: string, extra: Record<string, unknown> = {}, dice = [2, 2]): Step => [
  'allied',
  'Bombard',
  { targetHex: '0812', targets: ['gr-916'], bombarders: [{ unitId, points: 20, ...(unitId === 'us-art' ? { range: 3 } : unitId === 'us-ship' ? { range: 4 } : {}) }], identification: 'identified', ...extra },
  dice,
];
const airSupport = (extra: Record<string, unknown> = {}): Step => ['allied', 'DeclareAttack', declaration('a1', { support: [{ unitId: 'us-air', points: 10 }], ...extra })];
const endTurn = (payload: Record<string, unknown> = {}, dice: number[] = []): Step[] => [...endBothImpulses, ['organizer', 'EndTurn', payload, dice]];

describe('storm grounds aircraft (4.2.2)', () => {
  it('a bombardment by a heavy bomber in storm is refused (4.2.2)', () => {
    const r = refusedWith(given([], v2({ weather: 'storm' })), bomb('us-bomber'));
    expect(r.rule).toBe(RULE.storm);
    expect(r.message).toMatch(/^us-bomber is an air unit and the weather is storm: every air unit is grounded/);
  });

  it('air support in storm is refused (4.2.2); artillery and ships still fire', () => {
    const storm = given([], v2({ weather: 'storm' }));
    expect(refusedWith(storm, airSupport()).rule).toBe(RULE.storm);
    expect(types(apply(storm, ['allied', 'DeclareAttack', declaration('a1', { support: [{ unitId: 'us-art', points: 10 }] })]).events)).toContain('AttackDeclared');
    expect(types(apply(storm, bomb('us-ship')).events)).toContain('BombardmentResolved');
  });

  it('the organizer sets the next turn\'s weather at EndTurn: a storm in turn 2 grounds the aircraft that flew in turn 1 (4.2.2)', () => {
    const turn2 = given(endTurn({ weather: 'storm' }), v2());
    expect(turn2.weather).toBe('storm');
    expect(refusedWith(turn2, airSupport()).rule).toBe(RULE.storm);
    const sunny = apply(turn2, ['allied', 'EndImpulse']).state;
    const turn3 = given([...endTurn({ weather: 'storm' }), ...endTurn({ weather: 'sunny' })], v2());
    expect(sunny.weather).toBe('storm');
    expect(types(apply(turn3, airSupport()).events)).toContain('AttackDeclared');
  });

  it('a sight whose weather is not the turn\'s is refused (4.2)', () => {
    const r = refusedWith(given([], v2({ weather: 'rain' })), bomb('us-art', { identification: undefined, sight: { distance: 1, viewDistance: 6, weather: 'sunny' } }));
    expect(r.rule).toBe(RULE.weather);
  });

  it('version 1: a heavy bomber whose sight says storm still bombards, and EndTurn takes no weather', () => {
    const v1 = given([], options());
    expect(types(apply(v1, bomb('us-bomber', { identification: undefined, sight: { distance: 1, viewDistance: 6, weather: 'storm' } })).events)).toContain('BombardmentResolved');
    expect(refusedWith(given(endBothImpulses, options()), ['organizer', 'EndTurn', { weather: 'rain' }]).rule).toBe(RULE.rulesVersion);
  });
});

describe('anti-aircraft: a mission destroyed or aborted delivers nothing (7.5.2, 7.4.4, 7.6)', () => {
  it('a heavy bomber aborted by AA delivers nothing (7.5.2)', () => {
    const start = given([], v2());
    // No dice given: a roll would throw.
    const { events, state } = apply(start, bomb('us-bomber', { antiAircraft: [{ unitId: 'us-bomber', aborted: true }] }, []));
    expect(types(events)).toEqual(['UnitsActivated', 'AirMissionsCancelled']);
    expect(events[1].data).toEqual({ mission: 'bombardment', ref: null, targetHex: '0812', units: [{ unitId: 'us-bomber', reason: 'aborted' }] });
    expect(unitOf(state, 'gr-916')).toEqual(unitOf(start, 'gr-916'));
    expect(unitOf(state, 'us-bomber').attackedThisTurn).toBe(true);
  });

  it('a heavy bomber destroyed by AA delivers nothing (7.5.2); one that loses LP and flies on bombards', () => {
    const start = given([], v2());
    const destroyed = apply(start, bomb('us-bomber', { antiAircraft: [{ unitId: 'us-bomber', lp: 4 }] }, []));
    expect(types(destroyed.events)).toEqual(['UnitsActivated', 'AntiAircraftLosses', 'FatigueGained', 'UnitDestroyed', 'AirMissionsCancelled']);
    expect(unitOf(destroyed.state, 'gr-916').lp).toBe(8);
    const hit = apply(start, bomb('us-bomber', { antiAircraft: [{ unitId: 'us-bomber', lp: 1 }] }));
    expect(types(hit.events)).toContain('BombardmentResolved');
    expect(unitOf(hit.state, 'us-bomber').lp).toBe(3);
  });

  it('version 1: a heavy bomber destroyed by AA still delivers its bombardment, and no mission is aborted', () => {
    const v1 = given([], options());
    const destroyed = apply(v1, bomb('us-bomber', { antiAircraft: [{ unitId: 'us-bomber', lp: 4 }] }));
    expect(types(destroyed.events)).toContain('BombardmentResolved');
    expect(unitOf(destroyed.state, 'gr-916').lp).toBeLessThan(8);
    expect(refusedWith(v1, bomb('us-bomber', { antiAircraft: [{ unitId: 'us-bomber', aborted: true }] })).rule).toBe(RULE.rulesVersion);
    expect(refusedWith(v1, airSupport({ antiAircraft: [{ unitId: 'us-air', lp: 1 }] })).rule).toBe(RULE.rulesVersion);
  });

  it('supporting aircraft shot down or aborted by AA bring no support points and lose LP (7.4.4, 7.6)', () => {
    const start = given([], v2());
    const support = [
      { unitId: 'us-air', points: 10 },
      { unitId: 'us-air-2', points: 5 },
      { unitId: 'us-art', points: 5 },
    ];
    const full = apply(start, airSupport({ support })).events.find((e) => e.type === 'AttackDeclared')!.data as { supportLookup: { points: number; bonus: number } };
    expect(full.supportLookup).toMatchObject({ points: 20, bonus: 4 });
    const { events, state } = apply(start, airSupport({ support, antiAircraft: [{ unitId: 'us-air', lp: 1, aborted: true }, { unitId: 'us-air-2', lp: 4 }] }));
    expect(types(events)).toEqual(['UnitsActivated', 'AntiAircraftLosses', 'FatigueGained', 'FatigueGained', 'UnitDestroyed', 'AirMissionsCancelled', 'AttackDeclared']);
    const declared = events.at(-1)!.data as { supportLookup: { points: number; bonus: number }; support: unknown };
    expect(declared.supportLookup).toMatchObject({ points: 5, bonus: 1 });
    expect(declared.support).toEqual(support);
    expect(unitOf(state, 'us-air').lp).toBe(3);
    expect(unitOf(state, 'us-air-2').out).toBe('destroyed');
  });

  it('land and naval units never lose LP to AA: AA on supporting artillery is refused (7.5.2, 7.6)', () => {
    const r = refusedWith(given([], v2()), airSupport({ support: [{ unitId: 'us-art', points: 5 }], antiAircraft: [{ unitId: 'us-art', lp: 1 }] }));
    expect(r.rule).toBe(RULE.supportAntiAircraft);
    expect(refusedWith(given([], v2()), bomb('us-art', { antiAircraft: [{ unitId: 'us-art', lp: 1 }] })).rule).toBe(RULE.antiAircraft);
  });
});

describe('destroyed air units return two turns later (3.3)', () => {
  const shotDown = airSupport({ support: [{ unitId: 'us-air', points: 10 }], antiAircraft: [{ unitId: 'us-air', lp: 4 }] });
  const resolve: Step = ['allied', 'ResolveAttack', { attackId: 'a1' }, [1, 1]];

  it('an air unit destroyed in turn 1 returns at the start of turn 3, at full LP (3.3)', () => {
    const turn2 = given([shotDown, resolve, ...endTurn()], v2());
    expect(unitOf(turn2, 'us-air').out).toBe('destroyed');
    const turn3 = apply(turn2, endTurn()[0]);
    const returned = apply(apply(turn3.state, endTurn()[1]).state, endTurn()[2]);
    expect(types(returned.events)).toContain('AirUnitsReturned');
    expect(returned.events.find((e) => e.type === 'AirUnitsReturned')!.data).toEqual({ units: [{ unitId: 'us-air', destroyedInTurn: 1, lpAfter: 4 }] });
    expect(unitOf(returned.state, 'us-air')).toMatchObject({ out: null, lp: 4, energy: 100 });
    expect(types(apply(returned.state, airSupport({ attackId: 'a3' })).events)).toContain('AttackDeclared');
  });

  it('a heavy bomber shot down on a mission flies again when it returns, two turns later (3.3)', () => {
    const shot = bomb('us-bomber', { antiAircraft: [{ unitId: 'us-bomber', lp: 4 }] }, []);
    const turn3 = given([shot, ...endTurn(), ...endTurn()], v2());
    expect(unitOf(turn3, 'us-bomber')).toMatchObject({ out: null, lp: 4 });
    expect(types(apply(turn3, bomb('us-bomber')).events)).toContain('BombardmentResolved');
  });

  it('other destroyed units never return (3.3)', () => {
    const units = options().units.map((u) => (u.unitId === 'gr-916' ? { ...u, lp: 1 } : u));
    const state = given([bomb('us-art', {}, [6, 6]), ...endTurn(), ...endTurn(), ...endTurn()], v2({ units }));
    expect(unitOf(state, 'gr-916').out).toBe('destroyed');
  });

  it('version 1: a destroyed air unit stays out', () => {
    const state = given([airSupport(), resolve, ['allied', 'Bombard', { targetHex: 'x', targets: ['gr-915'], bombarders: [{ unitId: 'us-bomber', points: 20 }], identification: 'identified', antiAircraft: [{ unitId: 'us-bomber', lp: 4 }] }, [1, 1]], ...endTurn(), ...endTurn(), ...endTurn()], options());
    expect(unitOf(state, 'us-bomber').out).toBe('destroyed');
  });
});

describe('availability of air units, heavy bombers and ships, rolled at the turn change (10.3, 10.1.1)', () => {
  const withTables = (weather: string) => v2({ availability: TEST_AVAILABILITY, weather });

  it('an air unit rolled unavailable by the weather cannot support (10.3); the roll uses the game\'s dice', () => {
    // Turn 2 in overcast: the ship rolls 70 (available); us-air 51 (grounded); us-air-2 50 (flies) then maintenance 11 (fine); us-bomber 1 then maintenance 5 (issue).
    const turn2 = apply(given(endBothImpulses, withTables('sunny')), ['organizer', 'EndTurn', { weather: 'overcast' }, [70, 51, 50, 11, 1, 5]]);
    const rolled = turn2.events.find((e) => e.type === 'AvailabilityRolled')!.data as { units: { unitId: string; available: boolean }[] };
    expect(rolled.units.map((u) => [u.unitId, u.available])).toEqual([
      ['us-ship', true],
      ['us-air', false],
      ['us-air-2', true],
      ['us-bomber', false],
    ]);
    const r = refusedWith(turn2.state, airSupport());
    expect(r.rule).toBe(RULE.availability);
    expect(r.message).toMatch(/^us-air is not available in turn 2: the weather \(overcast\) grounds it/);
    expect(refusedWith(turn2.state, bomb('us-bomber')).message).toMatch(/maintenance issue/);
    expect(types(apply(turn2.state, airSupport({ support: [{ unitId: 'us-air-2', points: 10 }] })).events)).toContain('AttackDeclared');
  });

  it('a ship rolled unavailable cannot bombard or support (10.1.1)', () => {
    const turn2 = given([...endBothImpulses, ['organizer', 'EndTurn', {}, [71, 50, 50, 50]]], withTables('sunny'));
    expect(refusedWith(turn2, bomb('us-ship')).rule).toBe(RULE.availability);
  });

  it('a heavy bomber waits three turns between missions (10.3)', () => {
    const after = (turns: number) => given([bomb('us-bomber'), ...Array.from({ length: turns }, () => endTurn()).flat()], v2());
    for (const turns of [1, 2, 3]) {
      const r = refusedWith(after(turns), bomb('us-bomber'));
      expect(r.rule).toBe(RULE.bomberWait);
      expect(r.message).toMatch(/next available in turn 5/);
    }
    expect(types(apply(after(4), bomb('us-bomber')).events)).toContain('BombardmentResolved');
  });

  it('version 1: no availability roll at the turn change', () => {
    const state = given(endBothImpulses, options({ availability: TEST_AVAILABILITY }));
    expect(types(apply(state, ['organizer', 'EndTurn', {}]).events)).not.toContain('AvailabilityRolled');
  });

  it('the bundled tables hold only what the text says, cell by cell: sunny flies, storm grounded, overcast and rain not in the source; maintenance and ships not in the source', () => {
    expect(EXAMPLE_AIR_AVAILABILITY.example).toBe(true);
    expect(EXAMPLE_AIR_AVAILABILITY.cells).toEqual([['flies', 'unproven', 'unproven', 'grounded']]);
    const check = (table: typeof EXAMPLE_AIR_AVAILABILITY, weather: 'sunny' | 'overcast' | 'rain' | 'storm') => {
      const dice = new GivenDice([]);
      const c = checkAvailability('air', table, weather, dice);
      expect(dice.drawn).toEqual([]);
      return [c.code, c.available, c.unproven];
    };
    expect(check(EXAMPLE_AIR_AVAILABILITY, 'sunny')).toEqual(['flies', true, false]);
    expect(check(EXAMPLE_AIR_AVAILABILITY, 'overcast')).toEqual(['unproven', true, true]);
    expect(check(EXAMPLE_AIR_AVAILABILITY, 'rain')).toEqual(['unproven', true, true]);
    expect(check(EXAMPLE_AIR_AVAILABILITY, 'storm')).toEqual(['grounded', false, false]);
    for (const table of [EXAMPLE_MAINTENANCE, EXAMPLE_SHIP_AVAILABILITY]) {
      expect(table.example).toBe(true);
      for (const weather of ['sunny', 'overcast', 'rain', 'storm'] as const) expect(check(table, weather)).toEqual(['unproven', true, true]);
    }
    // New games are given them (the creation's options, recorded in commit 1); a game recorded without any plays them too.
    expect(warsAndBattlesRuleset.newGameOptions?.availability).toEqual(EXAMPLE_AVAILABILITY);
    expect(warsAndBattlesRuleset.options.parse({})).not.toHaveProperty('availability');
    expect(warsAndBattlesRuleset.initialState(warsAndBattlesRuleset.options.parse({}), ['allied', 'axis']).air.availability).toEqual(EXAMPLE_AVAILABILITY);
  });
});

describe('each bombardment is its own roll (7.5.1)', () => {
  it('a bombardment naming two units is refused: each is its own roll (7.5.1); two bombardments of one hex are fine', () => {
    const start = given([], v2());
    const two: Step = ['allied', 'Bombard', { targetHex: '0812', targets: ['gr-916'], bombarders: [{ unitId: 'us-art', points: 10, range: 2 }, { unitId: 'us-ship', points: 10, range: 3 }], identification: 'identified' }, [1, 1]];
    const r = refusedWith(start, two);
    expect(r.rule).toBe(RULE.oneBombardment);
    const first = apply(start, bomb('us-art'));
    const second = apply(first.state, bomb('us-ship'));
    expect(types(second.events)).toContain('BombardmentResolved');
  });

  it('version 1: several bombarders\' points are still added into one roll', () => {
    const { events } = apply(given([], options()), ['allied', 'Bombard', { targetHex: '0812', targets: ['gr-916'], bombarders: [{ unitId: 'us-art', points: 10 }, { unitId: 'us-ship', points: 5 }], identification: 'identified' }, [1, 1]]);
    expect(events.find((e) => e.type === 'BombardmentResolved')!.data).toMatchObject({ points: 15 });
  });
});

describe('bombardment reach (7.5.1)', () => {
  const at = (unitId: string, range?: number): Step => ['allied', 'Bombard', { targetHex: '0812', targets: ['gr-916'], bombarders: [{ unitId, points: 10, ...(range === undefined ? {} : { range }) }], identification: 'identified' }, [1, 1]];

  it('artillery bombards at 2 to 3 hexes, ships at 3 to 4 (7.5.1)', () => {
    const start = given([], v2());
    for (const [unitId, range, ok] of [
      ['us-art', 1, false],
      ['us-art', 2, true],
      ['us-art', 3, true],
      ['us-art', 4, false],
      ['us-ship', 2, false],
      ['us-ship', 3, true],
      ['us-ship', 4, true],
      ['us-ship', 5, false],
    ] as const) {
      if (ok) expect(types(apply(start, at(unitId, range)).events), `${unitId} at ${range}`).toContain('BombardmentResolved');
      else expect(refusedWith(start, at(unitId, range)).rule, `${unitId} at ${range}`).toBe(RULE.reach);
    }
    expect(refusedWith(start, at('us-art')).message).toMatch(/^Give the range from us-art to the bombarded hex: artillery bombards at 2 to 3 hexes\.$/);
  });

  it('heavy bombers reach anywhere, on detected units too (7.5.1); fighter-bombers never bombard', () => {
    const start = given([], v2());
    expect(types(apply(start, at('us-bomber', 40)).events)).toContain('BombardmentResolved');
    expect(types(apply(start, ['allied', 'Bombard', { targetHex: '0812', targets: ['gr-916'], bombarders: [{ unitId: 'us-bomber', points: 10 }], identification: 'detected' }, [1, 1]]).events)).toContain('BombardmentResolved');
    expect(refusedWith(start, at('us-air', 1)).rule).toBe(RULE.bombard);
  });

  it('version 1: artillery bombards with no range given', () => {
    expect(types(apply(given([], options()), at('us-art')).events)).toContain('BombardmentResolved');
  });
});

describe('the version-2 events', () => {
  it('each matches its schema, and a game reaches every one', () => {
    const steps: Step[] = [
      bomb('us-bomber', { antiAircraft: [{ unitId: 'us-bomber', lp: 4 }] }),
      ...endTurn({ weather: 'overcast' }, Array(10).fill(50)),
      ...endTurn({}, Array(10).fill(50)),
    ];
    let state = given([], v2({ availability: TEST_AVAILABILITY }));
    const seen = new Set<string>();
    for (const step of steps) {
      const outcome = apply(state, step);
      for (const event of outcome.events) {
        seen.add(event.type);
        expect(warsAndBattlesRuleset.events![event.type].safeParse(event.data).success, event.type).toBe(true);
      }
      state = outcome.state;
    }
    expect(AIR_EVENTS.filter((type) => !seen.has(type))).toEqual([]);
    expect(warsAndBattlesRuleset.present(state)).toMatchObject({ weather: 'overcast' });
  });
});

describe('the text lines of air missions', () => {
  it('an aborted bombardment and a turn change with weather, returns and unavailable units say so', () => {
    const start = given([], v2({ availability: TEST_AVAILABILITY }));
    const step = bomb('us-bomber', { antiAircraft: [{ unitId: 'us-bomber', lp: 4 }] }, []);
    const aborted = apply(start, step);
    expect(warsAndBattlesRuleset.summarize({ type: 'Bombard', payload: step[2] }, aborted.events)).toBe('0812: us-bomber destroyed by anti-aircraft, nothing delivered; 1 destroyed (1 activation point)');
    const turn2 = given([step, ...endBothImpulses], v2({ availability: TEST_AVAILABILITY }));
    const end = apply(turn2, ['organizer', 'EndTurn', { weather: 'rain' }, [80, 30, 30]]);
    expect(warsAndBattlesRuleset.summarize({ type: 'EndTurn', payload: { weather: 'rain' } }, end.events)).toMatch(/; turn 2, allied first, rain, 3 unavailable$/);
  });
});

describe('availability tables as data', () => {
  it('a table with no column for a weather is refused at creation, naming the place (400)', () => {
    const air = { ...TEST_AVAILABILITY.air, columns: { ...TEST_AVAILABILITY.air.columns, labels: ['2', '3', '4', '5'] } };
    const parsed = warsAndBattlesRuleset.options.safeParse(v2({ availability: { ...TEST_AVAILABILITY, air } }));
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error!.issues)).toMatch(/availability.*air.*columns|no column for sunny/);
  });
});
