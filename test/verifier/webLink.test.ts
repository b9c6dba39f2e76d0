import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/httpClient';
import { cli, tempDir, type CliRun } from './cliHarness';
import { loopbackServer } from './loopbackServer';

/**
 * `verify` given a link as the web app hands them out (`https://host/#/games/{id}?token=…`):
 * the player's, the organizer's, a spectator's, a tournament's. Against the local server in
 * this process; the token goes in the Authorization header and is never printed.
 */
const server = useTestServer();

async function sealedGame() {
  const { client } = server;
  const game = await client.createGame({ ruleset: 'dice', title: 'Club night' });
  const { player1, player2 } = game.tokens.players;
  await client.command(game.gameId, player1, { commandId: 'e', type: 'ContributeEntropy', payload: { entropy: 'lucky socks' } });
  for (let i = 0; i < 3; i++) await client.command(game.gameId, i % 2 ? player1 : player2, { commandId: `r${i}`, type: 'Roll', payload: { dice: '2d6', purpose: `fire ${i}` } });
  await client.command(game.gameId, game.tokens.organizer, { commandId: 's', type: 'Seal', payload: {} });
  return game;
}

async function serverFingerprint(): Promise<string> {
  return (await server.client.get('/keys')).body.keys.find((k: { status: string }) => k.status === 'current').fingerprint;
}

const link = (gameId: string, token: string) => `${server.local.url}/#/games/${encodeURIComponent(gameId)}?token=${encodeURIComponent(token)}`;

function expectNoToken(run: CliRun, token: string) {
  for (const text of [run.stdout, run.stderr, run.written]) expect(text).not.toContain(token);
}

