import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKeyRotation } from '../../domain/trust/keyRotation';
import { publishedKey } from '../../domain/trust/publishedKey';
import { AT, diceMoves, exportOf, newKey, playGame } from '../domain/verify/signedExports';
import { cli, tempDir, writeJson } from './cliHarness';
import { loopbackServer } from './loopbackServer';

const a = newKey('key-a');
const b = newKey('key-b');
const keysDocument = { keys: [publishedKey(b.jwk, 'current'), publishedKey(a.jwk, 'retired')], log: [buildKeyRotation({ n: 1, previous: a.fingerprint, next: b.jwk, at: AT }, a.sign)] };
let server: Awaited<ReturnType<typeof loopbackServer>>;
let answer = () => ({ status: 200, body: JSON.stringify(keysDocument) });

beforeAll(async () => {
  server = await loopbackServer(() => answer());
});
afterAll(async () => {
  await server?.close();
});

describe('arbiter trust add FINGERPRINT, trust list', () => {
  it('stores a fingerprint in the trust file, readable by its owner only, and lists it', async () => {
    const home = tempDir();
    const empty = await cli(['trust', 'list'], { home });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain('no trusted keys yet');
    const added = await cli(['trust', 'add', a.fingerprint], { home });
    expect(added.code).toBe(0);
    const file = join(home, 'trusted-keys.json');
    expect(added.lines).toEqual([`now trusting ${a.fingerprint} (stored in ${file})`]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ trusted: [{ fingerprint: a.fingerprint, source: 'given by hand', added: '2026-11-23T09:00:00.000Z' }] });
    expect((await cli(['trust', 'add', a.fingerprint], { home })).lines).toEqual([`${a.fingerprint} was already trusted (${file})`]);
    expect((await cli(['trust', 'list'], { home })).lines).toEqual([`trusted keys (${file}):`, `  ${a.fingerprint}  given by hand, added 2026-11-23T09:00:00.000Z`]);
  });

  it('writes ~/.config/arbiter/trusted-keys.json when $ARBITER_TRUST_FILE is not set', async () => {
    const home = tempDir();
    expect((await cli(['trust', 'add', a.fingerprint], { home, env: { ARBITER_TRUST_FILE: undefined } })).code).toBe(0);
    expect(statSync(join(home, '.config', 'arbiter', 'trusted-keys.json')).mode & 0o777).toBe(0o600);
  });

  it('refuses what is not a fingerprint, storing nothing', async () => {
    const home = tempDir();
    const run = await cli(['trust', 'add', 'key-a'], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('a fingerprint looks like ed25519:<43 characters>, not "key-a"');
    expect((await cli(['trust', 'list'], { home })).stdout).toContain('no trusted keys yet');
  });
});

