import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/httpClient';
import { run, writeTemp } from '../support/runCli';

const server = useTestServer();
const LINE_END = ' \\[[0-9a-f]{8}\\]$';

describe('a director voids a roll and records a ruling, over HTTP', () => {
  it('marks them in the text form, the events and the game view, and the export verifies with the CLI, listing both', async () => {
    const { client } = server;
    const game = await client.createGame({ ruleset: 'dice', title: 'League round 2' });
    const { organizer, players } = game.tokens;
    const command = (token: string, commandId: string, type: string, payload: unknown, accept?: string) =>
      client.command(game.gameId, token, { commandId, type, payload }, accept ? { accept } : undefined);

    expect((await command(players.player1, 'r1', 'Roll', { dice: '3d6', purpose: 'first fire' })).status).toBe(201);
    // Several labelled rolls in one command: one commit, a line each.
    const several = await command(players.player2, 'r2', 'Roll', { rolls: [{ dice: '2d6', purpose: 'return fire' }, { dice: '1d6', purpose: 'morale' }] }, 'text/plain');
    expect(several.status).toBe(201);
    expect(several.text.split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^#3 player2 Roll "return fire": 2d6 = \\d \\d = \\d+${LINE_END}`)),
      expect.stringMatching(new RegExp(`^#3 player2 Roll "morale": 1d6 = \\d = \\d${LINE_END}`)),
      '',
    ]);

    const voided = await command(organizer, 'v1', 'Void', { seq: 2, reason: 'rolled 3d6; the table says 2d6' }, 'text/plain');
    expect(voided.status).toBe(201);
    expect(voided.text).toMatch(new RegExp(`^#4 organizer Void #2: "rolled 3d6; the table says 2d6"${LINE_END}`, 'm'));
    const ruling = await command(organizer, 'u1', 'Ruling', { text: 'Player 1 rolls the first fire again with 2d6.', concerning: [2, 4] }, 'text/plain');
    expect(ruling.text).toMatch(new RegExp(`^#5 organizer Ruling "Player 1 rolls the first fire again with 2d6." concerning #2, #4${LINE_END}`, 'm'));

    const lines = (await client.get(`/games/${game.gameId}/events`, players.player1, { accept: 'text/plain' })).text.split('\n');
    expect(lines[1]).toMatch(new RegExp(`^#2 player1 Roll "first fire": 3d6 = .* \\(voided by #4\\)${LINE_END}`));
    expect(lines.filter((line) => line.includes('voided by'))).toHaveLength(1);

    const events = await client.get(`/games/${game.gameId}/events`, players.player2);
    expect(events.body.voided).toEqual([{ seq: 2, voidedBy: { seq: 4, reason: 'rolled 3d6; the table says 2d6' } }]);
    // The commit itself stays as it was signed.
    expect(Object.keys(events.body.commits[1])).not.toContain('voidedBy');
    const view = await client.get(`/games/${game.gameId}`, players.player2);
    expect(view.body).toMatchObject({ voided: [{ seq: 2, voidedBy: { seq: 4, reason: 'rolled 3d6; the table says 2d6' } }], rulings: 1 });

    expect((await command(organizer, 'seal', 'Seal', {})).status).toBe(201);
    const file = writeTemp('voids-and-rulings.json', (await client.get(`/games/${game.gameId}/export`, organizer)).text);
    const verified = await run('npx', ['--no-install', 'arbiter', 'verify', file, '--trust', server.local.service.signer.fingerprint]);
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('    #2 voided by #4: "rolled 3d6; the table says 2d6"');
    expect(verified.stdout).toContain('    ruling #5: "Player 1 rolls the first fire again with 2d6." concerning #2, #4');
  });

  it('refuses a side\'s Void (403), a Void of a game command (422 in a player\'s words), and a bad Ruling (400 naming the field)', async () => {
    const { client } = server;
    const game = await client.createGame({ ruleset: 'dice' });
    const { organizer, players } = game.tokens;
    await client.command(game.gameId, players.player1, { commandId: 'e', type: 'ContributeEntropy', payload: { entropy: 'x' } });
    await client.command(game.gameId, players.player1, { commandId: 'r', type: 'Roll', payload: { dice: 'd6', purpose: 'p' } });

    const bySide = await client.command(game.gameId, players.player2, { commandId: 'v', type: 'Void', payload: { seq: 3, reason: 'I did not like it' } });
    expect(bySide.status).toBe(403);
    const ofEntropy = await client.command(game.gameId, organizer, { commandId: 'v2', type: 'Void', payload: { seq: 2, reason: 'no' } });
    expect(ofEntropy.status).toBe(422);
    expect(ofEntropy.body.error.message).toMatch(/^#2 is not a move the rules decided/);
    const badRuling = await client.command(game.gameId, organizer, { commandId: 'u', type: 'Ruling', payload: { text: 'x', concerning: [3, 3] } });
    expect(badRuling.status).toBe(400);
    expect(JSON.stringify(badRuling.body.error)).toContain('concerning');
    // Nothing was recorded by the refusals.
    expect((await client.get(`/games/${game.gameId}`, organizer)).body.version).toBe(3);
  });
});
