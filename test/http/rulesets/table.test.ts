import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../support/httpClient';
import { run, writeTemp } from '../../support/runCli';

const server = useTestServer();
const example = (name: string) => JSON.parse(readFileSync(new URL(`../../../docs/examples/tables/${name}.json`, import.meta.url), 'utf8'));

describe('combat tables as data over HTTP', () => {
  it('publishes the table format as JSON Schema and validates a table, naming where it is wrong', async () => {
    const { client } = server;
    const schema = await client.get('/schemas/table.json');
    expect(schema.status).toBe(200);
    expect(schema.body.properties).toHaveProperty('cells');
    expect(schema.body.properties).toHaveProperty('columns');

    const table = example('france44-crt-set-piece');
    const valid = await client.post('/tables/validate', table);
    expect(valid.status).toBe(200);
    expect(valid.body).toEqual({ valid: true, id: table.id, hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });

    const broken = structuredClone(table);
    broken.cells[2][4] = 'ZZ';
    const invalid = await client.post('/tables/validate', broken);
    expect(invalid.status).toBe(200);
    expect(invalid.body.valid).toBe(false);
    expect(invalid.body.issues.map((i: { path: string }) => i.path)).toContain('cells[2][4]');

    expect((await client.request('POST', '/tables/validate', { raw: 'not json', headers: { 'content-type': 'application/json' } })).status).toBe(400);
  });

  it('plays a game on tables it brings, answers a malformed table with 400 naming the cell and an input off the table with 422, and verifies offline', async () => {
    const { client } = server;
    const setPiece = example('france44-crt-set-piece');
    const broken = structuredClone(setPiece);
    broken.cells[0].pop();
    const refused = await client.post('/games', { ruleset: 'table', options: { tables: [broken] } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error.details)).toContain('options.tables[0].cells[0]');

    const game = await client.createGame({ ruleset: 'table', title: 'club night', options: { tables: [setPiece] } });
    const { player1 } = game.tokens.players;
    const hash = (await client.post('/tables/validate', setPiece)).body.hash as string;
    const view = await client.get(`/games/${game.gameId}`, player1);
    expect(view.body.state.tables).toEqual([{ id: setPiece.id, title: setPiece.title, hash, example: false }]);

    const resolved = await client.command(game.gameId, player1, { commandId: 'c1', type: 'Resolve', payload: { table: setPiece.id, attack: 12, defence: 4, shifts: [{ source: 'morale', value: 1 }], purpose: 'attack on 0912' } }, { accept: 'text/plain' });
    expect(resolved.status).toBe(201);
    expect(resolved.text).toContain(hash.slice(0, 'sha256:'.length + 12));
    expect(resolved.text).toMatch(/4-1/);

    const below = await client.command(game.gameId, player1, { commandId: 'c2', type: 'Resolve', payload: { table: setPiece.id, attack: 1, defence: 5 } });
    expect(below.status).toBe(422);
    expect(below.body.error.details.rule).toMatch(/belowFirst/);
    const unknown = await client.command(game.gameId, player1, { commandId: 'c3', type: 'Resolve', payload: { table: 'no-such-table', attack: 3, defence: 1 } });
    expect([unknown.status, unknown.body.error.message]).toEqual([422, `This game has no table "no-such-table": its tables are ${setPiece.id}.`]);

    await client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    const file = writeTemp('table-game.json', (await client.get(`/games/${game.gameId}/export`, player1)).text);
    const cli = await run('node', ['bin/arbiter.mjs', 'verify', file, '--trust', server.local.service.signer.fingerprint]);
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);
  });

  it('resolves on a table given with the request through /evaluate, with the dice given', async () => {
    const table = example('france44-crt-set-piece');
    const reply = await server.client.post('/rulesets/table/evaluate', { procedure: 'resolve', input: { table, attack: 6, defence: 2 }, dice: [4] });
    expect(reply.status).toBe(200);
    expect(reply.body.result).toMatchObject({ column: '3-1', roll: 4 });
    expect(reply.body.dice).toEqual([{ sides: 6, value: 4 }]);
    expect(reply.body.result.code).toBe(table.cells[3][7]);
  });
});
