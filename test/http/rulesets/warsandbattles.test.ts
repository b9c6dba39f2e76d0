import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../support/httpClient';
import { run, writeTemp } from '../../support/runCli';
import { declaration, options, TEST_COMBAT_TABLE } from '../../domain/rulesets/warsandbattles/harness';

const server = useTestServer();

describe('a Wars and Battles game over HTTP', () => {
  it('is played on the tables its players bring, refuses a malformed one naming the cell, and verifies offline', async () => {
    const { client } = server;
    const broken = structuredClone(TEST_COMBAT_TABLE);
    broken.cells[4][2] = 'no-such-code';
    const refused = await client.post('/games', { ruleset: 'wars-and-battles', options: options({ tables: { ...options().tables, combat: broken } }) });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error.details)).toContain('options.tables.combat.cells[4][2]');

    const game = await client.createGame({ ruleset: 'wars-and-battles', title: 'Omaha, turn 1', options: options() });
    const { allied, axis } = game.tokens.players;
    let n = 0;
    const send = (token: string, type: string, payload: unknown = {}, headers?: Record<string, string>) => client.command(game.gameId, token, { commandId: `w${++n}`, type, payload }, headers);

    expect((await send(allied, 'Activate', { unitIds: ['us-inf-1', 'us-arm'] })).status).toBe(201);
    const declared = await send(allied, 'DeclareAttack', declaration('a1', { attackers: [{ unitId: 'us-inf-1', hex: '0811' }, { unitId: 'us-arm', hex: '0811' }], support: [{ unitId: 'us-air', points: 10 }] }));
    expect(declared.status, declared.text).toBe(201);
    const twice = await send(allied, 'DeclareAttack', declaration('a2', { attackers: [{ unitId: 'us-arm', hex: '0811' }], defenders: ['gr-915'], targetHex: '0813' }));
    expect([twice.status, twice.body.error.code]).toEqual([422, 'rule_violation']);
    const resolved = await send(allied, 'ResolveAttack', { attackId: 'a1', retreats: [{ unitId: 'gr-916', route: 'open' }] }, { accept: 'text/plain' });
    expect(resolved.status, resolved.text).toBe(201);
    expect(resolved.text).toMatch(/^#4 allied ResolveAttack a1: column \d+:\d+, 2d6 \d+ /);
    expect((await send(allied, 'EndImpulse')).status).toBe(201);
    expect((await send(axis, 'Bombard', { targetHex: '0811', targets: ['us-inf-1'], bombarders: [{ unitId: 'de-art', points: 15, range: 3 }], identification: 'recognized' })).status).toBe(201);
    expect((await send(axis, 'EndImpulse')).status).toBe(201);
    expect((await send(game.tokens.organizer, 'EndTurn', { outOfSupply: [] })).status).toBe(201);

    const view = await client.get(`/games/${game.gameId}`, axis);
    expect(view.status).toBe(200);
    expect(JSON.stringify(view.body.state)).toContain(TEST_COMBAT_TABLE.id);

    await client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    const file = writeTemp('wars-and-battles.json', (await client.get(`/games/${game.gameId}/export`, allied)).text);
    const cli = await run('node', ['bin/arbiter.mjs', 'verify', file, '--trust', server.local.service.signer.fingerprint]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);
  });

  it('records the bundled example tables in a game created without tables, and refuses what they do not prove with the table\'s rule', async () => {
    const { client } = server;
    const game = await client.createGame({ ruleset: 'wars-and-battles', options: { units: options().units.filter((u) => u.kind !== 'commander') } });
    const created = (await client.get(`/games/${game.gameId}/export`, game.tokens.organizer)).body.commits[0];
    expect(created.command.payload.options.tables.combat.example).toBe(true);
    const { allied } = game.tokens.players;
    await client.command(game.gameId, allied, { commandId: 'x1', type: 'Activate', payload: { unitIds: ['us-inf-1'] } });
    // 4 against 2 in marshes (the one terrain the manual's examples give): 2:1, which its worked example (6:1) does not cover.
    const declared = await client.command(game.gameId, allied, { commandId: 'x2', type: 'DeclareAttack', payload: declaration('a1', { terrain: 'marshes' }) });
    const resolved = declared.status === 201 ? await client.command(game.gameId, allied, { commandId: 'x3', type: 'ResolveAttack', payload: { attackId: 'a1' } }) : declared;
    expect(resolved.status).toBe(422);
    expect(resolved.body.error.details.rule).toMatch(/table|example/i);
  });
});
