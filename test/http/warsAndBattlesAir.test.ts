import { describe, expect, it } from 'vitest';
import { RULE } from '../../domain/rulesets/warsandbattles/rules';
import { declaration, options } from '../domain/rulesets/warsandbattles/harness';
import { useTestServer } from '../support/httpClient';

const server = useTestServer();

/** A new game over HTTP: the server records rules version 2 for it (issue 31). */
async function newGame(over: Record<string, unknown> = {}) {
  const { client } = server;
  const game = await client.createGame({ ruleset: 'wars-and-battles', title: 'Omaha, air', options: options(over) });
  let n = 0;
  const send = (token: string, type: string, payload: unknown = {}) => client.command(game.gameId, token, { commandId: `air${++n}`, type, payload });
  return { game, send, allied: game.tokens.players.allied };
}

describe('Wars and Battles air missions over HTTP (rules version 2)', () => {
  it('an air mission in storm is refused with 422 citing 4.2.2: air support and a heavy bomber\'s bombardment; the game is unchanged', async () => {
    const { game, send, allied } = await newGame({ weather: 'storm' });
    const created = (await server.client.get(`/games/${game.gameId}/export`, game.tokens.organizer)).body.commits[0];
    expect(created.command.payload.options.rulesVersion).toBe(2);

    const support = await send(allied, 'DeclareAttack', declaration('a1', { support: [{ unitId: 'us-air', points: 10 }] }));
    expect([support.status, support.body.error.code]).toEqual([422, 'rule_violation']);
    expect(support.body.error.details.rule).toBe(RULE.storm);
    expect(support.body.error.details.rule).toMatch(/§4\.2\.2/);
    expect(support.body.error.message).toMatch(/us-air is an air unit and the weather is storm/);

    const bombing = await send(allied, 'Bombard', { targetHex: '0812', targets: ['gr-916'], bombarders: [{ unitId: 'us-bomber', points: 20 }], identification: 'identified' });
    expect([bombing.status, bombing.body.error.details.rule]).toEqual([422, RULE.storm]);

    const view = await server.client.get(`/games/${game.gameId}`, allied);
    expect(view.body.state.weather).toBe('storm');
    expect(view.body.state.openAttack).toBeNull();
    // Artillery fires in any weather.
    const guns = await send(allied, 'Bombard', { targetHex: '0812', targets: ['gr-916'], bombarders: [{ unitId: 'us-art', points: 20, range: 2 }], identification: 'identified' });
    expect(guns.status, guns.text).toBe(201);
  });

  it('a heavy bomber aborted by AA delivers nothing (7.5.2): no roll, the target untouched', async () => {
    const { game, send, allied } = await newGame();
    const before = (await server.client.get(`/games/${game.gameId}`, allied)).body.state.units.find((u: { unitId: string }) => u.unitId === 'gr-916');
    const aborted = await send(allied, 'Bombard', {
      targetHex: '0812',
      targets: ['gr-916'],
      bombarders: [{ unitId: 'us-bomber', points: 20 }],
      identification: 'identified',
      antiAircraft: [{ unitId: 'us-bomber', lp: 1, aborted: true }],
    });
    expect(aborted.status, aborted.text).toBe(201);
    const commits = (await server.client.get(`/games/${game.gameId}/export`, allied)).body.commits;
    const last = commits.at(-1);
    expect(last.events.map((e: { type: string }) => e.type)).toEqual(['UnitsActivated', 'AntiAircraftLosses', 'FatigueGained', 'AirMissionsCancelled']);
    expect(last.dice ?? []).toEqual([]);
    const units = (await server.client.get(`/games/${game.gameId}`, allied)).body.state.units;
    expect(units.find((u: { unitId: string }) => u.unitId === 'gr-916')).toEqual(before);
    expect(units.find((u: { unitId: string }) => u.unitId === 'us-bomber')).toMatchObject({ lp: 3, attackedThisTurn: true });
  });
});