describe('arbiter trust add URL', () => {
  it('fetches /keys once, shows every fingerprint, and stores every key it lists, retired ones included', async () => {
    const home = tempDir();
    const before = server.seen.length;
    const run = await cli(['trust', 'add', `${server.url}/`], { home });
    expect(run.code).toBe(0);
    expect(server.seen.slice(before)).toEqual([{ path: '/keys', authorization: undefined }]);
    expect(run.lines.slice(0, 4)).toEqual([
      `${server.url}/keys lists 2 keys:`,
      `  ${b.fingerprint}  kid key-b, current`,
      `  ${a.fingerprint}  kid key-a, retired`,
      `now trusting the current key ${b.fingerprint} and 1 retired key (stored in ${join(home, 'trusted-keys.json')})`,
    ]);
    const listed = (await cli(['trust', 'list'], { home })).stdout;
    expect(listed).toContain(`  ${b.fingerprint}  ${server.url}/keys, added`);
    expect(listed).toContain(`  ${a.fingerprint}  ${server.url}/keys, added`);
  });

  it('finds /keys from a game\'s URL or the /keys URL itself', async () => {
    for (const url of [`${server.url}/games/g-1`, `${server.url}/keys`, `${server.url}/games/g-1/export?x=1`]) {
      const before = server.seen.length;
      expect((await cli(['trust', 'add', url])).code, url).toBe(0);
      expect(server.seen.slice(before).map((s) => s.path)).toEqual(['/keys']);
    }
  });

  it('refuses a key list whose stated fingerprint is not its key\'s, or that names no current key, storing nothing', async () => {
    const home = tempDir();
    for (const [document, message] of [
      [{ keys: [{ ...publishedKey(b.jwk, 'current'), fingerprint: a.fingerprint }] }, `states the fingerprint "${a.fingerprint}", but its public key has ${b.fingerprint}`],
      [{ keys: [publishedKey(a.jwk, 'retired'), publishedKey(b.jwk, 'retired')] }, 'lists no current keys among 2'],
      [{ nothing: true }, 'has no "keys" list'],
    ] as const) {
      answer = () => ({ status: 200, body: JSON.stringify(document) });
      const run = await cli(['trust', 'add', server.url], { home });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
    }
    answer = () => ({ status: 200, body: '{"keys":[],"keys":[]}' });
    expect((await cli(['trust', 'add', server.url], { home })).stderr).toContain('did not answer JSON: duplicate key "keys"');
    answer = () => ({ status: 503, body: '{"error":"down"}' });
    expect((await cli(['trust', 'add', server.url], { home })).stderr).toContain('answers HTTP 503');
    answer = () => ({ status: 200, body: JSON.stringify(keysDocument) });
    expect((await cli(['trust', 'list'], { home })).stdout).toContain('no trusted keys yet');
  });

  it('says so when the server cannot be reached', async () => {
    const closed = await loopbackServer(() => ({ status: 200, body: '' }));
    await closed.close();
    const run = await cli(['trust', 'add', closed.url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`arbiter: cannot reach ${closed.url}/keys (ECONNREFUSED)`);
  });
});

describe('arbiter trust add FILE (a /keys answer saved earlier), and the key log it keeps (trust.md §6)', () => {
  // Key A signed a whole game after the statement retiring it (at AT): what a leaked retired key can do.
  const lateGame = exportOf(playGame({ moves: diceMoves(2), keyFor: () => a }), { keys: [a], keyLog: [] });
  const early = { ...keysDocument, log: [buildKeyRotation({ n: 1, previous: a.fingerprint, next: b.jwk, at: '2026-11-21T00:00:00.000Z' }, a.sign)] };

  it('pins every key the saved document lists and keeps its key log in the trust file', async () => {
    const home = tempDir();
    const saved = writeJson(home, 'keys.json', early);
    const run = await cli(['trust', 'add', saved], { home });
    expect(run.code, run.stderr).toBe(0);
    expect(run.lines).toContain(`now trusting the current key ${b.fingerprint} and 1 retired key (stored in ${join(home, 'trusted-keys.json')})`);
    expect(run.stdout).toContain('kept its key log (1 statement)');
    const stored = JSON.parse(readFileSync(join(home, 'trusted-keys.json'), 'utf8'));
    expect(stored.trusted.map((t: { fingerprint: string }) => t.fingerprint)).toEqual([b.fingerprint, a.fingerprint]);
    expect(stored.logs).toEqual([{ source: saved, log: early.log }]);
  });

  it('refuses, with the kept log, what a retired key signed after its retirement though the file leaves the log out', async () => {
    const home = tempDir();
    const file = writeJson(home, 'late.json', lateGame);
    expect((await cli(['verify', file, '--trust', a.fingerprint], { home })).code).toBe(0);
    expect((await cli(['trust', 'add', writeJson(home, 'keys.json', early)], { home })).code).toBe(0);
    const run = await cli(['verify', file], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`FAILED (retired): the head was signed at ${AT} by ${a.fingerprint}, which key log statement 1 retired at 2026-11-21T00:00:00.000Z`);
  });

  it('takes the key log of a /keys document given as --trust-file', async () => {
    const home = tempDir();
    const run = await cli(['verify', writeJson(home, 'late.json', lateGame), '--trust-file', writeJson(home, 'keys.json', early)], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/FAILED \(retired\)/);
  });

  it('keeps trusting and verifying games a retired key signed before its retirement, with every key of /keys pinned', async () => {
    const home = tempDir();
    const onTime = { ...keysDocument, log: [buildKeyRotation({ n: 1, previous: a.fingerprint, next: b.jwk, at: '2026-11-23T00:00:00.000Z' }, a.sign)] };
    expect((await cli(['trust', 'add', writeJson(home, 'keys.json', onTime)], { home })).code).toBe(0);
    const run = await cli(['verify', writeJson(home, 'before.json', lateGame)], { home });
    expect(run.code, run.stdout).toBe(0);
  });
});
