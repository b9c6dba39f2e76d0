import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../support/httpClient';
import { run, writeTemp } from '../../support/runCli';
import { p47Fire, TEST_AA_TABLE } from '../../domain/rulesets/europa/harness';
import { SCRIPT } from '../../domain/rulesets/europa/samples';

const server = useTestServer();

describe('a Europa game over HTTP', () => {
  it('fires AA on the table its players bring, keeps each hex\'s fortification, refuses with the rule, and verifies offline', async () => {
    const { client } = server;
    const broken = structuredClone(TEST_AA_TABLE);
    broken.cells[3][5] = 'no-such-code';
    const refused = await client.post('/games', { ruleset: 'europa', options: { aaTable: broken } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error.details)).toContain('options.aaTable.cells[3][5]');

    const game = await client.createGame({ ruleset: 'europa', title: 'Second Front, Jun II 44', options: { aaTable: TEST_AA_TABLE } });
    const tokens: Record<string, string> = { ...game.tokens.players, organizer: game.tokens.organizer };
    let n = 0;
    // The ruleset's scripted game, every step through HTTP with the server's own dice.
    for (const [actor, type, payload] of SCRIPT) {
      const reply = await client.command(game.gameId, tokens[actor], { commandId: `e${++n}`, type, payload }, { accept: 'text/plain' });
      // With the server's dice an AA fire may affect other units than the scripted one; every step is still accepted.
      expect(reply.status, `${type} ${JSON.stringify(payload)}: ${reply.text}`).toBe(201);
      // An AA fire's line names the table it was read on by its content hash.
      if (type === 'AAFire') expect(reply.text).toMatch(/sha256:[0-9a-f]{12}/);
    }
    const cargo = await client.command(game.gameId, tokens.axis, { commandId: `e${++n}`, type: 'AAFire', payload: p47Fire({ fireId: 'cargo', mission: 'naval-in-port', aa: [{ unitId: 'Freighter', aa: 3, naval: true, cargo: true }] }) });
    expect([cargo.status, cargo.body.error?.code]).toEqual([422, 'rule_violation']);
    const early = await client.command(game.gameId, tokens.axis, { commandId: `e${++n}`, type: 'AAFire', payload: p47Fire({ fireId: 'early', date: 'Nov II 42' }) });
    expect([early.status, early.body.error?.code]).toEqual([422, 'rule_violation']);

    const view = await client.get(`/games/${game.gameId}`, tokens.allied);
    expect(JSON.stringify(view.body.state)).toContain(TEST_AA_TABLE.id);

    await client.command(game.gameId, tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    const file = writeTemp('europa.json', (await client.get(`/games/${game.gameId}/export`, tokens.allied)).text);
    const cli = await run('node', ['bin/arbiter.mjs', 'verify', file, '--trust', server.local.service.signer.fingerprint]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);
  });

  it('records the bundled example AA table in a game created without one, and refuses a fire it cannot resolve before any die', async () => {
    const { client } = server;
    const game = await client.createGame({ ruleset: 'europa' });
    const created = (await client.get(`/games/${game.gameId}/export`, game.tokens.organizer)).body.commits[0];
    expect(created.command.payload.options.aaTable.example).toBe(true);
    const fire = await client.command(game.gameId, game.tokens.players.axis, { commandId: 'f1', type: 'AAFire', payload: p47Fire() });
    expect(fire.status).toBe(422);
    expect(fire.body.error.details.rule).toMatch(/table|example/i);
    // Refused before any die: the next accepted command still gets the dice of seq 2.
    expect((await client.get(`/games/${game.gameId}`, game.tokens.organizer)).body.version).toBe(1);
  });
});
