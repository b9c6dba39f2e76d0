import { describe, expect, it } from 'vitest';
import { agreesOverHttp, useTestServer } from '../../support/httpClient';
import { run, writeTemp } from '../../support/runCli';
import { oracleCombat } from '../../independent/france44-combat.mjs';
import { randomCombats } from '../../domain/rulesets/france44/randomCombats';

const server = useTestServer();

const unit = (unitId: string, hex: string, strength: number, extra: Record<string, unknown> = {}) => ({ unitId, hex, strength, ...extra });

describe('a France 1944 turn over HTTP', () => {
  it('enforces the event-sourced rules, reads like a player\'s notes, and verifies offline', async () => {
    const { client } = server;
    const game = await client.createGame({ ruleset: 'france44', title: 'Normandy, June 1944', options: { cAttackerLoss: true } });
    expect(game.sides).toEqual(['allied', 'german']);
    const allied = game.tokens.players.allied;
    const german = game.tokens.players.german;
    let n = 0;
    const send = (token: string, type: string, payload: unknown = {}, extra: Record<string, unknown> = {}) =>
      client.command(game.gameId, token, { commandId: `cmd-${++n}`, type, payload, ...extra }, { accept: 'application/json' });
    const ok = async (token: string, type: string, payload?: unknown, extra?: Record<string, unknown>) => {
      const reply = await send(token, type, payload, extra);
      expect(reply.status, `${type}: ${reply.text}`).toBe(201);
      return reply.body.commit;
    };
    const refusedWith = async (status: number, pattern: RegExp, token: string, type: string, payload?: unknown) => {
      const reply = await send(token, type, payload);
      expect(reply.status, `${type}: ${reply.text}`).toBe(status);
      expect(reply.body.error.message).toMatch(pattern);
      if (status === 422) expect(reply.body.error.details.rule).toMatch(/France 1944|france44/);
    };

    await ok(game.tokens.organizer, 'ContributeEntropy', { entropy: 'tournament table 3' });
    await ok(game.tokens.organizer, 'StartTurn', { turn: 1, reactionPoints: { allied: 10, german: 6 } });

    // Initiative and reaction.
    await ok(german, 'ActivateHQ', { hqId: '7' });
    await ok(allied, 'ActivateHQ', { hqId: '1US' });
    await ok(german, 'BeginReactionSegment');
    await ok(german, 'ReactionPhase', { kind: 'single-piece', unitId: '21Pz', unitKind: 'combat', outOfSupply: true });
    await refusedWith(422, /21Pz was already activated/, german, 'ReactionPhase', { kind: 'single-piece', unitId: '21Pz', unitKind: 'combat' });
    const end = await ok(german, 'EndReactionSegment');
    expect(end.events[0].data).toEqual({ side: 'german', spent: 1, forfeited: 2, pointsLeft: 3 });

    // An allied attack increment: three combats declared, air power, resolved in any order.
    await ok(allied, 'BeginAttackIncrement');
    await refusedWith(422, /the allied side's: only it may declare/, german, 'DeclareCombat', {
      combatId: 'x', kind: 'set-piece', attackers: [unit('g1', '2708', 4)], defenders: [unit('a1', '2709', 4)], attackerMorale: 3, defenderMorale: 3,
    });
    const c1 = { combatId: 'c1', kind: 'set-piece', attackers: [unit('1Inf', '2708', 4), unit('29Inf', '2709', 3), unit('2Arm', '2709', 3)], defenders: [unit('352', '2809', 7)], attackerMorale: 4, defenderMorale: 3, terrainMoraleModifiers: [1] };
    await ok(allied, 'DeclareCombat', c1);
    await ok(allied, 'DeclareCombat', { combatId: 'c2', kind: 'mobile', attackers: [unit('3Arm', '1210', 9)], defenders: [unit('716', '1211', 2, { outOfSupply: true })], attackerMorale: 5, defenderMorale: 2 });
    await ok(allied, 'DeclareCombat', {
      combatId: 'c3', kind: 'set-piece', attackers: [unit('6Abn', '2005', 5), unit('79Arm', '2005', 1), { unitId: '1BrHQ', hex: '2005', hq: true }], defenders: [unit('711', '2006', 5)], attackerMorale: 4, defenderMorale: 4,
      otherMoraleModifiers: [{ source: '79th Armoured', value: -1 }, { source: 'heavy bombing', value: -2 }],
    });
    await refusedWith(422, /1Inf is already in another combat/, allied, 'DeclareCombat', { ...c1, combatId: 'c4' });
    await refusedWith(422, /at most 3 hexes|not all adjacent/, allied, 'DeclareCombat', {
      combatId: 'c5', kind: 'set-piece', attackers: [unit('a', '3001', 4)], defenders: [unit('d', '3005', 1)], attackerMorale: 3, defenderMorale: 3,
    });
    await refusedWith(403, /german side may not send RollAirPower/i, german, 'RollAirPower', { combatId: 'c1', availability: 4 });
    await ok(allied, 'RollAirPower', { combatId: 'c2', availability: 4 });
    await refusedWith(422, /already tried in this attack increment/, allied, 'RollAirPower', { combatId: 'c1', availability: 6 });
    await refusedWith(422, /Combat c1 is not resolved yet/, allied, 'EndAttackIncrement');

    const resolveText = await client.command(game.gameId, allied, { commandId: `cmd-${++n}`, type: 'ResolveCombat', payload: { combatId: 'c3' } }, { accept: 'text/plain' });
    expect(resolveText.status).toBe(201);
    expect(resolveText.text).toMatch(/^#\d+ allied ResolveCombat c3: 6:5 -> 1-1, morale \+3, control 0, column 3-1, die \d -> [A-F] \[[0-9a-f]{8}\]\n$/);
    await refusedWith(422, /locked: combat c3 was already resolved/, allied, 'DeclareCombat', {
      combatId: 'c6', kind: 'set-piece', attackers: [unit('b', '3001', 4)], defenders: [unit('e', '3002', 1)], attackerMorale: 3, defenderMorale: 3,
    });
    await refusedWith(422, /Combat c3 was already resolved/, allied, 'ResolveCombat', { combatId: 'c3' });
    const r1 = await ok(allied, 'ResolveCombat', { combatId: 'c1' });
    expect(r1.events[0].data).toMatchObject({ odds: '10:7', baseColumn: '1-1', morale: { adjustment: 1, adjustedDefender: 4, modifier: 0 }, control: { limit: 6, units: 3, modifier: 0 } });
    expect(r1.dice).toEqual([{ sides: 6, value: r1.events[0].data.die }]);
    await ok(allied, 'ResolveCombat', { combatId: 'c2' });
    await ok(allied, 'EndAttackIncrement');

    // The organizer may act for a side with "as", but not send a side's command as itself.
    const forbidden = await send(game.tokens.organizer, 'BeginAttackIncrement');
    expect(forbidden.status).toBe(403);
    await ok(game.tokens.organizer, 'BeginAttackIncrement', {}, { as: 'german' });
    await ok(german, 'EndAttackIncrement');

    await ok(german, 'ApplySupplyAttrition', { units: [{ unitId: '716', kind: 'combat', outOfSupply: true, atCadre: true }, { unitId: '84', kind: 'hq', outOfSupply: true }] });
    await refusedWith(422, /already applied supply attrition/, german, 'ApplySupplyAttrition', { units: [{ unitId: '711', kind: 'combat', outOfSupply: true }] });
    await ok(allied, 'StartTurn', { turn: 2 });
    await ok(german, 'ActivateHQ', { hqId: '7' });
    await refusedWith(422, /another german HQ must be activated/, german, 'ActivateHQ', { hqId: '7' });

    const view = await client.get(`/games/${game.gameId}`, german);
    expect(view.body.state).toMatchObject({ turn: 2, reactionPoints: { allied: 10, german: 3 }, incrementsPlayed: 2, attackIncrement: null });

    const log = await client.get(`/games/${game.gameId}/events?limit=1000`, allied, { accept: 'text/plain' });
    expect(log.text).toContain('german ReactionPhase single-piece reaction, 21Pz (out of supply: loses a step first): 1 point, 5 left');
    expect(log.text).toMatch(/allied RollAirPower c2: availability 4, die \d -> /);
    expect(log.text).toMatch(/german ApplySupplyAttrition supply attrition: 716 eliminated, HQ 84 dispersed/);

    await ok(game.tokens.organizer, 'Seal');
    const exported = await client.get(`/games/${game.gameId}/export`, german);
    const file = writeTemp('france44.json', exported.text);
    const cli = await run('node', ['bin/arbiter.mjs', 'verify', file, '--trust', server.local.service.signer.fingerprint]);
    expect(cli.stdout).toContain('every command replayed through the france44 ruleset');
    expect(cli.code, cli.stdout).toBe(0);
    const independent = await run('node', ['test/independent/fairness-v1-verifier.mjs', file]);
    expect(independent.code, independent.stdout).toBe(0);
  });
});

