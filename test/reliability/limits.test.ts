import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/httpClient';
import { run, writeTemp } from '../support/runCli';
import { figure } from './figures';

const server = useTestServer();

describe('limits', () => {
  it('a body over 64 KB gets 413; more than 100 dice get 422; neither changes the game', async () => {
    const game = await server.client.createGame();
    const big = await server.client.request('POST', `/games/${game.gameId}/commands`, {
      token: game.tokens.players.player1,
      raw: JSON.stringify({ commandId: 'big', type: 'Roll', payload: { dice: 'd6', purpose: 'x'.repeat(66_000) } }),
    });
    expect([big.status, big.body.error.code]).toEqual([413, 'payload_too_large']);
    const many = await server.client.command(game.gameId, game.tokens.players.player1, { commandId: 'many', type: 'Roll', payload: { dice: '101d6', purpose: 'too many' } });
    expect([many.status, many.body.error.code]).toEqual([422, 'rule_violation']);
    const exactly = await server.client.command(game.gameId, game.tokens.players.player1, { commandId: 'hundred', type: 'Roll', payload: { dice: '100d6', purpose: 'just enough' } });
    expect(exactly.body.commit.dice).toHaveLength(100);
    expect((await server.client.get(`/games/${game.gameId}`, game.tokens.organizer)).body.version).toBe(2);
    figure('Limits', 'body of 66 KB', '413 payload_too_large');
    figure('Limits', '101 dice / 100 dice', '422 rule_violation / 201');
  });

  it('a game of 10,000 commits still pages and verifies', async () => {
    const game = await server.client.createGame({ ruleset: 'dice', title: 'long campaign' });
    const token = game.tokens.players.player1;
    // Built through the service itself (the same code as the route, without 10,000 HTTP round trips).
    for (let i = 2; i <= 9_999; i++) {
      await server.local.service.submit(game.gameId, token, { commandId: `long-${i}`, type: 'Roll', payload: { dice: 'd6', purpose: `turn ${i}` } });
    }
    await server.client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    let after = 0;
    let pages = 0;
    while (pages < 20) {
      const page = await server.client.get(`/games/${game.gameId}/events?after=${after}&limit=1000`, token);
      expect(page.status).toBe(200);
      if (page.body.commits.length === 0) break;
      expect(page.body.commits[0].seq).toBe(after + 1);
      after = page.body.commits.at(-1).seq;
      pages += 1;
    }
    expect(after).toBe(10_000);
    const verified = (await server.client.get(`/games/${game.gameId}/verify`, token)).body;
    expect(verified).toMatchObject({ ok: true, checkedCommits: 10_000, sealed: true });
    const file = writeTemp('long.json', (await server.client.get(`/games/${game.gameId}/export`, token)).text);
    const cli = await run('node', ['bin/arbiter.mjs', 'verify', file, '--trust', server.local.service.signer.fingerprint]);
    expect(cli.code, cli.stdout).toBe(0);
    figure('Limits', 'a game of 10,000 commits: pages of 1,000 read / verified commits / dice', `${pages} / ${verified.checkedCommits} / ${verified.checkedDice}`);
  });
});
