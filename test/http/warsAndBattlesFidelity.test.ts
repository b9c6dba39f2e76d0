import { describe, expect, it } from 'vitest';
import { useTestServer, type TestClient } from '../support/httpClient';
import { declaration, options, TEST_COMBAT_TABLE, TEST_TABLES } from '../domain/rulesets/warsandbattles/harness';

const server = useTestServer();

/** The test combat table with every cell "0/4": whatever the server's dice, the defender loses 4 LP, the attacker none, no retreat. */
const fourLpTable = { ...structuredClone(TEST_COMBAT_TABLE), id: 'test-combat-four-lp', cells: TEST_COMBAT_TABLE.cells.map((row) => row.map(() => '0/4')) };
/** An Axis infantry unit whose values differ at each status level. */
const graded = { unitId: 'gr-graded', side: 'axis', kind: 'infantry', quality: 'veteran', maxLp: 8, attack: [1, 2, 3, 4], defence: [1, 2, 3, 4] };

async function newGame(client: TestClient, over: Record<string, unknown> = {}) {
  const game = await client.createGame({ ruleset: 'wars-and-battles', options: options({ units: [...options().units, graded], ...over }) });
  let n = 0;
  const send = (token: string, type: string, payload: unknown = {}) => client.command(game.gameId, token, { commandId: `f${++n}`, type, payload });
  return { game, send, allied: game.tokens.players.allied };
}

const unitInView = async (client: TestClient, gameId: string, token: string, unitId: string) =>
  ((await client.get(`/games/${gameId}`, token)).body.state.units as { unitId: string }[]).find((u) => u.unitId === unitId) as Record<string, unknown>;

describe('Wars and Battles rules version 2 over HTTP (issue 31)', () => {
  it('a new game plays version 2: a defender that loses LP shows its lower status and defence in the game view (3.2)', async () => {
    const { client } = server;
    const { game, send, allied } = await newGame(client, { tables: { ...TEST_TABLES, combat: fourLpTable } });
    const created = (await client.get(`/games/${game.gameId}/export`, game.tokens.organizer)).body.commits[0];
    expect(created.command.payload.options.rulesVersion).toBe(2);
    expect(await unitInView(client, game.gameId, allied, 'gr-graded')).toMatchObject({ lp: 8, status: 4, attack: 4, defence: 4 });

    expect((await send(allied, 'DeclareAttack', declaration('a1', { attackers: [{ unitId: 'us-arm', hex: '0811' }], defenders: ['gr-graded'] }))).status).toBe(201);
    const resolved = await send(allied, 'ResolveAttack', { attackId: 'a1' });
    expect(resolved.status, resolved.text).toBe(201);
    // 8 LP less 4: level 2 of the four equal bands (3–4 LP), defence 2.
    expect(await unitInView(client, game.gameId, allied, 'gr-graded')).toMatchObject({ lp: 4, status: 2, attack: 2, defence: 2 });
  });

  it('a Tiger defending shifts the ratio one column to the defender (10.1.1), in a game and in the calculator', async () => {
    const { client } = server;
    const { game, send, allied } = await newGame(client);
    const declared = await send(allied, 'DeclareAttack', declaration('a1', { attackers: [{ unitId: 'us-arm', hex: '0811' }, { unitId: 'us-mech', hex: '0811' }], defenders: ['tiger'] }));
    expect(declared.status, declared.text).toBe(201);
    const commits = (await client.get(`/games/${game.gameId}/events`, allied)).body.commits as { events: { type: string; data: any }[] }[];
    const attack = commits.flatMap((c) => c.events).find((e) => e.type === 'AttackDeclared')!.data;
    // 8 + 6 against 6 is 2:1 (2.33 to the nearest); the defending Tiger's C1 moves it to 1:1.
    expect(attack.shifts.filter((s: { value: number }) => s.value !== 0)).toEqual([{ source: 'Tiger defending', value: -1 }]);
    expect(attack.landing).toMatchObject({ rounded: '2:1', column: { label: '1:1' } });

    const evaluate = (defenders: unknown[]) =>
      client.post('/rulesets/wars-and-battles/evaluate', {
        procedure: 'combat',
        input: { attackerSide: 'allied', attackers: [{ kind: 'armored', attack: 16 }], defenders, terrain: 'hedgerows', terrainTable: [{ terrain: 'hedgerows', c: 0 }], tables: { combat: TEST_COMBAT_TABLE } },
        dice: [3, 4],
      });
    const plain = await evaluate([{ kind: 'armored', defence: 6 }]);
    const tiger = await evaluate([{ kind: 'armored', defence: 6, tiger: true }]);
    expect([plain.status, tiger.status]).toEqual([200, 200]);
    expect([plain.body.result.column, tiger.body.result.column]).toEqual(['3:1', '2:1']);
  });

  it('refuses with 422 citing the rule: an attack by a unit that moved strategically (6.3), a fourth defender in one hex (8.1)', async () => {
    const { client } = server;
    const { game, send, allied } = await newGame(client);
    expect((await send(allied, 'Activate', { unitIds: ['us-inf-1'], strategic: true })).status).toBe(201);
    const strategic = await send(allied, 'DeclareAttack', declaration('a1'));
    expect([strategic.status, strategic.body.error.code]).toEqual([422, 'rule_violation']);
    expect(strategic.body.error.details.rule).toMatch(/§6\.3/);
    expect(strategic.body.error.message).toMatch(/us-inf-1 moved strategically this turn/);

    const stacked = await send(allied, 'DeclareAttack', declaration('a2', { attackers: [{ unitId: 'us-arm', hex: '0811' }], defenders: ['gr-916', 'gr-915', 'gr-914', 'pz-iv'] }));
    expect([stacked.status, stacked.body.error.code]).toEqual([422, 'rule_violation']);
    expect(stacked.body.error.details.rule).toMatch(/§8\.1/);
    expect(stacked.body.error.message).toMatch(/holds 4 units that count for stacking/);

    const events = (await client.get(`/games/${game.gameId}/events`, allied)).body.commits as unknown[];
    expect(events).toHaveLength(2);
  });

  it('the calculator plays what a new game plays: a fight in the open, with no options, on the bundled terrain list (7.4.8)', async () => {
    const reply = await server.client.post('/rulesets/wars-and-battles/evaluate', {
      procedure: 'combat',
      input: { attackerSide: 'allied', attackers: [{ kind: 'armored', attack: 8 }], defenders: [{ kind: 'infantry', defence: 2 }], terrain: 'clear', tables: { combat: TEST_COMBAT_TABLE } },
      dice: [3, 4],
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.breakdown.shifts).toContainEqual({ source: 'clear terrain: armored attacker against infantry', value: 2 });
  });
});
