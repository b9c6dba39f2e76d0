import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/httpClient';
import { run, writeTemp } from '../support/runCli';

const server = useTestServer();

describe('dice notation over HTTP (issue 36)', () => {
  it('a new game plays rules version 2: 4d6kh3, 6d6>=5, d66 and 1d6! are rolled, each commit listing its dice, each line marking dropped dice and successes', async () => {
    const game = await server.client.createGame({ ruleset: 'dice', title: 'notation' });
    const { player1 } = game.tokens.players;
    const created = await server.client.get(`/games/${game.gameId}/events?after=0`, player1);
    expect(JSON.stringify(created.body)).toContain('"rulesVersion":2');

    const lines: string[] = [];
    for (const [i, dice] of ['4d6kh3', '6d6>=5', 'd66', '1d6!', 'd%', '7d999'].entries()) {
      const reply = await server.client.command(game.gameId, player1, { commandId: `n${i}`, type: 'Roll', payload: { dice, purpose: `roll ${i}` } });
      expect(reply.status, reply.text).toBe(201);
      const [rolled] = reply.body.commit.events;
      expect(reply.body.commit.dice).toEqual(rolled.data.rolls);
      const text = await server.client.command(game.gameId, player1, { commandId: `n${i}`, type: 'Roll', payload: { dice, purpose: `roll ${i}` } }, { accept: 'text/plain' });
      lines.push(text.text.trim());
    }
    expect(lines[0]).toMatch(/^#2 player1 Roll "roll 0": 4d6kh3 = (\(\d\)|\d)( (\(\d\)|\d)){3} = \d+ \[[0-9a-f]{8}\]$/);
    expect(lines[0].match(/\(\d\)/g)).toHaveLength(1);
    expect(lines[1]).toMatch(/^#3 player1 Roll "roll 1": 6d6>=5 = \d\*?( \d\*?){5} = \d success(es)? \[[0-9a-f]{8}\]$/);
    expect(lines[2]).toMatch(/^#4 player1 Roll "roll 2": 1d66 = ([1-6][1-6]) = \1 \[/);
    expect(lines[3]).toMatch(/^#5 player1 Roll "roll 3": 1d6! = (6! )*[1-6] = \d+ \[/);
    expect(lines[4]).toMatch(/^#6 player1 Roll "roll 4": 1d100 = \d+ = \d+ \[/);

    const seal = await server.client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    expect(seal.status).toBe(201);
    const verified = await server.client.get(`/games/${game.gameId}/verify`, player1);
    expect(verified.body).toMatchObject({ ok: true, sealed: true, failures: [] });

    // The downloaded verifier replays the notation with nothing new: it is built from domain/.
    const exported = writeTemp('dice36-notation.json', (await server.client.get(`/games/${game.gameId}/export`, player1)).text);
    const verifier = writeTemp('verifier.mjs', (await server.client.get('/verifier.mjs')).text);
    const offline = await run('node', [verifier, exported, '--trust', server.local.service.signer.fingerprint]);
    expect(offline.stdout.trim().split('\n').at(-1), offline.stdout + offline.stderr).toBe('OK');
    expect(offline.code).toBe(0);
    const independent = await run('node', ['test/independent/fairness-v1-verifier.mjs', exported]);
    expect(JSON.parse(independent.stdout)).toMatchObject({ ok: true, sealed: true, problems: [] });
  });

  it('refuses a roll that may draw more than 100 dice with a 422 in words, and malformed notation with a 400 naming the position; neither is recorded', async () => {
    const game = await server.client.createGame({ ruleset: 'dice', title: 'hostile' });
    const { player1 } = game.tokens.players;
    const tooMany = await server.client.command(game.gameId, player1, { commandId: 'x1', type: 'Roll', payload: { dice: '11d6!', purpose: 'p' } });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.code).toBe('rule_violation');
    expect(tooMany.body.error.message).toMatch(/at most 100 dice; this one may draw up to 110 .*exploding die counts as 10/);

    const malformed = await server.client.command(game.gameId, player1, { commandId: 'x2', type: 'Roll', payload: { dice: '4d6kh5', purpose: 'p' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details.issues).toEqual([{ field: 'payload.dice', message: 'keeps 5 of 4 dice at position 4' }]);

    const view = await server.client.get(`/games/${game.gameId}`, player1);
    expect(view.body).toMatchObject({ version: 1, state: { rolls: 0 } });
  });

  it('a game of rules version 1 keeps its notation: d66 is a 66-sided die and d% the 400 it was', async () => {
    const game = await server.client.createGame({ ruleset: 'dice', title: 'old rules', options: { rulesVersion: 1 } });
    const { player1 } = game.tokens.players;
    const d66 = await server.client.command(game.gameId, player1, { commandId: 'o1', type: 'Roll', payload: { dice: 'd66', purpose: 'p' } });
    expect(d66.status).toBe(201);
    expect(d66.body.commit.dice).toEqual([{ sides: 66, value: expect.any(Number) }]);
    const percent = await server.client.command(game.gameId, player1, { commandId: 'o2', type: 'Roll', payload: { dice: 'd%', purpose: 'p' } });
    expect(percent.status).toBe(400);
    expect(percent.body.error).toEqual({
      code: 'invalid_request',
      message: 'Invalid request: payload.dice: d% is not supported, write d100 at position 2',
      details: { issues: [{ field: 'payload.dice', message: 'd% is not supported, write d100 at position 2' }] },
    });
  });

  it('/evaluate reads the notation with your own dice', async () => {
    const reply = await server.client.post('/rulesets/dice/evaluate', { procedure: 'roll', input: { dice: '6d6>=5' }, dice: [5, 2, 6, 1, 3, 4] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ result: { total: 2 }, breakdown: { dice: '6d6>=5', text: '5* 2 6* 1 3 4 = 2 successes' } });
  });
});
