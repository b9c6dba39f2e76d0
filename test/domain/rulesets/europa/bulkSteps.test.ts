import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../domain/canonicalJson';
import { europaRuleset } from '../../../../domain/rulesets/europa';
import type { EuropaState } from '../../../../domain/rulesets/europa/state';
import type { Step } from '../../../support/rulesetHarness';
import { apply, given, withTestTable } from './harness';
import { SCRIPT_WITH_COMPLETION } from './samples';

const act = (actor: string, payload: Record<string, unknown>): Step => [actor, 'FortificationEvent', payload];
const turn = (n: number) => act('organizer', { action: 'turn', turn: n });
const phase = (side: string) => act(side, { action: 'initial-phase', side });
const v1 = withTestTable;
const v2 = { ...withTestTable, rulesVersion: 2 };
const bytes = (value: unknown) => Buffer.byteLength(canonicalJson(value));

/** A Westwall of `n` Axis hexes, every name 64 characters, improved with quick construction from turn 1: all complete on turn 3. */
function westwall(n: number, options: Record<string, unknown>) {
  const site = (i: number) => `Westwall ${String(i).padStart(5, '0')} `.padEnd(64, 'x');
  let state = given([], options);
  for (let i = 0; i < n; i++) state = apply(state, act('axis', { action: 'place', site: site(i), kind: 'westwall', owner: 'axis', level: 3 })).state;
  state = apply(state, turn(1)).state;
  for (let i = 0; i < n; i++) state = apply(state, act('axis', { action: 'begin-improvement', site: site(i), quickConstruction: true })).state;
  return { state: apply(state, turn(2)).state, site };
}

const improved = (state: EuropaState) => (europaRuleset.present(state) as { sites: { condition: string }[] }).sites.filter((s) => s.condition === 'improved').length;

describe('europa rulesVersion 2: a step that changes many fortifications records one event with their count', () => {
  it('folds to the same view as rulesVersion 1 after every step of a game that completes, reverts and restores Westwall hexes', () => {
    let one = given([], v1);
    let two = given([], v2);
    for (const [index, step] of SCRIPT_WITH_COMPLETION.entries()) {
      one = apply(one, step).state;
      two = apply(two, step).state;
      expect(canonicalJson(europaRuleset.present(two)), `step ${index}`).toBe(canonicalJson(europaRuleset.present(one)));
    }
    expect(europaRuleset.present(two)).toMatchObject({ turn: 3, emergencyRestoration: { status: 'completed' } });
  });

  it('records ImprovementsCompleted, AlliedWestwallUnimproved and EmergencyRestorationCompleted with counts where version 1 names each hex', () => {
    const events: { type: string; data: Record<string, unknown> }[] = [];
    let state = given([], v2);
    for (const step of SCRIPT_WITH_COMPLETION) {
      const outcome = apply(state, step);
      events.push(...outcome.events);
      state = outcome.state;
    }
    expect(events.filter((e) => e.type === 'ConditionChanged').map((e) => e.data.reason)).toEqual(['enemy-gain']);
    expect(events.filter((e) => ['ImprovementsCompleted', 'AlliedWestwallUnimproved', 'EmergencyRestorationCompleted'].includes(e.type))).toEqual([
      { type: 'ImprovementsCompleted', data: { turn: 3, hexes: 1 } },
      { type: 'EmergencyRestorationCompleted', data: { turn: 3, axisPhase: 3, hexes: 1 } },
      { type: 'AlliedWestwallUnimproved', data: { turn: 3, hexes: 1 } },
    ]);
    // One commit's summary line for each: counts, no hex names.
    expect(europaRuleset.summarize({ type: 'FortificationEvent', payload: {} }, [{ type: 'TurnBegan', data: { turn: 3 } }, events.find((e) => e.type === 'ImprovementsCompleted')!])).toBe('turn 3; Westwall improvements completed (1 hex)');
  });

  it('a turn completing 2,000 improvements is two events of a few dozen bytes (version 1: 2,001 events), and improves all 2,000', () => {
    const { state: two, site } = westwall(2_000, v2);
    const completed = apply(two, turn(3));
    expect(completed.events).toEqual([
      { type: 'TurnBegan', data: { turn: 3 } },
      { type: 'ImprovementsCompleted', data: { turn: 3, hexes: 2_000 } },
    ]);
    expect(bytes(completed.events)).toBeLessThan(200);
    expect(improved(completed.state)).toBe(2_000);
    // The Allies take one hex and its improvement reverts in their initial phase: one event, one hex.
    const taken = apply(apply(completed.state, act('allied', { action: 'gain', site: site(7), side: 'allied' })).state, phase('allied'));
    expect(taken.events.at(-1)).toEqual({ type: 'AlliedWestwallUnimproved', data: { turn: 3, hexes: 1 } });
    expect(improved(taken.state)).toBe(1_999);

    const { state: one } = westwall(2_000, v1);
    const old = apply(one, turn(3));
    expect(old.events).toHaveLength(2_001);
    expect(bytes(old.events)).toBeGreaterThan(250_000);
    expect(canonicalJson(europaRuleset.present(old.state))).toBe(canonicalJson(europaRuleset.present(completed.state)));
  });

  it('a game recorded without rulesVersion (created before version 2) keeps recording one event per hex', () => {
    expect(europaRuleset.options.parse({}).rulesVersion).toBeUndefined();
    const { state } = westwall(3, {});
    expect(apply(state, turn(3)).events.map((e) => e.type)).toEqual(['TurnBegan', 'ConditionChanged', 'ConditionChanged', 'ConditionChanged']);
  });
});
