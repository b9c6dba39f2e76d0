import { describe, expect, it } from 'vitest';
import { oracleAttack } from '../../independent/normandy44-combat.mjs';
import { randomAttacks } from '../../domain/rulesets/normandy44/randomAttacks';
import { agreesOverHttp, useTestServer } from '../../support/httpClient';
import { run, writeTemp } from '../../support/runCli';

const server = useTestServer();

describe('a Normandy \'44 game over HTTP', () => {
  it('plays attacks, Determined Defense and reinforcements, and verifies offline', async () => {
    const { client } = server;
    const game = await client.createGame({ ruleset: 'normandy44', title: 'Carentan' });
    const { allied, german } = game.tokens.players;
    let n = 0;
    const send = (token: string, type: string, payload: unknown = {}) => client.command(game.gameId, token, { commandId: `c${++n}`, type, payload });
    const ok = async (token: string, type: string, payload?: unknown) => {
      const reply = await send(token, type, payload);
      expect(reply.status, `${type}: ${reply.text}`).toBe(201);
      return reply.body.commit;
    };

    await ok(game.tokens.organizer, 'StartTurn', { turn: 1, reinforcementPoints: 7 });
    await ok(allied, 'MulberryBuilt', { army: 'omaha' });
    const bought = await ok(allied, 'PurchaseReinforcements', { items: [{ kind: 'supply-point', army: 'omaha' }, { kind: 'us-regiment' }] });
    expect(bought.events[0].data).toMatchObject({ cost: 6, pointsLeft: 1 });
    const over = await send(allied, 'PurchaseReinforcements', { items: [{ kind: 'hq' }] });
    expect([over.status, over.body.error.code]).toEqual([422, 'rule_violation']);
    expect((await send(german, 'PurchaseReinforcements', { items: [{ kind: 'hq' }] })).status).toBe(403);

    // A German attack in clear weather: Jabos die first, then the combat die.
    await ok(german, 'DeclareAttack', {
      attackId: 'g1',
      weather: 'clear',
      defenderHex: { terrain: 'bocage' },
      attackers: [{ unitId: '6FJ', factors: 8, mainAttackForce: true }, { unitId: '17SS', factors: 9, mainAttackForce: true, hexside: 'minor-river' }, { unitId: 'StuG', factors: 4, mainAttackForce: false }],
      defenders: [{ unitId: '101Abn', factors: 3, steps: 3 }],
      shifts: { troopQuality: 'defender', tiger: 'attacker', armorAdvantage: 'attacker' },
    });
    const resolved = await ok(german, 'ResolveAttack', { attackId: 'g1' });
    const data = resolved.events[0].data;
    expect(resolved.dice).toHaveLength(2);
    expect(data.breakdown).toMatchObject({ odds: '14.5:6', baseColumn: '2-1', jabos: { die: resolved.dice[0].value }, die: resolved.dice[1].value });
    expect(data.breakdown.attackers.map((a: { counted: number }) => a.counted)).toEqual([8, 4.5, 2]);
    expect(data.breakdown.shifts.find((s: { shift: string }) => s.shift.startsWith('armor')).applied).toBe(true);

    const ddBy = async (token: string) => send(token, 'DeterminedDefense', { attackId: 'g1', leadUnitId: '101Abn', troopQuality: 1, defensiveSupport: true });
    if (data.determinedDefenseAllowed) {
      expect((await ddBy(german)).status).toBe(403);
      const dd = await ddBy(allied);
      expect(dd.status, dd.text).toBe(201);
      expect(dd.body.commit.events[0].data).toMatchObject({ column: 'other', modifiers: [{ value: 1 }, { value: 1 }] });
      expect((await ddBy(allied)).status).toBe(422);
    } else {
      expect((await ddBy(allied)).status).toBe(422);
    }

    await ok(allied, 'Strafe', { targetUnitId: '17SS', flak: true });
    await ok(german, 'IsolationAttrition', { unitId: '709', canTraceSupply: false, troopQuality: 0 });
    await ok(allied, 'StartTurn', { turn: 2, reinforcementPoints: 4 });

    const log = await client.get(`/games/${game.gameId}/events?limit=1000`, allied, { accept: 'text/plain' });
    expect(log.text).toMatch(/german ResolveAttack g1: 14.5:6 -> 2-1, Jabos die \d \(-?\d\), shifts [+-]?\d+, column [0-9-+]+, die \d -> \S+ \(attacker -\d, defender -\d/);
    expect(log.text).toContain('allied StartTurn turn 2, 4 reinforcement points (1 unspent lost)');

    await ok(game.tokens.organizer, 'Seal');
    const file = writeTemp('normandy44.json', (await client.get(`/games/${game.gameId}/export`, german)).text);
    const cli = await run('node', ['bin/arbiter.mjs', 'verify', file, '--trust', server.local.service.signer.fingerprint]);
    expect(cli.code, cli.stdout).toBe(0);
    expect(cli.stdout).toContain('normandy44 ruleset');
  });

  // The domain checks 5,000 attacks against the oracle (test/domain/rulesets/normandy44/oracle.test.ts): here, that HTTP serves the same.
  it('/evaluate answers 20 seeded attacks as the independent implementation does: 200 with its result, or 422', async () => {
    const oracle = (c: { input: unknown; dice: number[] }) => {
      const { dice: _used, ...result } = oracleAttack(c.input, c.dice);
      return result;
    };
    const compared = await agreesOverHttp(server.client, 'normandy44', 'combat', randomAttacks(20, 1066), oracle, (a, e, label) => expect(a, label).toEqual(e));
    expect(compared).toBe(13);
  });
});
