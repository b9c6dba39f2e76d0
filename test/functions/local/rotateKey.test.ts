import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TestClient } from '../../support/httpClient';
import { ROOT, stop, useNpmStart } from '../../support/npmStart';
import { run, writeTemp } from '../../support/runCli';

const { start } = useNpmStart();
const rotate = (dataDir: string) => run(process.execPath, ['--import', 'tsx', join(ROOT, 'functions/local/rotateKey.ts')], { ARBITER_DATA_DIR: dataDir });

describe('npm run rotate-key', () => {
  it('retires the key with a statement signed by the old one; old commits keep their key, new ones use the new key', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'arbiter-rotate-')), 'data');
    const first = await start(dataDir);
    const client = new TestClient(first.url);
    const before = (await client.get('/keys')).body.keys[0];
    const printed = first.output().match(/signing key fingerprint: (ed25519:\S+)/)?.[1];
    expect(printed).toBe(before.fingerprint);
    const game = await client.createGame();
    await client.command(game.gameId, game.tokens.players.player1, { commandId: 'a', type: 'Roll', payload: { dice: 'd6', purpose: 'key A' } });

    const refused = await rotate(dataDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/stop it first/);
    expect(await stop(first.child)).toBe(0);

    const rotated = await rotate(dataDir);
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain(`retired: ${before.fingerprint}`);

    const second = await start(dataDir);
    const after = new TestClient(second.url);
    const keys = (await after.get('/keys')).body;
    await after.get('/health');
    expect(keys.keys.map((k: { fingerprint: string; status: string }) => [k.fingerprint === before.fingerprint, k.status])).toEqual([[false, 'current'], [true, 'retired']]);
    expect(second.output()).toContain(`signing key fingerprint: ${keys.keys[0].fingerprint}`);
    expect(keys.log).toEqual([
      { type: 'KeyRotation', n: 1, previous: before.fingerprint, next: { kty: 'OKP', crv: 'Ed25519', x: keys.keys[0].x, kid: keys.keys[0].kid }, at: expect.any(String), hash: expect.any(String), signature: expect.any(String) },
    ]);
    await after.command(game.gameId, game.tokens.players.player1, { commandId: 'b', type: 'Roll', payload: { dice: 'd6', purpose: 'key B' } });
    const bundle = (await after.get(`/games/${game.gameId}/export`, game.tokens.organizer)).body;
    expect(bundle.commits.map((c: { kid: string }) => c.kid)).toEqual([before.kid, before.kid, keys.keys[0].kid]);
    expect(bundle.keyLog).toEqual(keys.log);
    expect((await after.get(`/games/${game.gameId}/verify`, game.tokens.organizer)).body.ok).toBe(true);

    // Offline, as a player would: the old pin reaches the new key through the key log; the
    // new pin alone does not vouch for what the old key signed; trust add of /keys takes both.
    await after.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    const file = writeTemp('rotated.json', (await after.get(`/games/${game.gameId}/export`, game.tokens.organizer)).text);
    const verify = (args: string[], env: Record<string, string> = {}) => run(process.execPath, [join(ROOT, 'bin/arbiter.mjs'), 'verify', file, ...args], env);
    expect((await verify(['--trust', before.fingerprint])).code).toBe(0);
    expect((await verify(['--trust', keys.keys[0].fingerprint])).code).toBe(1);
    const trustFile = join(mkdtempSync(join(tmpdir(), 'arbiter-pins-')), 'trusted-keys.json');
    const added = await run(process.execPath, [join(ROOT, 'bin/arbiter.mjs'), 'trust', 'add', second.url], { ARBITER_TRUST_FILE: trustFile });
    expect(added.code, added.stderr).toBe(0);
    expect((await verify([], { ARBITER_TRUST_FILE: trustFile })).code).toBe(0);
    // The retired private key is gone from signing-key.json (archived in retired/, which the server never loads).
    expect(readFileSync(join(dataDir, 'signing-key.json'), 'utf8')).not.toContain(before.x);
  });
});
