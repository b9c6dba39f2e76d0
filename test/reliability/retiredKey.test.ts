// Issue 30, "retirement means retirement" (trust.md §6): what a key rotation must and must not
// change, reproduced through the real entry points (npm start, npm run rotate-key, arbiter).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildKeyRotation } from '../../domain/trust/keyRotation';
import { signWith } from '../../functions/application/signer';
import { TestClient } from '../support/httpClient';
import { ROOT, stop, useNpmStart } from '../support/npmStart';
import { run, writeTemp } from '../support/runCli';
import { figure } from './figures';

const { start } = useNpmStart();
const SECTION = 'Retired keys';
const ROLLS = 6;
const rotate = (dataDir: string) => run(process.execPath, ['--import', 'tsx', join(ROOT, 'functions/local/rotateKey.ts')], { ARBITER_DATA_DIR: dataDir });
const arbiter = (args: string[], env: Record<string, string> = {}) => run(process.execPath, [join(ROOT, 'bin/arbiter.mjs'), ...args], env);
const freshDir = (name: string) => join(mkdtempSync(join(tmpdir(), `arbiter-retire-${name}-`)), 'data');
const trustFile = () => join(mkdtempSync(join(tmpdir(), 'arbiter-pins-')), 'trusted-keys.json');

/** A sealed dice game of ROLLS rolls on the server at `url`, and its export as text. */
async function playAndExport(url: string, title: string): Promise<{ text: string; commits: number; path: string; token: string }> {
  const client = new TestClient(url);
  const game = await client.createGame({ ruleset: 'dice', title });
  for (let i = 0; i < ROLLS; i++) {
    const reply = await client.command(game.gameId, game.tokens.players[i % 2 ? 'player2' : 'player1'], { commandId: `r${i}`, type: 'Roll', payload: { dice: '2d6', purpose: `volley ${i}` } });
    expect(reply.status).toBe(201);
  }
  expect((await client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} })).status).toBe(201);
  const exported = await client.get(`/games/${game.gameId}/export`, game.tokens.organizer);
  return { text: exported.text, commits: exported.body.commits.length, path: `/games/${game.gameId}/export`, token: game.tokens.organizer };
}

