import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forged, newKey } from '../../domain/verify/signedExports';
import { TestClient } from '../../support/httpClient';
import { useNpmStart } from '../../support/npmStart';
import { run } from '../../support/runCli';

const { start } = useNpmStart();

describe('an organizer with nothing but node, the fingerprint npm start printed, the verifier and an export', () => {
  it('verifies the real export and refuses a copy re-signed with another key', async () => {
    const server = await start(join(mkdtempSync(join(tmpdir(), 'arbiter-organizer-')), 'data'));
    const client = new TestClient(server.url);
    const game = await client.createGame({ ruleset: 'dice', title: 'Club night, game 4' });
    await client.command(game.gameId, game.tokens.players.player1, { commandId: 'e', type: 'ContributeEntropy', payload: { entropy: 'my lucky socks' } });
    for (let i = 0; i < 4; i++) await client.command(game.gameId, game.tokens.players.player2, { commandId: `r${i}`, type: 'Roll', payload: { dice: '2d6+1', purpose: `assault ${i}` } });
    await client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    const fingerprint = server.output().match(/signing key fingerprint: (ed25519:[A-Za-z0-9_-]{43})\n/)?.[1];
    expect(fingerprint).toBeDefined();

    // The two files, alone in an empty folder outside the project.
    const folder = join(mkdtempSync(join(tmpdir(), 'arbiter-folder-')), 'check');
    mkdirSync(folder);
    const verifier = await fetch(`${server.url}/verifier.mjs`);
    expect(verifier.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    writeFileSync(join(folder, 'verifier.mjs'), await verifier.text());
    const exported = (await client.get(`/games/${game.gameId}/export`, game.tokens.players.player1)).body;
    writeFileSync(join(folder, 'game.json'), JSON.stringify(exported));
    writeFileSync(join(folder, 'forged.json'), JSON.stringify(forged(exported, newKey(exported.keys.keys[0].kid))));
    const node = (args: string[]) => run(process.execPath, ['verifier.mjs', ...args], { NODE_PATH: '' }, folder);

    const genuine = await node(['game.json', '--trust', fingerprint!]);
    expect(genuine.code, genuine.stdout + genuine.stderr).toBe(0);
    expect(genuine.stdout).toContain('8 dice re-derived');
    expect(genuine.stdout.trim().split('\n').at(-1)).toBe('OK');

    const unpinned = await node(['forged.json']);
    expect(unpinned.code).toBe(3);
    const pinned = await node(['forged.json', '--trust', fingerprint!]);
    expect(pinned.code, pinned.stdout).toBe(1);
    expect(readdirSync(folder).sort()).toEqual(['forged.json', 'game.json', 'verifier.mjs']);
  });
});