// The rules themselves are checked in the domain, on 5,000 random combats against the independent
// implementation (test/domain/rulesets/france44/properties.test.ts): here, what HTTP adds.
describe('/rulesets/france44/evaluate', () => {
  const post = (body: unknown) => server.client.post('/rulesets/france44/evaluate', body);
  const combat = { kind: 'mobile', attackers: [{ strength: 6 }], defenders: [{ strength: 2 }], attackerMorale: 3, defenderMorale: 3 };

  it('answers a dozen seeded combats as the independent implementation does: the result, its breakdown and the die, or 422', async () => {
    const cases = randomCombats(12, 6061944).map(({ combat, die }) => ({ input: combat, dice: [die, 6, 6] }));
    const compared = await agreesOverHttp(server.client, 'france44', 'combat', cases, (c) => oracleCombat(c.input, c.dice[0]), (a, e, label) => expect(a, label).toEqual(e));
    expect(compared).toBe(11);
    const [first] = cases;
    const reply = await post({ procedure: 'combat', input: first.input, dice: first.dice });
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(reply.body).sort()).toEqual(['breakdown', 'dice', 'result']);
    expect(reply.body.dice).toEqual([{ sides: 6, value: first.dice[0] }]);
    expect(reply.body.breakdown).toMatchObject({ die: first.dice[0], code: reply.body.result.code, column: reply.body.result.column });
  });

  it('rolls the die itself when none is given, and needs no token', async () => {
    const reply = await post({ procedure: 'combat', input: combat });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.dice).toEqual([{ sides: 6, value: expect.any(Number) }]);
    expect(reply.body.breakdown.die).toBe(reply.body.dice[0].value);
    expect(reply.body.dice[0].value).toBeGreaterThanOrEqual(1);
    expect(reply.body.dice[0].value).toBeLessThanOrEqual(6);
  });

  it('refuses an attack the rules forbid with 422 and the rule, in the error shape', async () => {
    const reply = await post({ procedure: 'combat', input: { ...combat, attackers: [{ strength: 1 }], defenders: [{ strength: 12 }] }, dice: [4] });
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body.error).toMatchObject({ code: 'rule_violation', message: expect.stringMatching(/1:12 are below 1-4/), details: { rule: expect.stringMatching(/^france44 /) } });
  });

  it('answers malformed requests with 400 naming the field', async () => {
    const fields = async (body: unknown) => {
      const reply = await post(body);
      expect(reply.status, reply.text).toBe(400);
      expect(reply.body.error.code).toBe('invalid_request');
      return reply.body.error.details.issues.map((issue: { field: string }) => issue.field);
    };
    expect(await fields({ procedure: 'combat', input: { ...combat, attackerMorale: 9 }, dice: [4] })).toEqual(['input.attackerMorale']);
    expect(await fields({ procedure: 'combat', input: combat, options: { hexGrid: 'square' }, dice: [4] })).toEqual(['options.hexGrid']);
    expect(await fields({ procedure: 'combat', input: combat, dice: [7] })).toEqual(['dice[0]']);
    expect(await fields({ procedure: 'retreat', input: {} })).toEqual(['procedure']);
  });

  it('serves the CRDT and air power procedures', async () => {
    const crdt = await server.client.post('/rulesets/france44/evaluate', { procedure: 'crdt', input: { ratioResult: 3, defenderMorale: 4, attackerMorale: 3, kind: 'mobile' } });
    expect(crdt.body).toMatchObject({ result: { code: 'E' }, dice: [] });
    const air = await server.client.post('/rulesets/france44/evaluate', { procedure: 'air-power', input: { availability: 2 }, dice: [3] });
    expect(air.body).toMatchObject({ result: { allocated: false }, breakdown: { die: 3, availability: 2 } });
    const none = await server.client.post('/rulesets/france44/evaluate', { procedure: 'combat', input: { kind: 'mobile', attackers: [{ strength: 6 }], defenders: [{ strength: 2 }], attackerMorale: 3, defenderMorale: 3 }, dice: [] });
    expect(none.body.error).toMatchObject({ code: 'insufficient_dice', details: { needed: 1 } });
  });
});
