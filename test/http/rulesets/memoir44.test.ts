import { describe, expect, it } from 'vitest';
import { oracleBattle } from '../../independent/memoir44-battle.mjs';
import { randomBattles } from '../../domain/rulesets/memoir44/randomBattles';
import { agreesOverHttp, useTestServer } from '../../support/httpClient';
import { run, writeTemp } from '../../support/runCli';

const server = useTestServer();

describe('a Memoir \'44 d6 game over HTTP', () => {
  it('holds the turn and one-battle rules, writes chat lines, and verifies offline', async () => {
    const { client } = server;
    const game = await client.createGame({ ruleset: 'memoir44-d6', title: 'Pegasus Bridge' });
    const { allies, axis } = game.tokens.players;
    let n = 0;
    const send = (token: string, type: string, payload: unknown = {}, headers?: Record<string, string>) =>
      client.command(game.gameId, token, { commandId: `m${++n}`, type, payload }, headers);
    const armored = { attacker: { unitId: '2nd Armored', type: 'armor', figures: 3 }, target: { unitId: 'Grenadiers', type: 'infantry', figures: 4, terrain: 'forest' }, range: 2 };

    const first = await send(allies, 'Battle', armored, { accept: 'text/plain' });
    expect(first.status).toBe(201);
    expect(first.text).toMatch(/^#2 allies Battle 2nd Armored -> Grenadiers \(range 2, forest -2\): (\d ){5}\d -> \d+ hits?, \d+ flags? \[[0-9a-f]{8}\]\n$/);
    const again = await send(allies, 'Battle', { ...armored, target: { ...armored.target, unitId: 'Pioneers' } });
    expect([again.status, again.body.error.message]).toEqual([422, '2nd Armored already battled this turn.']);
    const outOfTurn = await send(axis, 'Battle', { attacker: { unitId: 'Pioneers', type: 'infantry', figures: 3 }, target: { unitId: '1st Inf', type: 'infantry', figures: 4 }, range: 1 });
    expect([outOfTurn.status, outOfTurn.body.error.message]).toEqual([422, "It is the allies side's turn: only it may battle."]);
    const impossible = await send(allies, 'Battle', { attacker: { unitId: 'Shermans', type: 'armor', figures: 3, terrain: 'town' }, target: { unitId: 'Grenadiers', type: 'infantry', figures: 4, terrain: 'forest' }, range: 2 });
    expect(impossible.status).toBe(422);
    expect(impossible.body.error.message).toMatch(/No die can hit/);
    expect((await send(axis, 'CardRoll', { dice: 2, purpose: 'Barrage' })).status).toBe(201);
    expect((await send(allies, 'EndTurn')).status).toBe(201);
    expect((await send(axis, 'Battle', { attacker: { unitId: 'Pioneers', type: 'infantry', figures: 3 }, target: { unitId: '1st Inf', type: 'infantry', figures: 4 }, range: 1 })).status).toBe(201);
    expect((await send(axis, 'EndTurn')).status).toBe(201);
    expect((await send(allies, 'Battle', armored)).status).toBe(201);

    const view = await client.get(`/games/${game.gameId}`, axis);
    expect(view.body.state).toEqual({ turn: 3, activeSide: 'allies', battledThisTurn: ['2nd Armored'] });

    await client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    const file = writeTemp('memoir44.json', (await client.get(`/games/${game.gameId}/export`, allies)).text);
    const cli = await run('node', ['bin/arbiter.mjs', 'verify', file, '--trust', server.local.service.signer.fingerprint]);
    expect(cli.code, cli.stdout).toBe(0);
  });

  // The domain checks 5,000 battles against the oracle (test/domain/rulesets/memoir44/oracle.test.ts): here, that HTTP serves the same.
  it('/evaluate answers 20 seeded battles as the independent implementation does: 200 with its result, or 422', async () => {
    const oracle = (c: { input: unknown; dice: number[] }) => {
      const { used: _used, ...result } = oracleBattle(c.input, c.dice);
      return result;
    };
    const compared = await agreesOverHttp(server.client, 'memoir44-d6', 'battle', randomBattles(20, 1944), oracle, (a, e, label) => expect(a, label).toEqual(e));
    expect(compared).toBe(11);
  });
});
