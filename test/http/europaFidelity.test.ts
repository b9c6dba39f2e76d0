import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/httpClient';
import { p47Fire, TEST_AA_TABLE } from '../domain/rulesets/europa/harness';

const server = useTestServer();

/** The seed's P-47 example as the seed gives it: Jun II 44, 11 German AA, four P-47D25 (8F9) on GS; no claim of the +1. */
const { germanOrAlliedShift: _claim, ...seedP47 } = p47Fire();

describe('Europa rules fidelity over HTTP (issue 31)', () => {
  it("a new game's AAFire puts the seed's P-47 example on column 17 without any claim of the German +1, and refuses a contradicting flag (422)", async () => {
    const { client } = server;
    const game = await client.createGame({ ruleset: 'europa', title: 'Second Front, Jun II 44', options: { aaTable: TEST_AA_TABLE } });
    const created = (await client.get(`/games/${game.gameId}/export`, game.tokens.organizer)).body.commits[0];
    expect(created.command.payload.options.rulesVersion).toBe(3);

    const reply = await client.command(game.gameId, game.tokens.players.axis, { commandId: 'p47', type: 'AAFire', payload: seedP47 });
    expect(reply.status, reply.text).toBe(201);
    const fired = reply.body.commit.events[0].data;
    expect(fired.resolution.landing).toMatchObject({ landedColumn: { label: '10' }, column: { label: '17' } });
    expect(fired.shifts).toEqual([
      { source: '1944–45', value: 1 },
      { source: 'German AA of 7 or more', value: 1 },
      { source: 'against 4 air units', value: 0 },
    ]);

    const denied = await client.command(game.gameId, game.tokens.players.axis, { commandId: 'denied', type: 'AAFire', payload: { ...seedP47, fireId: 'denied', germanOrAlliedShift: false } });
    expect([denied.status, denied.body.error?.code]).toEqual([422, 'rule_violation']);
    expect(denied.body.error.details.rule).toMatch(/37L column shifts/);
    expect((await client.get(`/games/${game.gameId}`, game.tokens.organizer)).body.state).toMatchObject({ fires: 1, lastFire: { fireId: 'GS on 2708', column: '17' } });
  });

  it("POST /rulesets/europa/evaluate puts the same fire on column 17 without any claim: 8 gives 19 against 24, returned, aborted, returned, the 4th unaffected", async () => {
    const reply = await server.client.post('/rulesets/europa/evaluate', { procedure: 'aaFire', input: { ...seedP47, table: TEST_AA_TABLE }, dice: [4, 4, 1, 1, 1] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.result).toEqual({
      column: '17',
      roll: 8,
      result: 19,
      units: [
        { unitId: 'P-47 1', effect: 'returns' },
        { unitId: 'P-47 2', effect: 'aborts' },
        { unitId: 'P-47 3', effect: 'returns' },
        { unitId: 'P-47 4', effect: 'unaffected' },
      ],
    });
    // On the bundled example table too, the fire reaches column 17 (refused only because the example knows no roll but 8).
    const example = await server.client.post('/rulesets/europa/evaluate', { procedure: 'aaFire', input: seedP47, dice: [4, 4, 1, 1, 1] });
    expect(example.status).toBe(422);
    expect(example.body.error.message).toMatch(/column 17 for rolls of 2, 3, 4, 5, 6, 7, 9, 10, 11, 12/);
    // A calculator asked for rules version 2 plays the claim as before: without it, column 14.
    const v2 = await server.client.post('/rulesets/europa/evaluate', { procedure: 'aaFire', input: { ...seedP47, table: TEST_AA_TABLE }, options: { rulesVersion: 2 }, dice: [4, 4, 1, 1, 1] });
    expect([v2.status, v2.body.result?.column]).toEqual([200, '14']);
  });
});