describe('a retired key (trust.md §6)', () => {
  it('signs nothing that verifies after its retirement: a leaked copy of it makes new games that every pin refuses, naming the key and the statement', async () => {
    const dataDir = freshDir('genuine');
    const genuine = await start(dataDir);
    const old = (await new TestClient(genuine.url).get('/keys')).body.keys[0];
    // The leak: someone copies the private key before the organizer rotates it away.
    const leakedDir = freshDir('leaked');
    mkdirSync(leakedDir, { recursive: true, mode: 0o700 });
    copyFileSync(join(dataDir, 'signing-key.json'), join(leakedDir, 'signing-key.json'));
    expect(await stop(genuine.child)).toBe(0);
    expect((await rotate(dataDir)).code).toBe(0);

    const rotated = await start(dataDir);
    const keysText = (await new TestClient(rotated.url).get('/keys')).text;
    const keys = JSON.parse(keysText);
    const savedKeys = writeTemp('keys.json', keysText);
    // The forger runs Arbiter with the leaked key and plays a game after the rotation.
    const rogue = await start(leakedDir);
    const forged = await playAndExport(rogue.url, 'made with a leaked retired key');
    const bare = JSON.parse(forged.text);
    expect(bare.keys.keys.map((k: { fingerprint: string }) => k.fingerprint)).toEqual([old.fingerprint]);
    const withLog = writeTemp('forged-with-log.json', JSON.stringify({ ...bare, keyLog: keys.log }));
    const withoutLog = writeTemp('forged.json', forged.text);

    // Or the leaked key signs a second statement handing over to a key of the forger's, who signs with that.
    const forgersServer = await start(freshDir('forger'));
    const forgersKey = (await new TestClient(forgersServer.url).get('/keys')).body.keys[0];
    const handedOver = JSON.parse((await playAndExport(forgersServer.url, 'signed by a key the leaked one handed over to')).text);
    const leakedKey = JSON.parse(readFileSync(join(leakedDir, 'signing-key.json'), 'utf8'));
    const fork = buildKeyRotation({ n: 2, previous: old.fingerprint, next: { x: forgersKey.x, kid: forgersKey.kid }, at: new Date().toISOString() }, signWith(leakedKey));
    const forked = writeTemp('forked.json', JSON.stringify({ ...handedOver, keys: { keys: [...handedOver.keys.keys, old] }, keyLog: [...keys.log, fork] }));

    const pinnedByAdd = trustFile();
    expect((await arbiter(['trust', 'add', rotated.url], { ARBITER_TRUST_FILE: pinnedByAdd })).code).toBe(0);
    const attempts = [
      { how: 'the old pin, the genuine key log in the file', result: await arbiter(['verify', withLog, '--trust', old.fingerprint]) },
      { how: 'a trust file saved from the genuine /keys, no key log in the file', result: await arbiter(['verify', withoutLog, '--trust-file', savedKeys]) },
      { how: 'arbiter trust add of the genuine server, no key log in the file', result: await arbiter(['verify', withoutLog], { ARBITER_TRUST_FILE: pinnedByAdd }) },
    ];
    for (const { how, result } of attempts) {
      expect(result.code, `${how}: ${result.stdout}`).toBe(1);
      expect(result.stdout, how).toContain(`by ${old.fingerprint}, which key log statement 1 retired at ${keys.log[0].at}: a retired key signs nothing after its retirement`);
    }
    const viaFork = await arbiter(['verify', forked, '--trust', old.fingerprint]);
    expect(viaFork.code, viaFork.stdout).toBe(1);
    expect(viaFork.stdout).toContain(`two different statements retire ${old.fingerprint} (key log statements 1 and 2): the key log was forked`);
    attempts.push({ how: 'the old pin, a second statement of the leaked key handing over to the forger\'s key', result: viaFork });
    const refusedCommits = (attempts[1].result.stdout.match(/\(retired\)/g) ?? []).length;
    expect(refusedCommits).toBe(forged.commits + 1);

    // The organizer's own server, with the retired key put back (a backup restored), refuses to start rather than sign with it.
    await stop(rotated.child);
    copyFileSync(join(leakedDir, 'signing-key.json'), join(dataDir, 'signing-key.json'));
    await expect(start(dataDir)).rejects.toThrow(new RegExp(`exited 1:[\\s\\S]*Arbiter could not start: the signing key ${old.fingerprint} is retired`));

    figure(SECTION, 'games signed by a leaked retired key after its rotation, refused (exit 1)', `${attempts.length} of ${attempts.length} ways of pinning`);
    figure(SECTION, 'retired-key failures named in one refusal (commits and head)', `${refusedCommits} (${forged.commits} commits + head)`);
    figure(SECTION, 'npm start with the retired key restored over the current one', 'refuses to start (exit 1)');
  });

  it('leaves the games it signed before its retirement verifying green with the pins the start banner and /keys give', async () => {
    const dataDir = freshDir('honest');
    const first = await start(dataDir);
    const old = (await new TestClient(first.url).get('/keys')).body.keys[0];
    const before = await playAndExport(first.url, 'sealed before the rotation');
    const file = writeTemp('before-rotation.json', before.text);
    expect(await stop(first.child)).toBe(0);
    expect((await rotate(dataDir)).code).toBe(0);

    const second = await start(dataDir);
    await expect.poll(() => second.output()).toContain('  try: curl');
    const banner = second.output();
    const pins = [...(banner.match(/node verifier\.mjs game\.json (.*)/)?.[1] ?? '').matchAll(/--trust (\S+)/g)].map((m) => m[1]);
    const keys = (await new TestClient(second.url).get('/keys')).body.keys.map((k: { fingerprint: string }) => k.fingerprint);
    expect(pins.sort()).toEqual([...keys].sort());
    expect(banner).toContain(`retired key fingerprint: ${old.fingerprint}`);

    const withBannerPins = await arbiter(['verify', file, ...pins.flatMap((p) => ['--trust', p])]);
    expect(withBannerPins.code, withBannerPins.stdout).toBe(0);
    const pinnedByAdd = trustFile();
    expect((await arbiter(['trust', 'add', second.url], { ARBITER_TRUST_FILE: pinnedByAdd })).code).toBe(0);
    const withTrustAdd = await arbiter(['verify', file], { ARBITER_TRUST_FILE: pinnedByAdd });
    expect(withTrustAdd.code).toBe(0);

    // The same game exported after the rotation, its /keys listing the old key as retired: pinning
    // the new key only still fails (trust never flows backwards), but says why and what to do.
    const reexported = writeTemp('after-rotation.json', (await new TestClient(second.url).get(before.path, before.token)).text);
    expect((await arbiter(['verify', reexported, ...pins.flatMap((p) => ['--trust', p])])).code).toBe(0);
    const current = keys.find((k: string) => k !== old.fingerprint);
    const newOnly = await arbiter(['verify', reexported, '--trust', current]);
    expect(newOnly.code).toBe(1);
    expect(newOnly.stdout).toContain(`signed by ${old.fingerprint}, a key none of your trusted fingerprints reaches: a retired key of the server (key log statement 1 retired it), which you did not pin.`);
    expect(newOnly.stdout).toContain(`arbiter trust add <server URL>, or add --trust ${old.fingerprint}`);

    figure(SECTION, 'a game sealed before a rotation, verified with the banner\'s pins / trust add of /keys', `exit ${withBannerPins.code} / exit ${withTrustAdd.code} (${before.commits} commits)`);
  });
});
