import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../../../domain/ruleset';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';
import { apply, declaration, given, options, type Step } from './harness';
import { gameOptions, intent, play, randomOptions } from './randomGame';
import { AIR_EVENTS } from './airHarness';

/** A game that reaches every event type, each command's text line beside it. */
const script: [Step, string][] = [
  [['allied', 'Activate', { unitIds: ['us-arm'] }], 'activates us-arm: 1 point, 2 left'],
  [
    ['allied', 'DeclareAttack', declaration('a1', { attackers: [{ unitId: 'us-inf-1', hex: '0811' }, { unitId: 'us-arm', hex: '0811' }], defenders: ['gr-916', 'gr-915'], support: [{ unitId: 'us-air', points: 10 }] })],
    'a1 on 0812: 2 attackers (12) against 2 defenders (4) in hedgerows, 3:1, C +1 -> column 4:1, L +2, support 10 points (L2) (2 activation points, 0 left)',
  ],
  [['allied', 'ResolveAttack', { attackId: 'a1', retreats: [{ unitId: 'gr-915', route: 'none' }, { unitId: 'gr-916', route: 'enemy-zoc' }] }, [4, 4, 1, 1, 1, 1]], 'a1: column 4:1, 2d6 8 +2 = 10 -> 0/9R: attacker -0 LP, defender -9 LP, defender retreats; 1 destroyed, 1 surrendered'],
  [['allied', 'EndImpulse'], "ends impulse 1 of turn 1; axis's impulse 1 next (2 activation points)"],
  [['axis', 'Replenish', { units: [{ unitId: 'gr-914', lp: 2 }] }], 'gr-914 +2 LP: 2 points, 1 left (1 activation point, 1 left)'],
  [['axis', 'Bombard', { targetHex: '0811', targets: ['us-inf-2'], bombarders: [{ unitId: 'de-art', points: 15 }], identification: 'identified' }, [1, 1]], '0811: 15 points, 2d6 2 -> 0: -0 LP; 1 status level lost to fatigue (1 activation point, 0 left)'],
  [['axis', 'EndImpulse'], "ends impulse 1 of turn 1; allied's impulse 2 next (3 activation points)"],
  [['allied', 'Bombard', { targetHex: '0900', targets: ['pz-iv'], bombarders: [{ unitId: 'us-bomber', points: 20 }], identification: 'detected', antiAircraft: [{ unitId: 'us-bomber', lp: 1 }] }, [6, 6]], '0900: 20 points detected = 10, 2d6 12 -> 7: -7 LP; 1 status level lost to fatigue (1 activation point, 2 left)'],
  [['allied', 'EndImpulse'], "ends impulse 2 of turn 1; axis's impulse 2 next (2 activation points)"],
  [['axis', 'EndImpulse'], 'ends impulse 2 of turn 1; every impulse played: EndTurn next'],
  [['organizer', 'EndTurn', { outOfSupply: ['gr-914', 'us-ship'] }], 'turn 1 ends: 5 units recover energy, 2 units replenished, 1 Axis replenishment point lost, 2 out of supply; turn 2, allied first'],
  [['allied', 'EndImpulse'], "ends impulse 1 of turn 2; axis's impulse 1 next (2 activation points)"],
  [['axis', 'EndImpulse'], "ends impulse 1 of turn 2; allied's impulse 2 next (3 activation points)"],
  [['allied', 'EndImpulse'], "ends impulse 2 of turn 2; axis's impulse 2 next (2 activation points)"],
  [['axis', 'EndImpulse'], 'ends impulse 2 of turn 2; every impulse played: EndTurn next'],
  [['axis', 'EndTurn', { outOfSupply: ['gr-914'] }], 'turn 2 ends: 4 units recover energy, 1 unit replenished, 3 Axis replenishment points lost, 1 out of supply (1 -1 LP); turn 3, allied first'],
];

const scriptOptions = () => {
  const units = options().units.map((u) =>
    u.unitId === 'us-inf-2' ? { ...u, energy: 65 } : u.unitId === 'gr-914' ? { ...u, lp: 5 } : u.unitId === 'us-inf-1' ? { ...u, lp: 4 } : u.unitId === 'pz-iv' ? { ...u, energy: 45 } : u,
  );
  return options({ units, impulses: 2, activationPoints: { allied: 3, axis: 2 }, replenishment: { allied: true, axisPointsPerTurn: 3 } });
};

function playScript() {
  let state = given([], scriptOptions());
  const commits: { step: Step; events: DomainEvent[]; line: string; expected: string }[] = [];
  for (const [step, expected] of script) {
    const outcome = apply(state, step);
    state = outcome.state;
    commits.push({ step, events: outcome.events, line: warsAndBattlesRuleset.summarize({ type: step[1], payload: step[2] ?? {} }, outcome.events), expected });
  }
  return { state, commits };
}

function schemaProblems(events: readonly DomainEvent[]): string[] {
  return events.flatMap((event) => {
    const schema = warsAndBattlesRuleset.events?.[event.type];
    if (!schema) return [`${event.type}: no schema`];
    const parsed = schema.safeParse(event.data);
    return parsed.success ? [] : [`${event.type}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`];
  });
}

describe('Wars and Battles events, view and text lines', () => {
  it('a scripted game emits every published event type but those of rules version 2, each matching its schema', () => {
    const { commits } = playScript();
    const events = commits.flatMap((c) => c.events);
    expect(schemaProblems(events)).toEqual([]);
    // A version-1 game; air.test.ts plays the version-2 events (AIR_EVENTS) and checks them against their schemas.
    const version1 = Object.keys(warsAndBattlesRuleset.events!).filter((type) => !AIR_EVENTS.includes(type));
    expect([...new Set(events.map((e) => e.type))].sort()).toEqual(version1.sort());
  });

  it('each commit has its one-line summary', () => {
    const { commits } = playScript();
    expect(commits.map((c) => c.line)).toEqual(commits.map((c) => c.expected));
  });

  it('the view matches its published schema, after every command', () => {
    let state = given([], scriptOptions());
    expect(warsAndBattlesRuleset.view.safeParse(warsAndBattlesRuleset.present(state)).error).toBeUndefined();
    for (const [step] of script) {
      state = apply(state, step).state;
      expect(warsAndBattlesRuleset.view.safeParse(warsAndBattlesRuleset.present(state)).error).toBeUndefined();
    }
  });

  it('the events of seeded random games match their schemas too, and strict schemas refuse a field they do not name', () => {
    const runs = fc.sample(fc.tuple(gameOptions, fc.array(intent, { minLength: 20, maxLength: 60 }), fc.array(fc.nat(), { minLength: 8, maxLength: 20 })), { numRuns: 60, seed: 7 });
    const events = runs.flatMap(([o, intents, pool]) => play(randomOptions(o), intents, pool).events);
    expect(events.filter((e) => e.type === 'AttackResolved').length).toBeGreaterThan(20);
    expect(schemaProblems(events)).toEqual([]);
    expect(warsAndBattlesRuleset.events!.UnitDestroyed.safeParse({ unitId: 'x', extra: 1 }).success).toBe(false);
  });
});
