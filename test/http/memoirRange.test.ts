import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/httpClient';

const server = useTestServer();

const howitzers = { unitId: '105 Howitzers', type: 'artillery', figures: 2 };
const grenadiers = { unitId: 'Grenadiers', type: 'infantry', figures: 4 };

describe("Memoir '44 d6 range over HTTP", () => {
  it('a fire at range 7 is a 422 in the game\'s words (artillery battles 6 or fewer hexes away), and records nothing', async () => {
    const { client } = server;
    const game = await client.createGame({ ruleset: 'memoir44-d6', title: 'Long range' });
    const { allies } = game.tokens.players;
    const send = (commandId: string, range: unknown) => client.command(game.gameId, allies, { commandId, type: 'Battle', payload: { attacker: howitzers, target: grenadiers, range } });

    const far = await send('far', 7);
    expect([far.status, far.body.error.code, far.body.error.message]).toEqual([422, 'rule_violation', "artillery can't battle at range 7: the target is out of its range."]);
    const wild = await send('wild', 100);
    expect(wild.status).toBe(400);
    expect(wild.text).toContain('range');
    expect((await client.get(`/games/${game.gameId}`, allies)).body.version).toBe(1);

    const inReach = await send('in-reach', 6);
    expect(inReach.status, inReach.text).toBe(201);
  });

  it('the calculator answers range 7 with the same 422, before any die', async () => {
    const evaluate = (range: unknown) =>
      server.client.post('/rulesets/memoir44-d6/evaluate', { procedure: 'battle', input: { attacker: { type: 'artillery', figures: 2 }, target: { type: 'infantry', figures: 4 }, range }, dice: [] });
    const far = await evaluate(7);
    expect([far.status, far.body.error.message]).toEqual([422, "artillery can't battle at range 7: the target is out of its range."]);
    const wild = await evaluate(1000);
    expect(wild.status).toBe(400);
    expect(wild.text).toContain('range');
  });
});
