import { describe, expect, it } from 'vitest';
import { buildGameHead } from '../../../domain/trust/gameHead';
import { buildKeyRotation } from '../../../domain/trust/keyRotation';
import { publishedKey } from '../../../domain/trust/publishedKey';
import { VerifierReportSchema } from '../../../domain/verify/verifierReport';
import { examineExport, verifyExport, type VerifyOptions } from '../../../domain/verify/verifyExport';
import { AT, copyOf, diceMoves, exportOf, forged, honestExport, newKey, playGame, rotatedExport } from './signedExports';

const a = newKey('key-a');
const b = newKey('key-b');
const honest = honestExport(a);

/** Every report has the shape of trust.md §5, whatever it says. */
function verify(bundle: unknown, options: VerifyOptions) {
  return VerifierReportSchema.parse(verifyExport(bundle, options));
}

describe('verifyExport (trust.md §5)', () => {
  it('passes an honest sealed game signed by a pinned key: exit 0, the whole report', () => {
    expect(verify(honest, { trusted: [a.fingerprint] })).toEqual({
      ok: true,
      exitCode: 0,
      gameId: 'g-test',
      ruleset: 'dice',
      commits: 9,
      dice: 15,
      rulesReplayed: 9,
      sealed: true,
      signers: [{ fingerprint: a.fingerprint, trusted: true }],
      head: { seq: 9, at: AT },
      failures: [],
      clock: { toMove: null, since: AT, asOf: AT, sides: { player1: { usedSeconds: 0 }, player2: { usedSeconds: 0 } } },
    });
  });

  it('gives no clock when the rules do not replay to the last commit: the figures of a part would not be the game\'s', () => {
    const bundle = copyOf(honest);
    const roll = bundle.commits.find((c) => c.command.type === 'Roll')!;
    roll.events[0].data.total = 99;
    const report = verify(bundle, { trusted: [a.fingerprint] });
    expect(report.rulesReplayed).toBeLessThan(report.commits);
    expect(report).not.toHaveProperty('clock');
  });

  it('refuses a key whose x is not written canonically, so that one key never shows two fingerprints (found in review)', () => {
    const x = honest.keys.keys[0].x;
    const bits = Buffer.from(x, 'base64url');
    for (const spelling of [`${x}=`, Buffer.from(bits).toString('base64').replace(/=+$/, ''), `${x.slice(0, 10)}.${x.slice(10)}`]) {
      if (spelling === x) continue;
      const bundle = copyOf(honest);
      bundle.keys.keys[0].x = spelling;
      // Not "consistent, pin ed25519:<another fingerprint>" (exit 3): the file is refused.
      const report = verify(bundle, { trusted: [] });
      expect(report.exitCode, spelling).toBe(1);
      expect(report.failures.some((f) => f.check === 'signature'), spelling).toBe(true);
    }
  });

  it('never trusts the keys the export brings: with no trust configured, a consistent game exits 3', () => {
    const report = verify(honest, { trusted: [] });
    expect(report).toMatchObject({ ok: false, exitCode: 3, failures: [], signers: [{ fingerprint: a.fingerprint, trusted: false }] });
  });

  it('fails a copy re-signed by another key, though every hash, die and rule checks out', () => {
    const forger = newKey('key-a');
    const copy = forged(honest, forger);
    expect(verify(copy, { trusted: [] })).toMatchObject({ exitCode: 3, dice: 15, rulesReplayed: 9, failures: [] });
    const report = verify(copy, { trusted: [a.fingerprint] });
    expect(report.exitCode).toBe(1);
    expect(report.signers).toEqual([{ fingerprint: forger.fingerprint, trusted: false }]);
    expect(report.failures).toEqual([
      { seq: 1, check: 'trust', reason: `9 commits and the head signed by ${forger.fingerprint}, a key none of your trusted fingerprints reaches` },
    ]);
  });

  it('follows a key rotation through the key log: A pinned, B reached', () => {
    const rotated = rotatedExport(a, b, 6);
    const examination = examineExport(rotated, { trusted: [a.fingerprint] });
    expect(examination.report).toMatchObject({ exitCode: 0, failures: [], signers: [{ fingerprint: a.fingerprint, trusted: true }, { fingerprint: b.fingerprint, trusted: true }] });
    expect(examination.signers.map((s) => [s.kid, s.via, s.commits, s.signedHead])).toEqual([
      ['key-a', 'pinned', 5, false],
      ['key-b', 1, 7, true],
    ]);
    expect(examination.keyLogUsed).toEqual([1]);
  });

  it('fails the second half of a rotated game without the key log, naming the unknown key', () => {
    const report = verify(rotatedExport(a, b, 6, { keyLog: false }), { trusted: [a.fingerprint] });
    expect(report.exitCode).toBe(1);
    expect(report.failures).toEqual([{ seq: 6, check: 'trust', reason: `7 commits and the head signed by ${b.fingerprint}, a key none of your trusted fingerprints reaches` }]);
  });

  it('does not trust backwards: pinning B does not vouch for what A signed', () => {
    const report = verify(rotatedExport(a, b, 6), { trusted: [b.fingerprint] });
    expect(report.failures).toEqual([
      {
        seq: 1,
        check: 'trust',
        reason: `5 commits signed by ${a.fingerprint}, a key none of your trusted fingerprints reaches: a retired key of the server (key log statement 1 retired it), which you did not pin. If the server's /keys lists it too, pin every key it lists: arbiter trust add <server URL>, or add --trust ${a.fingerprint}`,
      },
    ]);
  });

  describe('retirement (trust.md §6)', () => {
    const BEFORE = '2026-11-21T10:00:00.000Z';
    /** A game key A signed entirely at AT, after the statement retiring A at `retiredAt`. */
    const signedByRetiredKey = (retiredAt = BEFORE) => {
      const game = playGame({ moves: diceMoves(3), keyFor: () => a });
      const log = [buildKeyRotation({ n: 1, previous: a.fingerprint, next: b.jwk, at: retiredAt }, a.sign)];
      return { bundle: exportOf(game, { keys: [b, a], keyLog: log, headKey: a }), log };
    };

    it('fails every commit and the head a retired key signed after its retirement, naming the key and the statement, though A is pinned', () => {
      const { bundle } = signedByRetiredKey();
      const report = verify(bundle, { trusted: [a.fingerprint, b.fingerprint] });
      expect(report.exitCode).toBe(1);
      const retired = report.failures.filter((f) => f.check === 'retired');
      expect(retired.map((f) => f.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(retired[1].reason).toBe(`signed at ${AT} by ${a.fingerprint}, which key log statement 1 retired at ${BEFORE}: a retired key signs nothing after its retirement`);
      expect(retired[0].reason).toMatch(/^the head was signed at /);
    });

    it('passes what the key signed up to its retirement, with every key of /keys pinned', () => {
      const { bundle } = signedByRetiredKey(AT);
      expect(verify(bundle, { trusted: [a.fingerprint, b.fingerprint] })).toMatchObject({ exitCode: 0, failures: [] });
    });

    it('fails a key log a leaked retired key forked to hand trust to a key of its own', () => {
      const mallory = newKey('key-m');
      const genuine = buildKeyRotation({ n: 1, previous: a.fingerprint, next: b.jwk, at: BEFORE }, a.sign);
      const fork = buildKeyRotation({ n: 2, previous: a.fingerprint, next: mallory.jwk, at: AT }, a.sign);
      const game = exportOf(playGame({ moves: diceMoves(2), keyFor: () => mallory }), { keys: [a, mallory], keyLog: [genuine, fork] });
      const report = verify(game, { trusted: [a.fingerprint] });
      expect(report.exitCode).toBe(1);
      expect(report.failures).toContainEqual({ seq: 0, check: 'keyLog', reason: `two different statements retire ${a.fingerprint} (key log statements 1 and 2): the key log was forked, which only whoever holds that retired key can do` });
      // The forger's log alone in the file, against the genuine one the person kept.
      const replaced = { ...game, keyLog: [buildKeyRotation({ n: 1, previous: a.fingerprint, next: mallory.jwk, at: BEFORE }, a.sign)] };
      expect(verify(replaced, { trusted: [a.fingerprint], keyLogs: [[genuine]] }).failures.map((f) => f.check)).toContain('keyLog');
    });

    it('takes the retirement from a key log the person keeps when the file leaves its own out', () => {
      const { bundle, log } = signedByRetiredKey();
      const stripped = { ...bundle, keyLog: [], keys: { keys: bundle.keys.keys.filter((k) => k.kid === 'key-a').map((k) => ({ ...k, status: 'current' })) } };
      expect(verify(stripped, { trusted: [a.fingerprint] }).exitCode).toBe(0);
      const report = verify(stripped, { trusted: [a.fingerprint], keyLogs: [log] });
      expect(report.exitCode).toBe(1);
      expect(report.failures.filter((f) => f.check === 'retired')).toHaveLength(8);
    });
  });

  it('fails a key log statement not signed by the key it retires', () => {
    const mallory = newKey('key-m');
    const rotated = rotatedExport(a, mallory, 6);
    rotated.keyLog = [buildKeyRotation({ n: 1, previous: a.fingerprint, next: mallory.jwk, at: AT }, mallory.sign)];
    const report = verify(rotated, { trusted: [a.fingerprint] });
    expect(report.exitCode).toBe(1);
    expect(report.failures[0]).toEqual({ seq: 0, check: 'keyLog', reason: 'key log statement 1 is not signed by its key: the signature does not match the hash' });
  });

  it('fails a truncated export against its head, naming both seqs', () => {
    const game = playGame({ moves: diceMoves(36), keyFor: () => a });
    const full = exportOf(game, { keys: [a] });
    expect(full.head?.seq).toBe(40);
    const cut = { ...copyOf(full), commits: full.commits.slice(0, 31) };
    delete cut.serverSeed;
    const report = verify(cut, { trusted: [a.fingerprint] });
    expect(report.exitCode).toBe(1);
    expect(report.head).toEqual({ seq: 40, at: AT });
    expect(report.failures).toEqual([
      { seq: 0, check: 'head', reason: 'the head says seq 40, the file ends at seq 31' },
      { seq: 0, check: 'head', reason: 'the head says the game is sealed, the file says it is not sealed' },
    ]);
  });

  it('fails an export without a head (it cannot show it is complete), or with a head of another game', () => {
    const headless = copyOf(honest);
    delete headless.head;
    expect(verify(headless, { trusted: [a.fingerprint] })).toMatchObject({
      exitCode: 1,
      head: null,
      failures: [{ seq: 0, check: 'head', reason: 'the export has no signed head, so nothing shows it is complete: it may have been cut short' }],
    });
    const other = copyOf(honest);
    const last = other.commits.at(-1)!;
    other.head = buildGameHead({ gameId: 'g-other', seq: last.seq, lastHash: last.hash, sealed: true, at: AT, kid: a.jwk.kid }, a.sign);
    expect(verify(other, { trusted: [a.fingerprint] }).failures).toEqual([{ seq: 0, check: 'head', reason: 'the head is for game "g-other", not "g-test"' }]);
  });

  it('fails a head that does not name the last commit, or signed by a key not trusted', () => {
    const moved = copyOf(honest);
    moved.head = buildGameHead({ gameId: 'g-test', seq: 9, lastHash: moved.commits[7].hash, sealed: true, at: AT, kid: a.jwk.kid }, a.sign);
    expect(verify(moved, { trusted: [a.fingerprint] }).failures).toEqual([{ seq: 0, check: 'head', reason: "the head's lastHash is not the hash of commit 9" }]);

    const stranger = newKey('key-s');
    const signedElsewhere = copyOf(honest);
    signedElsewhere.keys.keys.push(publishedKey(stranger.jwk, 'retired'));
    const last = signedElsewhere.commits.at(-1)!;
    signedElsewhere.head = buildGameHead({ gameId: 'g-test', seq: 9, lastHash: last.hash, sealed: true, at: AT, kid: 'key-s' }, stranger.sign);
    expect(verify(signedElsewhere, { trusted: [a.fingerprint] }).failures).toEqual([
      { seq: 0, check: 'trust', reason: `the head signed by ${stranger.fingerprint}, a key none of your trusted fingerprints reaches` },
    ]);
  });

  it('exits 3 for an unsealed game, and 0 when unsealed is allowed', () => {
    const open = exportOf(playGame({ moves: diceMoves(3, false), keyFor: () => a }), { keys: [a] });
    expect(verify(open, { trusted: [a.fingerprint] })).toMatchObject({ exitCode: 3, ok: false, sealed: false, dice: 0, failures: [] });
    expect(verify(open, { trusted: [a.fingerprint], allowUnsealed: true })).toMatchObject({ exitCode: 0, ok: true, sealed: false });
  });

  it('fails keys that disguise themselves: a false fingerprint, or two keys under one kid', () => {
    const lying = copyOf(honest);
    (lying.keys.keys[0] as unknown as { fingerprint: string }).fingerprint = b.fingerprint;
    expect(verify(lying, { trusted: [a.fingerprint] }).failures).toEqual([
      { seq: 0, check: 'keys', reason: `the key "key-a" claims the fingerprint "${b.fingerprint}", but its public key has ${a.fingerprint}` },
    ]);
    const twins = copyOf(honest);
    twins.keys.keys.unshift(publishedKey({ x: b.jwk.x, kid: 'key-a' }, 'retired'));
    expect(verify(twins, { trusted: [a.fingerprint] }).failures).toEqual([{ seq: 0, check: 'keys', reason: 'two different keys are both called "key-a"' }]);
  });

  it('gives exit code 2 for anything that is not an export, without throwing', () => {
    for (const junk of [null, 7, 'text', [], {}, { commits: [] }, { ...copyOf(honest), keys: null }]) {
      expect(verify(junk, { trusted: [a.fingerprint] })).toMatchObject({ ok: false, exitCode: 2, gameId: null, failures: [{ seq: 0, check: 'structure' }] });
    }
  });

  it('fails a commit whose recordedAt is not an ISO time, though signed by a trusted key: no terminal escapes reach the report (found in review)', () => {
    const bundle = copyOf(honest);
    bundle.commits[1]!.recordedAt = `${AT}\u001b[1A\u001b[2K\r  ok`;
    const report = verify(forged(bundle, a), { trusted: [a.fingerprint] });
    expect(report.ok).toBe(false);
    expect(report.failures[0]).toMatchObject({ seq: 2 });
    expect(JSON.stringify(report.failures)).toContain('recordedAt');
    expect(report).not.toHaveProperty('clock');
  });

  it('reports a malformed head, key log or commit as failures, without throwing', () => {
    expect(verify({ ...copyOf(honest), keyLog: {} }, { trusted: [a.fingerprint] }).failures).toEqual([{ seq: 0, check: 'keyLog', reason: 'the key log is not a list' }]);
    for (const change of [{ head: 'x' }, { head: null }, { keyLog: [null] }, { commits: [...honest.commits.slice(0, 8), null] }]) {
      const report = verify({ ...copyOf(honest), ...change }, { trusted: [a.fingerprint] });
      expect(report.exitCode, JSON.stringify(change).slice(0, 40)).toBe(1);
    }
  });
});