describe('verify LINK: a game link of the web app', () => {
  it("verifies the game from a player's link, as it would the export file", async () => {
    const game = await sealedGame();
    const token = game.tokens.players.player1;
    const run = await cli(['verify', link(game.gameId, token), '--trust', await serverFingerprint()]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.lines[0]).toBe(`game ${game.gameId} (dice: Dice — a trusted roller): 6 commits, sealed`);
    expect(run.lines.at(-1)).toBe('OK');
    expectNoToken(run, token);
  });

  it("verifies from a spectator's link and from the organizer's", async () => {
    const game = await sealedGame();
    const spectator = (await server.client.post(`/games/${game.gameId}/viewers`, { label: 'stream' }, game.tokens.organizer)).body.token as string;
    const fingerprint = await serverFingerprint();
    for (const token of [spectator, game.tokens.organizer]) {
      const run = await cli(['verify', link(game.gameId, token), '--trust', fingerprint]);
      expect([run.code, run.lines.at(-1)]).toEqual([0, 'OK']);
      expectNoToken(run, token);
    }
  });

  it("verifies a tournament's link (#/tournaments/{id}?token=…) game by game", async () => {
    const { client } = server;
    const tournament = (await client.post('/tournaments', { name: 'Round 1' })).body as { tournamentId: string; token: string };
    for (const title of ['Table 1', 'Table 2']) await client.post('/games', { ruleset: 'dice', title }, tournament.token);
    const run = await cli(['verify', `${server.local.url}/#/tournaments/${tournament.tournamentId}?token=${tournament.token}`, '--trust', await serverFingerprint(), '--allow-unsealed']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.lines.at(-2)).toBe('2 games: 2 OK');
    expectNoToken(run, tournament.token);
  });

  it('without a pinned key, suggests the command again with the link, its token left out', async () => {
    const game = await sealedGame();
    const token = game.tokens.players.player2;
    const run = await cli(['verify', link(game.gameId, token)]);
    expect(run.code).toBe(3);
    expect(run.lines).toContain(`    npx arbiter verify '${server.local.url}/#/games/${game.gameId}?token=…' --trust ${await serverFingerprint()}`);
    expectNoToken(run, token);
  });

  it('exit 2 for a wrong or revoked token, saying the token was refused, without printing it', async () => {
    const game = await sealedGame();
    const wrong = 'arb_not-the-token-of-this-game-0123456789';
    const run = await cli(['verify', link(game.gameId, wrong), '--trust', await serverFingerprint()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^arbiter verify: ${server.local.url}/games/${game.gameId}/export answers HTTP 401 \\(unauthenticated: [^\\n]+\\): the token was refused\\. `));
    expect(run.stderr).toMatch(/A link's token may have been revoked or reissued, or the link cut short: ask your organizer for a new one$/);
    expectNoToken(run, wrong);
    const json = await cli(['verify', link(game.gameId, wrong), '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, exitCode: 2 });
    expectNoToken(json, wrong);
  });
});

describe('trust add LINK', () => {
  it("pins the keys of the link's server, without sending or printing the link's token", async () => {
    const game = await sealedGame();
    const token = game.tokens.players.player1;
    const run = await cli(['trust', 'add', link(game.gameId, token)]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.lines[0]).toBe(`${server.local.url}/keys lists 1 key:`);
    expect(run.stdout).toContain(`now trusting the current key ${await serverFingerprint()}`);
    expectNoToken(run, token);
  });
});

describe('export LINK', () => {
  it("writes the game's export from a player's link, byte for byte, and says where it came from without the token", async () => {
    const game = await sealedGame();
    const token = game.tokens.players.player1;
    const file = join(tempDir(), 'game.json');
    const run = await cli(['export', link(game.gameId, token), '-o', file]);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe((await server.client.get(`/games/${game.gameId}/export`, token)).text);
    expect(run.stderr).toMatch(new RegExp(`^wrote \\d+ bytes from ${server.local.url}/games/${game.gameId}/export to `));
    expectNoToken(run, token);
  });
});

describe('verify LINK against what is not an Arbiter server', () => {
  it('says a host that answers a web page is not giving an export (not "unexpected \'<\'"), and sends the token only in the Authorization header', async () => {
    const token = 'arb_secret-token-of-the-player-000000000';
    const site = await loopbackServer(() => ({ status: 200, body: '<!doctype html><html><body>Welcome</body></html>', contentType: 'text/html; charset=utf-8' }));
    try {
      const run = await cli(['verify', `${site.url}/#/games/g-1?token=${token}`]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `arbiter verify: ${site.url}/games/g-1/export answers a web page, not an export: is ${site.url} an Arbiter server? ` +
          "Give a game's link as the web app shows it (…/#/games/{id}?token=…), or an export file",
      );
      expect(run.stderr).not.toContain("'<'");
      expectNoToken(run, token);
      expect(site.seen).toEqual([{ path: '/games/g-1/export', authorization: `Bearer ${token}` }]);
    } finally {
      await site.close();
    }
  });

  it('does not print a token that a refusing server echoes back', async () => {
    const token = 'arb_echoed-token-0000000000000000000000';
    const site = await loopbackServer((request) => ({ status: 403, body: JSON.stringify({ error: { code: 'forbidden', message: `you sent ${request.headers.authorization}` } }) }));
    try {
      const run = await cli(['verify', `${site.url}/#/games/g-3?token=${token}`]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('answers HTTP 403 (forbidden: you sent Bearer …): the token was refused');
      expectNoToken(run, token);
    } finally {
      await site.close();
    }
  });

  it('moves a token written in an API URL\'s query into the Authorization header, and says a page answered without a content type is HTML', async () => {
    const token = 'arb_query-token-000000000000000000000000';
    const site = await loopbackServer(() => ({ status: 200, body: '\n  <html><body>Not here</body></html>', contentType: 'application/octet-stream' }));
    try {
      const run = await cli(['verify', `${site.url}/games/g-2?token=${token}`]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`is a web page (HTML), not an export`);
      expectNoToken(run, token);
      expect(site.seen).toEqual([{ path: '/games/g-2/export', authorization: `Bearer ${token}` }]);
    } finally {
      await site.close();
    }
  });
});
