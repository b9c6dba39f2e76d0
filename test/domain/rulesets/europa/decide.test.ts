import { describe, expect, it } from 'vitest';
import { jsonSchema, rulesetEntry } from '../../../../functions/http/catalogue';
import { canonicalJson } from '../../../../domain/canonicalJson';
import { decideCreate } from '../../../../domain/game/decideGame';
import type { DomainEvent } from '../../../../domain/ruleset';
import { europaRuleset } from '../../../../domain/rulesets/europa';
import type { Step } from '../../../support/rulesetHarness';
import { apply, given, p47Fire, refused, withTestTable } from './harness';
import { SCRIPT, SCRIPT_V3, SCRIPT_WITH_COMPLETION } from './samples';

function play(steps: Step[], options: Record<string, unknown> = withTestTable) {
  let state = given([], options);
  const commits: { step: Step; events: DomainEvent[] }[] = [];
  for (const step of steps) {
    const outcome = apply(state, step);
    commits.push({ step, events: outcome.events });
    state = outcome.state;
  }
  return { state, commits };
}

describe('europa games: given / when / then', () => {
  it('a scripted game emits every published event type, each parsing against its schema', () => {
    const { commits } = play(SCRIPT);
    const events = commits.flatMap((c) => c.events);
    for (const e of events) expect(europaRuleset.events![e.type].safeParse(e.data).error, e.type).toBeUndefined();
    // Commits are canonical JSON: no undefined anywhere, in events, view or state.
    const { state } = play(SCRIPT);
    expect(() => [events, europaRuleset.present(state), state].map(canonicalJson)).not.toThrow();
    // rulesVersion 2 records bulk steps as events of their own (rulesVersion.ts): between them, the two versions emit every type.
    const bulk = play(SCRIPT_WITH_COMPLETION, { ...withTestTable, rulesVersion: 2 }).commits.flatMap((c) => c.events);
    for (const e of bulk) expect(europaRuleset.events![e.type].safeParse(e.data).error, e.type).toBeUndefined();
    // rulesVersion 3 builds forts during play (FortConstructionBegun, FortsCompleted).
    const built = play(SCRIPT_V3, { ...withTestTable, rulesVersion: 3 }).commits.flatMap((c) => c.events);
    for (const e of built) expect(europaRuleset.events![e.type].safeParse(e.data).error, e.type).toBeUndefined();
    expect([...new Set([...events, ...bulk, ...built].map((e) => e.type))].sort()).toEqual(Object.keys(europaRuleset.events!).sort());
  });

  it('its view parses against the view schema, and folding the events again gives the same state', () => {
    const { state, commits } = play(SCRIPT);
    expect(europaRuleset.view.safeParse(europaRuleset.present(state)).error).toBeUndefined();
    const refolded = commits.flatMap((c) => c.events).reduce(europaRuleset.evolve, given([], withTestTable));
    expect(JSON.stringify(europaRuleset.present(refolded))).toBe(JSON.stringify(europaRuleset.present(state)));
    expect(europaRuleset.present(state)).toMatchObject({
      fires: 2,
      lastFire: { fireId: 'night', hex: '2708', column: '-1', result: null, affected: 0 },
      turn: 3,
      phase: 'allied',
      emergencyRestoration: { status: 'completed' },
    });
  });

  it('writes one text line per commit, player strings as JSON strings', () => {
    const { commits } = play(SCRIPT);
    const lines = commits.map(({ step, events }) => europaRuleset.summarize({ type: step[1], payload: step[2] }, events));
    for (const line of lines) expect(line).not.toMatch(/[\n\r\u2028\u2029]/);
    expect(lines[1]).toBe('fortress "Metz" placed (improved, axis)');
    expect(lines[5]).toBe('Westwall "Trier" improvement begun on turn 1 with quick construction, done on turn 3, 2 resource points');
    expect(lines[8]).toBe(
      'Westwall emergency restoration declared in Axis initial phase 1, restored in Axis initial phase 3; forfeited: resource-point reinforcements, civilian labour in every Wehrkreis with a Westwall fortification',
    );
    expect(lines[10]).toMatch(/^"night" over "2708": AA 2 -> 2, shifts -6 -> column -1, 2d6 1\+1 -3 = -1 -> no effect \[sha256:[0-9a-f]{12}\]$/);
    expect(lines[11]).toBe('allied gains fort "0912" from axis; fort "0912" removed (destroyed by the enemy gain)');
    expect(lines[12]).toBe('allied gains fortress "Metz" from axis; fortress "Metz" improved -> unimproved (enemy-gain)');
    expect(lines[13]).toBe('allied gains westwall "Trier" from axis; improvement of "Trier" cancelled');
    expect(lines[18]).toBe('turn 3, axis initial phase; Westwall restored (1 hex); westwall "Aachen" unimproved -> improved (emergency-restoration)');
    expect(lines[20]).toBe('turn 3, allied initial phase; westwall "Aachen" improved -> unimproved (allied-initial-phase)');
  });

  it('when AAFire: then AAFired with every step — strength, shifts, the table roll, the selections', () => {
    const { events } = apply(given([], withTestTable), ['axis', 'AAFire', p47Fire(), [4, 4, 1, 1, 1]]);
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({
      fireId: 'GS on 2708',
      hex: '2708',
      strength: { how: 'the non-naval AA in the hex', total: 11, strength: 11, text: '11' },
      resolution: { table: { id: 'test-aa', example: false }, roll: { faces: [4, 4], natural: 8 }, code: '19' },
      escorts: [],
    });
  });

  it('escorts ride along, never fired at', () => {
    const airUnits = [{ unitId: 'P-51', type: 'F', df: 9, mission: 'escort' }, { unitId: 'B-26', type: 'B', df: 4 }];
    const { events } = apply(given([], withTestTable), ['allied', 'AAFire', p47Fire({ airUnits, germanOrAlliedShift: false }), [6, 6]]);
    expect(events[0].data).toMatchObject({ escorts: ['P-51'], force: [{ unitId: 'B-26', df: 3 }], shifts: [{ source: '1944–45', value: 1 }, { source: 'against 1 air unit', value: -3 }] });
  });

  it('refuses what is not a europa command', () => {
    expect(() => europaRuleset.decide(given([]), { type: 'Roll', payload: {} }, { actor: 'axis', dice: { roll: () => 1, drawn: [] }, now: '' })).toThrow(/not a europa command/);
    refused(given([]), ['axis', 'FortificationEvent', { action: 'gain', site: 'nowhere', side: 'axis' }], /^No fortification "nowhere" was placed\.$/);
  });

  it('has sides axis and allied, and lets either side or the organizer send each command', () => {
    expect(europaRuleset.sides(europaRuleset.options.parse({}))).toEqual(['axis', 'allied']);
    for (const spec of Object.values(europaRuleset.commands)) expect(spec.who).toEqual({ sides: 'all', organizer: true });
  });

  it('records the AA table in commit 1: a game created without one records the example, with its hash in the view', () => {
    const created = decideCreate(europaRuleset, { ruleset: 'europa', options: { ...europaRuleset.newGameOptions } }, 'c0ffee');
    expect(created.data).toMatchObject({ ruleset: 'europa', sides: ['axis', 'allied'], options: { aaTable: { id: 'europa-aa-example', example: true }, otherEuropaGames: false } });
    expect(() => canonicalJson(created)).not.toThrow();
  });

  it('publishes its options, commands, procedures, view and events as JSON Schema, as the catalogue and OpenAPI do', () => {
    const entry = rulesetEntry(europaRuleset);
    expect(entry).toMatchObject({ id: 'europa', sides: ['axis', 'allied'] });
    expect(entry.commands.map((c) => c.type)).toEqual(expect.arrayContaining(['AAFire', 'FortificationEvent']));
    expect(JSON.stringify(entry.options)).toContain('europa-aa-example');
    for (const schema of Object.values(europaRuleset.events!)) expect(jsonSchema(schema, 'output')).toHaveProperty('type', 'object');
  });
});
