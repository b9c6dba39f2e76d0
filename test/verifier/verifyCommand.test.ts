import { describe, expect, it } from 'vitest';
import { publishedKey } from '../../domain/trust/publishedKey';
import { VerifierReportSchema } from '../../domain/verify/verifierReport';
import { copyOf, diceMoves, exportOf, forged, honestExport, newKey, playGame, rotatedExport } from '../domain/verify/signedExports';
import { cli, tempDir, writeJson } from './cliHarness';

const a = newKey('key-a');
const b = newKey('key-b');
const dir = tempDir();
const honestFile = writeJson(dir, 'honest.json', honestExport(a));

describe('arbiter verify: what a player reads', () => {
  it('exit 0: says what was checked, who signed and that it is trusted, and ends with OK', async () => {
    const run = await cli(['verify', honestFile, '--trust', a.fingerprint]);
    expect(run.code).toBe(0);
    expect(run.lines).toEqual([
      'game g-test (dice: Dice — a trusted roller): 9 commits, sealed',
      '  ✓ chain: seq contiguous from 1, every prevHash link, every SHA-256 hash and Ed25519 signature',
      '  ✓ seed: SHA-256(serverSeed) equals the commitment published in commit 1',
      "  ✓ dice: 15 dice re-derived from the seed and the players' entropy",
      '  ✓ rules: every command replayed through the dice ruleset gives the recorded events (9 commits)',
      '  - time used: player1 0 s, player2 0 s (to the last commit, 2026-11-22T10:00:00.000Z); nobody to move',
      "  ✓ head: the server's signed head says the game ends at seq 9 (2026-11-22T10:00:00.000Z), as the file does",
      `  ✓ signed by ${a.fingerprint} (kid key-a, 9 commits and the head): trusted, pinned by you`,
      'OK',
    ]);
  });

  it('exit 3 with no trust configured: prints the signer\'s fingerprint and exactly how to pin it', async () => {
    const run = await cli(['verify', honestFile]);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain(`  ? signed by ${a.fingerprint} (kid key-a, 9 commits and the head): not trusted yet`);
    expect(run.lines).toContain(`    npx arbiter verify ${honestFile} --trust ${a.fingerprint}`);
    expect(run.lines).toContain(`    npx arbiter trust add ${a.fingerprint}`);
    expect(run.lines).not.toContain('OK');
  });

  it('exit 3 for an unsealed game, saying its dice cannot be checked until the organizer seals it; 0 with --allow-unsealed', async () => {
    const file = writeJson(dir, 'open.json', exportOf(playGame({ moves: diceMoves(3, false), keyFor: () => a }), { keys: [a] }));
    const run = await cli(['verify', file, '--trust', a.fingerprint]);
    expect(run.code).toBe(3);
    expect(run.lines).toContain('  - dice: not checked yet: the seed stays secret until the organizer seals the game');
    expect(run.lines.at(-1)).toBe('NOT SEALED: its dice cannot be checked until the organizer seals the game (--allow-unsealed accepts it as it is).');
    const allowed = await cli(['verify', file, '--trust', a.fingerprint, '--allow-unsealed']);
    expect(allowed.code).toBe(0);
    expect(allowed.lines.at(-1)).toBe('OK so far: not sealed, so its dice are not checked yet');
  });

  it('exit 1 for a copy re-signed with a fresh key and its own keys (exit 3 without trust)', async () => {
    const forger = newKey('key-a');
    const file = writeJson(dir, 'forged.json', forged(honestExport(a), forger));
    const untrusted = await cli(['verify', file]);
    expect(untrusted.code).toBe(3);
    expect(untrusted.stdout).toContain(forger.fingerprint);
    const run = await cli(['verify', file, '--trust', a.fingerprint]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`  ✗ signed by ${forger.fingerprint} (kid key-a, 9 commits and the head): NOT a key you trust`);
    expect(run.lines.at(-1)).toBe(`FAILED at seq 1 (trust): 9 commits and the head signed by ${forger.fingerprint}, a key none of your trusted fingerprints reaches`);
  });

  it('exit 1 for a changed die, naming its seq', async () => {
    const tampered = copyOf(honestExport(a));
    tampered.commits[4].dice[0].value = (tampered.commits[4].dice[0].value % 6) + 1;
    const run = await cli(['verify', writeJson(dir, 'die.json', tampered), '--trust', a.fingerprint]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^FAILED at seq 5 \(hash\): the record does not hash to its "hash"$/m);
  });

  it('passes a game whose key rotated halfway with only the first key pinned, through the key log; fails it without the log', async () => {
    const withLog = await cli(['verify', writeJson(dir, 'rotated.json', rotatedExport(a, b, 6)), '--trust', a.fingerprint]);
    expect(withLog.code).toBe(0);
    expect(withLog.lines).toContain(`  ✓ signed by ${b.fingerprint} (kid key-b, 7 commits and the head): trusted, handed over to in key log statement 1`);
    const withoutLog = await cli(['verify', writeJson(dir, 'rotated-no-log.json', rotatedExport(a, b, 6, { keyLog: false })), '--trust', a.fingerprint]);
    expect(withoutLog.code).toBe(1);
    expect(withoutLog.stdout).toContain(`FAILED at seq 6 (trust): 7 commits and the head signed by ${b.fingerprint}`);
  });

  it('fails a truncated export on its head, naming both seqs', async () => {
    const full = exportOf(playGame({ moves: diceMoves(36), keyFor: () => a }), { keys: [a] });
    const cut = { ...copyOf(full), commits: full.commits.slice(0, 31) };
    delete cut.serverSeed;
    const run = await cli(['verify', writeJson(dir, 'cut.json', cut), '--trust', a.fingerprint]);
    expect(run.code).toBe(1);
    expect(run.lines).toContain('FAILED (head): the head says seq 40, the file ends at seq 31');
  });
});

