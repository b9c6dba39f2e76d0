import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/httpClient';

const server = useTestServer();

const roll = (commandId: string, extra: Record<string, unknown> = {}) => ({
  commandId,
  type: 'Roll',
  payload: { dice: '3d6', purpose: `roll ${commandId}` },
  ...extra,
});

describe('idempotent retries', () => {
  it('returns the same commit and the same dice for a retried commandId, with no second commit', async () => {
    const game = await server.client.createGame();
    const token = game.tokens.players.player1;
    const first = await server.client.command(game.gameId, token, roll('once'));
    const again = await server.client.command(game.gameId, token, roll('once'));
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body.commit).toEqual(first.body.commit);
    const events = await server.client.get(`/games/${game.gameId}/events`, token);
    expect(events.body.version).toBe(2);
    expect(events.body.commits).toHaveLength(2);
  });

  it('refuses the same commandId for a different command with 409 command_id_reused', async () => {
    const game = await server.client.createGame();
    const { player1, player2 } = game.tokens.players;
    await server.client.command(game.gameId, player1, roll('taken'));
    const otherPayload = await server.client.command(game.gameId, player1, { ...roll('taken'), payload: { dice: '1d20', purpose: 'x' } });
    expect(otherPayload.status).toBe(409);
    expect(otherPayload.body.error).toMatchObject({ code: 'command_id_reused', details: { seq: 2 } });
    const otherActor = await server.client.command(game.gameId, player2, roll('taken'));
    expect(otherActor.body.error.code).toBe('command_id_reused');
    const otherType = await server.client.command(game.gameId, player1, { commandId: 'taken', type: 'ContributeEntropy', payload: { entropy: 'x' } });
    expect(otherType.body.error.code).toBe('command_id_reused');
  });

  it('gives 20 concurrent commands on one game contiguous seqs, none lost', async () => {
    const game = await server.client.createGame();
    const token = game.tokens.players.player2;
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => server.client.command(game.gameId, token, roll(`c-${i}`))));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(replies.map((r) => r.body.commit.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    const events = await server.client.get(`/games/${game.gameId}/events?limit=1000`, token);
    expect(events.body.commits.map((c: { commandId: string }) => c.commandId).sort()).toEqual(
      ['create', ...Array.from({ length: 20 }, (_, i) => `c-${i}`)].sort(),
    );
    const verified = await server.client.get(`/games/${game.gameId}/verify`, token);
    expect(verified.body.ok).toBe(true);
  });

  it('lets one of 10 concurrent copies of one command create the commit; the rest get it back', async () => {
    const game = await server.client.createGame();
    const token = game.tokens.players.player1;
    const replies = await Promise.all(Array.from({ length: 10 }, () => server.client.command(game.gameId, token, roll('same'))));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 200)).toHaveLength(9);
    for (const r of replies) expect(r.body.commit).toEqual(replies[0].body.commit);
  });
});

describe('expectedVersion', () => {
  it('accepts the current version and answers 409 version_conflict otherwise', async () => {
    const game = await server.client.createGame();
    const token = game.tokens.players.player1;
    expect((await server.client.command(game.gameId, token, roll('a', { expectedVersion: 1 }))).status).toBe(201);
    const stale = await server.client.command(game.gameId, token, roll('b', { expectedVersion: 1 }));
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'version_conflict', details: { currentVersion: 2 } });
  });
});

describe('entropy', () => {
  it('is accepted from sides and organizer before the first die, refused after with entropy_locked', async () => {
    const game = await server.client.createGame();
    const { organizer, players } = game.tokens;
    expect((await server.client.command(game.gameId, organizer, { commandId: 'e0', type: 'ContributeEntropy', payload: { entropy: 'td' } })).status).toBe(201);
    expect((await server.client.command(game.gameId, players.player1, { commandId: 'e1', type: 'ContributeEntropy', payload: { entropy: 'p1' } })).status).toBe(201);
    await server.client.command(game.gameId, players.player2, roll('first-die'));
    const late = await server.client.command(game.gameId, players.player2, { commandId: 'e2', type: 'ContributeEntropy', payload: { entropy: 'p2' } });
    expect(late.status).toBe(422);
    expect(late.body.error.code).toBe('entropy_locked');
    expect((await server.client.get(`/games/${game.gameId}`, players.player1)).body.version).toBe(4);
  });
});

describe('rules and limits of the dice ruleset', () => {
  it('answers 422 with the rule for more than 100 dice or dice outside 2 to 1000 sides', async () => {
    const game = await server.client.createGame();
    const token = game.tokens.players.player1;
    const many = await server.client.command(game.gameId, token, { commandId: 'm', type: 'Roll', payload: { dice: '101d6', purpose: 'x' } });
    expect(many.status).toBe(422);
    expect(many.body.error).toMatchObject({ code: 'rule_violation', details: { rule: 'dice: at most 100 dice a command' } });
    const big = await server.client.command(game.gameId, token, { commandId: 'b', type: 'Roll', payload: { dice: [{ count: 1, sides: 1001 }], purpose: 'x' } });
    expect(big.status).toBe(422);
    expect((await server.client.get(`/games/${game.gameId}`, token)).body.version).toBe(1);
  });

  it('renames sides with the option, and gives each a token', async () => {
    const game = await server.client.createGame({ ruleset: 'dice', options: { sides: ['red', 'blue', 'green'] } });
    expect(game.sides).toEqual(['red', 'blue', 'green']);
    expect(Object.keys(game.tokens.players)).toEqual(['red', 'blue', 'green']);
    const reply = await server.client.command(game.gameId, game.tokens.players.green, roll('g'));
    expect(reply.body.commit.actor).toBe('green');
  });

  it('records the organizer acting for a side with "as"', async () => {
    const game = await server.client.createGame();
    const reply = await server.client.command(game.gameId, game.tokens.organizer, roll('for-p2', { as: 'player2' }));
    expect(reply.status).toBe(201);
    expect(reply.body.commit).toMatchObject({ actor: 'player2', as: 'organizer' });
    const own = await server.client.command(game.gameId, game.tokens.organizer, roll('own'));
    expect(own.body.commit.actor).toBe('organizer');
    expect(own.body.commit).not.toHaveProperty('as');
  });
});

describe('text for chat logs', () => {
  it('answers commands and events with one line per commit under Accept: text/plain', async () => {
    const game = await server.client.createGame();
    const token = game.tokens.players.player1;
    const reply = await server.client.command(game.gameId, token, { commandId: 'b', type: 'Roll', payload: { dice: '3d6+1', purpose: 'bombardment of 2708' } }, { accept: 'text/plain' });
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(reply.text).toMatch(/^#2 player1 Roll "bombardment of 2708": 3d6\+1 = \d \d \d \+1 = \d+ \[[0-9a-f]{8}\]\n$/);
    const log = await server.client.get(`/games/${game.gameId}/events`, token, { accept: 'text/plain' });
    const lines = log.text.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^#1 organizer CreateGame dice: player1 vs player2, commitment [0-9a-f]{8} \[[0-9a-f]{8}\]$/);
    expect(lines[1]).toBe(reply.text.trim());
  });
});
