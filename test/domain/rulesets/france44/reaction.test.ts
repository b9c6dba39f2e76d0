import { describe, expect, it } from 'vitest';
import { apply, given, refused } from './harness';

const turn1 = (allied = 10, german = 6): [string, string, unknown] => ['organizer', 'StartTurn', { turn: 1, reactionPoints: { allied, german } }];

describe('reaction points: all or nothing', () => {
  it('example 1: an Army Reaction Phase spends 3 and loses nothing more', () => {
    const state = given([turn1(), ['german', 'BeginReactionSegment']]);
    const army = apply(state, ['german', 'ReactionPhase', { kind: 'army', hqId: '15' }]);
    expect(army.events.map((e) => e.type)).toEqual(['HQActivated', 'ReactionPhaseTaken']);
    const end = apply(army.state, ['german', 'EndReactionSegment']);
    expect(end.events).toEqual([{ type: 'ReactionSegmentEnded', data: { side: 'german', spent: 3, forfeited: 0, pointsLeft: 3 } }]);
    expect(end.state.reactionPoints.german).toBe(3);
  });

  it('example 2: the German declines and loses nothing; the Allied spends 1 on an HQ and loses 2 more', () => {
    const declined = apply(given([turn1()]), ['german', 'DeclineReactionSegment']);
    expect(declined.events).toEqual([{ type: 'ReactionSegmentDeclined', data: { side: 'german' } }]);
    expect(declined.state.reactionPoints.german).toBe(6);
    const begun = apply(declined.state, ['allied', 'BeginReactionSegment']).state;
    const phase = apply(begun, ['allied', 'ReactionPhase', { kind: 'single-piece', unitId: '1US-HQ', unitKind: 'hq' }]);
    expect(phase.state.reactionPoints.allied).toBe(9);
    const end = apply(phase.state, ['allied', 'EndReactionSegment']);
    expect(end.events[0].data).toEqual({ side: 'allied', spent: 1, forfeited: 2, pointsLeft: 7 });
  });

  it('forfeits only what remains when the track runs out, setting it to 0', () => {
    const state = given([turn1(2, 0), ['allied', 'BeginReactionSegment'], ['allied', 'ReactionPhase', { kind: 'single-piece', unitId: 'u1', unitKind: 'combat' }]]);
    expect(apply(state, ['allied', 'EndReactionSegment']).events[0].data).toEqual({ side: 'allied', spent: 1, forfeited: 1, pointsLeft: 0 });
  });

  it('loses nothing for a segment in which nothing was spent', () => {
    const state = given([turn1(), ['allied', 'BeginReactionSegment']]);
    expect(apply(state, ['allied', 'EndReactionSegment']).events[0].data).toMatchObject({ spent: 0, forfeited: 0, pointsLeft: 10 });
  });

  it('allows up to three single-piece phases, each a different unit, and no mixing with an army phase', () => {
    const open = given([turn1(), ['allied', 'BeginReactionSegment'], ['allied', 'ReactionPhase', { kind: 'single-piece', unitId: 'u1', unitKind: 'combat' }]]);
    refused(open, ['allied', 'ReactionPhase', { kind: 'single-piece', unitId: 'u1', unitKind: 'combat' }], /u1 was already activated in this reaction segment/);
    refused(open, ['allied', 'ReactionPhase', { kind: 'army', hqId: 'h1' }], /Army Reaction Phase is a whole segment/);
    const three = given([
      turn1(),
      ['allied', 'BeginReactionSegment'],
      ['allied', 'ReactionPhase', { kind: 'single-piece', unitId: 'u1', unitKind: 'combat' }],
      ['allied', 'ReactionPhase', { kind: 'single-piece', unitId: 'u2', unitKind: 'combat' }],
      ['allied', 'ReactionPhase', { kind: 'single-piece', unitId: 'u3', unitKind: 'combat' }],
    ]);
    refused(three, ['allied', 'ReactionPhase', { kind: 'single-piece', unitId: 'u4', unitKind: 'combat' }], /at most three/);
    const army = given([turn1(), ['allied', 'BeginReactionSegment'], ['allied', 'ReactionPhase', { kind: 'army', hqId: 'h1' }]]);
    refused(army, ['allied', 'ReactionPhase', { kind: 'single-piece', unitId: 'u1', unitKind: 'combat' }], /was an Army Reaction Phase/);
  });

  it('refuses spending more than the track holds', () => {
    const state = given([turn1(2, 0), ['allied', 'BeginReactionSegment']]);
    refused(state, ['allied', 'ReactionPhase', { kind: 'army', hqId: 'h1' }], /costs 3 reaction points; the allied track holds 2/);
    const empty = given([turn1(0, 0), ['german', 'BeginReactionSegment']]);
    refused(empty, ['german', 'ReactionPhase', { kind: 'single-piece', unitId: 'u', unitKind: 'combat' }], /track is at 0/);
  });

  it('takes a step from an out-of-supply combat unit first, and refuses an out-of-supply HQ', () => {
    const state = given([turn1(), ['german', 'BeginReactionSegment']]);
    const oos = apply(state, ['german', 'ReactionPhase', { kind: 'single-piece', unitId: '21Pz', unitKind: 'combat', outOfSupply: true }]);
    expect(oos.events.map((e) => e.type)).toEqual(['UnitStepLost', 'ReactionPhaseTaken']);
    expect(oos.events[0].data).toEqual({ side: 'german', unitId: '21Pz', reason: 'out-of-supply reaction' });
    refused(state, ['german', 'ReactionPhase', { kind: 'single-piece', unitId: '15', unitKind: 'hq', outOfSupply: true }], /out of supply: it can't be used/);
  });

  it('keeps segments to their side, one at a time', () => {
    const state = given([turn1(), ['german', 'BeginReactionSegment']]);
    refused(state, ['allied', 'BeginReactionSegment'], /already open/);
    refused(state, ['allied', 'EndReactionSegment'], /the german side's/);
    refused(state, ['german', 'DeclineReactionSegment'], /end it instead of declining/);
    refused(given([turn1()]), ['german', 'EndReactionSegment'], /No reaction segment is open/);
  });

  it('carries unspent points over when a turn gives no new values', () => {
    const state = given([turn1(5, 4), ['german', 'DeclineReactionSegment']]);
    expect(apply(state, ['allied', 'StartTurn', { turn: 2 }]).state.reactionPoints).toEqual({ allied: 5, german: 4 });
  });
});

describe('HQ activations (errata)', () => {
  it('turn 1: twice per turn, even in a row', () => {
    const twice = given([turn1(), ['german', 'ActivateHQ', { hqId: '15' }], ['german', 'ActivateHQ', { hqId: '15' }]]);
    expect(twice.hq.german.byHq['15']).toBe(2);
    refused(twice, ['german', 'ActivateHQ', { hqId: '15' }], /already activated twice this game turn/);
  });

  it('turn 2: not twice in a row; another friendly HQ in between', () => {
    const turn2 = given([turn1(), ['allied', 'StartTurn', { turn: 2 }], ['german', 'ActivateHQ', { hqId: '15' }]]);
    refused(turn2, ['german', 'ActivateHQ', { hqId: '15' }], /another german HQ must be activated before it again/);
    // An allied activation in between does not count: it must be friendly.
    const allied = apply(turn2, ['allied', 'ActivateHQ', { hqId: '1US' }]).state;
    refused(allied, ['german', 'ActivateHQ', { hqId: '15' }], /another german HQ/);
    const between = apply(allied, ['german', 'ActivateHQ', { hqId: '7' }]).state;
    expect(apply(between, ['german', 'ActivateHQ', { hqId: '15' }]).events[0].data).toMatchObject({ hqId: '15', activationsThisTurn: 2 });
  });

  it('counts reaction phases as activations, and StartTurn clears the record', () => {
    const state = given([
      turn1(),
      ['german', 'ActivateHQ', { hqId: '15' }],
      ['german', 'BeginReactionSegment'],
      ['german', 'ReactionPhase', { kind: 'army', hqId: '15' }],
      ['german', 'EndReactionSegment'],
    ]);
    expect(state.hq.german.byHq['15']).toBe(2);
    const segment = apply(state, ['german', 'BeginReactionSegment']).state;
    refused(segment, ['german', 'ReactionPhase', { kind: 'single-piece', unitId: '15', unitKind: 'hq' }], /already activated twice/);
    const next = apply(state, ['allied', 'StartTurn', { turn: 2 }]).state;
    expect(next.hq.german).toEqual({ byHq: {}, last: null });
    expect(apply(next, ['german', 'ActivateHQ', { hqId: '15' }]).events[0].data).toMatchObject({ activationsThisTurn: 1 });
  });
});

describe('game turns', () => {
  it('follow one another, and need a started turn', () => {
    const none = given([]);
    refused(none, ['german', 'ActivateHQ', { hqId: '15' }], /send StartTurn first/);
    refused(none, ['allied', 'StartTurn', { turn: 2 }], /next game turn is turn 1/);
    refused(given([turn1()]), ['allied', 'StartTurn', { turn: 1 }], /next game turn is turn 2/);
  });

  it('wait for the open increment and segment to end', () => {
    refused(given([turn1(), ['allied', 'BeginAttackIncrement']]), ['german', 'StartTurn', { turn: 2 }], /still open/);
    refused(given([turn1(), ['german', 'BeginReactionSegment']]), ['german', 'StartTurn', { turn: 2 }], /still open/);
  });
});

describe('supply attrition', () => {
  it('takes a step, eliminates a cadre, disperses a lone HQ, once per turn', () => {
    const state = given([turn1()]);
    const { events, state: after } = apply(state, [
      'german',
      'ApplySupplyAttrition',
      {
        units: [
          { unitId: '352', kind: 'combat', outOfSupply: true },
          { unitId: '716', kind: 'combat', outOfSupply: true, atCadre: true },
          { unitId: '84', kind: 'hq', outOfSupply: true },
          { unitId: '15', kind: 'hq', outOfSupply: true, stackedWithCombatUnit: true },
          { unitId: '21Pz', kind: 'combat', outOfSupply: false },
        ],
      },
    ]);
    expect(events.map((e) => [e.type, e.data.unitId ?? e.data.hqId])).toEqual([
      ['UnitStepLost', '352'],
      ['UnitEliminated', '716'],
      ['HQDispersed', '84'],
      ['SupplyAttritionApplied', undefined],
    ]);
    refused(after, ['german', 'ApplySupplyAttrition', { units: [{ unitId: 'x', kind: 'combat', outOfSupply: true }] }], /already applied supply attrition this game turn/);
    expect(apply(after, ['allied', 'ApplySupplyAttrition', { units: [{ unitId: 'x', kind: 'combat', outOfSupply: false }] }]).events).toHaveLength(1);
  });
});