describe('arbiter verify: where trust comes from', () => {
  it('--trust-file: a JSON array of fingerprints, or a /keys document saved earlier', async () => {
    const array = writeJson(dir, 'pins.json', [b.fingerprint, a.fingerprint]);
    expect((await cli(['verify', honestFile, '--trust-file', array])).code).toBe(0);
    const keysDocument = writeJson(dir, 'keys.json', { keys: [publishedKey(a.jwk, 'current')], log: [] });
    expect((await cli(['verify', honestFile, '--trust-file', keysDocument])).code).toBe(0);
    const otherKeys = writeJson(dir, 'other-keys.json', { keys: [publishedKey(b.jwk, 'current')], log: [] });
    expect((await cli(['verify', honestFile, '--trust-file', otherKeys])).code).toBe(1);
  });

  it('refuses a --trust-file it cannot use, and a /keys document whose fingerprint is not its key\'s', async () => {
    const lying = writeJson(dir, 'lying-keys.json', { keys: [{ ...publishedKey(b.jwk, 'current'), fingerprint: a.fingerprint }] });
    for (const [file, message] of [
      [lying, `key 1 states the fingerprint "${a.fingerprint}", but its public key has ${b.fingerprint}`],
      [writeJson(dir, 'bad.json', '["ed25519:short"]'), 'entry 1 is not a fingerprint'],
      [writeJson(dir, 'notjson.json', 'ed25519:abc'), 'is not valid JSON'],
      [writeJson(dir, 'object.json', { pins: [] }), 'neither a JSON array of fingerprints nor a /keys document'],
      [`${dir}/missing-pins.json`, 'there is no file'],
    ]) {
      const run = await cli(['verify', honestFile, '--trust-file', file]);
      expect(run.code, file).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });

  it('refuses a --trust that is not a fingerprint', async () => {
    for (const value of ['key-a', a.fingerprint.slice(8), `${a.fingerprint}x`]) {
      const run = await cli(['verify', honestFile, '--trust', value]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('--trust takes a fingerprint like ed25519:<43 characters>');
    }
  });

  it('reads the person\'s own trust file, from $ARBITER_TRUST_FILE or ~/.config/arbiter/trusted-keys.json', async () => {
    const home = tempDir();
    expect((await cli(['trust', 'add', a.fingerprint], { home, env: { ARBITER_TRUST_FILE: undefined } })).code).toBe(0);
    expect((await cli(['verify', honestFile], { home, env: { ARBITER_TRUST_FILE: undefined } })).code).toBe(0);
    const elsewhere = writeJson(tempDir(), 'mine.json', { trusted: [{ fingerprint: a.fingerprint, source: 'given by hand', added: '2026-11-23' }] });
    expect((await cli(['verify', honestFile], { env: { ARBITER_TRUST_FILE: elsewhere } })).code).toBe(0);
    const broken = writeJson(tempDir(), 'broken.json', '{"trusted": [');
    const run = await cli(['verify', honestFile], { env: { ARBITER_TRUST_FILE: broken } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('your trust file');
  });
});

describe('arbiter verify --json', () => {
  it('prints one object of the documented schema, whose exitCode is the exit code, for every outcome', async () => {
    const forger = newKey('key-f');
    const cases: [string[], number][] = [
      [[honestFile, '--trust', a.fingerprint], 0],
      [[writeJson(dir, 'forged-json.json', forged(honestExport(a), forger)), '--trust', a.fingerprint], 1],
      [[writeJson(dir, 'null.json', 'null')], 2],
      [[`${dir}/nothing-here.json`], 2],
      [[honestFile], 3],
    ];
    for (const [args, code] of cases) {
      const run = await cli(['verify', ...args, '--json']);
      expect(run.code, args[0]).toBe(code);
      expect(run.lines).toHaveLength(1);
      const report = VerifierReportSchema.parse(JSON.parse(run.lines[0]));
      expect(report.exitCode).toBe(code);
      expect(report.ok).toBe(code === 0);
    }
  });

  it('reports the whole verification', async () => {
    const run = await cli(['verify', writeJson(dir, 'rotated-json.json', rotatedExport(a, b, 6)), '--trust', a.fingerprint, '--json']);
    expect(JSON.parse(run.stdout)).toEqual({
      ok: true,
      exitCode: 0,
      gameId: 'g-test',
      ruleset: 'dice',
      commits: 12,
      dice: 24,
      rulesReplayed: 12,
      sealed: true,
      signers: [
        { fingerprint: a.fingerprint, trusted: true },
        { fingerprint: b.fingerprint, trusted: true },
      ],
      head: { seq: 12, at: '2026-11-22T10:00:00.000Z' },
      failures: [],
      clock: { toMove: null, since: '2026-11-22T10:00:00.000Z', asOf: '2026-11-22T10:00:00.000Z', sides: { player1: { usedSeconds: 0 }, player2: { usedSeconds: 0 } } },
    });
  });
});

describe('arbiter verify: text from the file cannot forge output lines', () => {
  const hostileId = 'g\nOK\u2028\u001b[2J\u202eKO';

  it('escapes control characters, line separators and bidi overrides in what it prints', async () => {
    const game = exportOf(playGame({ gameId: hostileId, moves: diceMoves(2), keyFor: () => a }), { keys: [a] });
    const run = await cli(['verify', writeJson(dir, 'hostile-id.json', game)]);
    expect(run.code).toBe(3);
    expect(run.lines[0]).toBe('game g\\u000aOK\\u2028\\u001b[2J\\u202eKO (dice: Dice — a trusted roller): 6 commits, sealed');
    for (const line of run.lines) expect(line).not.toMatch(/[\u0000-\u001f\u2028\u2029\u202e]/);
    expect(run.lines).not.toContain('OK');
    const json = await cli(['verify', writeJson(dir, 'hostile-id.json', game), '--json']);
    expect(json.lines).toHaveLength(1);
    expect(JSON.parse(json.lines[0]).gameId).toBe(hostileId);
  });

  it('escapes text from the file inside failure reasons too', async () => {
    const tampered = copyOf(honestExport(a));
    tampered.commits[3].command.type = 'Roll\nOK';
    const run = await cli(['verify', writeJson(dir, 'hostile-type.json', forged(tampered, a)), '--trust', a.fingerprint]);
    expect(run.code).toBe(1);
    expect(run.lines).toContain('FAILED at seq 4 (rules): the command Roll\\u000aOK is not valid here');
    expect(run.lines).not.toContain('OK');
  });
});
