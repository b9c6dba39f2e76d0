import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildVerifierBundle } from '../../verifier/bundle';
import { run } from '../support/runCli';
import { chiSquareText } from '../../domain/stats/statsText';
import { useTestServer } from '../support/httpClient';
import { cli, tempDir, writeJson } from './cliHarness';

const server = useTestServer();

/** A dice game of 70 d6 and a few d20, rolled by both sides, with its export; sealed unless told. */
async function exportedGame(sealed = true) {
  const { client } = server;
  const game = await client.createGame();
  for (let i = 0; i < 7; i++) {
    await client.command(game.gameId, game.tokens.players[i % 2 ? 'player2' : 'player1'], { commandId: `r${i}`, type: 'Roll', payload: { dice: '10d6', purpose: 'fire' } });
  }
  await client.command(game.gameId, game.tokens.players.player1, { commandId: 'd20', type: 'Roll', payload: { dice: '3d20', purpose: 'morale' } });
  if (sealed) await client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
  const bundle = (await client.get(`/games/${game.gameId}/export`, game.tokens.organizer)).body;
  return { game, bundle, file: writeJson(tempDir(), 'x36-stats-export.json', bundle) };
}

/** The server's signing key, as the person pins it (GET /keys). */
const serverKey = async (): Promise<string> => (await server.client.get('/keys')).body.keys.find((k: { status: string }) => k.status === 'current').fingerprint;

describe('arbiter stats: the dice statistics re-derived offline from an export', () => {
  it('prints the same figures as GET /games/{id}/stats', async () => {
    const { game, file } = await exportedGame();
    const api = (await server.client.get(`/games/${game.gameId}/stats`, game.tokens.players.player1)).body;

    const trust = ['--trust', await serverKey()];
    const json = await cli(['stats', file, '--json', ...trust]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(api);

    const text = await cli(['stats', file, ...trust]);
    expect(text.code).toBe(0);
    const d6 = api.dice.find((d: { sides: number }) => d.sides === 6);
    expect(d6.all.chiSquare).not.toBeNull();
    expect(text.lines).toContain(`d6, every role: 70 rolls; ${chiSquareText(d6.all)}`);
    expect(text.lines).toContain(`  ${d6.all.words}`);
    expect(text.stdout).toContain(`d6, "player1": 40 rolls; ${chiSquareText(d6.byRole[0].figures)}`);
    expect(text.stdout).toMatch(/d20, every role: 3 rolls; χ² not computed \(too few rolls\)\n {2}too few dice to tell: 3 rolls of d20/);
    for (const face of d6.all.faces) expect(text.stdout).toContain(`${String(face.face).padStart(4)}: ${String(face.count).padStart(6)} (expected 11.7;`);
  });

  it('runs the same in the standalone file: node verifier.mjs stats export.json', async () => {
    const { game, bundle } = await exportedGame();
    const dir = tempDir();
    writeFileSync(join(dir, 'verifier.mjs'), await buildVerifierBundle());
    writeFileSync(join(dir, 'export.json'), JSON.stringify(bundle));
    const printed = await run('node', ['verifier.mjs', 'stats', 'export.json', '--json', '--trust', await serverKey()], { NODE_PATH: '' }, dir);
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual((await server.client.get(`/games/${game.gameId}/stats`, game.tokens.organizer)).body);
  });

  it('prints nothing for a game not sealed yet, nor for an export that does not verify', async () => {
    const unsealed = await exportedGame(false);
    const trust = ['--trust', await serverKey()];
    const early = await cli(['stats', unsealed.file, ...trust]);
    expect([early.code, early.stdout]).toEqual([3, '']);
    expect(early.stderr).toMatch(/is not sealed/);

    const { bundle } = await exportedGame();
    const rolled = bundle.commits.find((c: { dice: unknown[] }) => c.dice.length > 0);
    rolled.dice[0].value = (rolled.dice[0].value % 6) + 1;
    const edited = await cli(['stats', writeJson(tempDir(), 'x36-stats-edited.json', bundle), ...trust]);
    expect([edited.code, edited.stdout]).toEqual([1, '']);
    expect(edited.stderr).toMatch(/does not verify/);

    const notAnExport = await cli(['stats', writeJson(tempDir(), 'x36-stats-other.json', { hello: 1 })]);
    expect(notAnExport.code).toBe(2);
    expect((await cli(['stats'])).code).toBe(2);
  });

  it('prints nothing for a game no key you trust signed: a file signed by its maker\'s own key proves nothing about the server\'s dice', async () => {
    const { file } = await exportedGame();
    const unpinned = await cli(['stats', file]);
    expect([unpinned.code, unpinned.stdout]).toEqual([3, '']);
    expect(unpinned.stderr).toMatch(/no key you trust signed game/);
    const wrongKey = await cli(['stats', file, '--trust', 'ed25519:' + 'A'.repeat(43)]);
    expect(wrongKey.code).not.toBe(0);
    expect(wrongKey.stdout).toBe('');
  });
});
