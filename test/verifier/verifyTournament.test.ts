import { describe, expect, it } from 'vitest';
import type { ExportBundle } from '../../domain/verify/exportBundle';
import { VerifierReportSchema } from '../../domain/verify/verifierReport';
import { copyOf, diceMoves, exportOf, forged, newKey, playGame } from '../domain/verify/signedExports';
import { cli, tempDir, writeJson } from './cliHarness';
import { buildTournamentHead } from '../../domain/trust/tournamentHead';
import { publishedKey } from '../../domain/trust/publishedKey';
import { buildKeyRotation } from '../../domain/trust/keyRotation';

const a = newKey('key-a');
const mallory = newKey('key-m');
const dir = tempDir();

const game = (gameId: string, rolls = 3, sealed = true, tournamentId = 't-club') => exportOf(playGame({ gameId, tournamentId, moves: diceMoves(rolls, sealed), keyFor: () => a }), { keys: [a] });
/** A header whose signed tournament head lists `listed` (by default the games of the file). */
const tournamentHeader = (listed: ExportBundle[], games = listed.length, signer = a) => ({
  format: 'arbiter-tournament-export/1',
  tournamentId: 't-club',
  name: 'Club round 1',
  exportedAt: '2026-11-23T09:00:00.000Z',
  games,
  tournamentHead: buildTournamentHead({ tournamentId: 't-club', games: listed.map((b) => ({ gameId: b.gameId, head: b.head!.hash })), at: '2026-11-23T09:00:00.000Z', kid: signer.jwk.kid }, signer.sign),
  keys: { keys: [publishedKey(signer.jwk, 'current')] },
  keyLog: [],
});
const header = (games: number) => tournamentHeader([game('g-one')], games);
const ndjson = (lines: unknown[]) => lines.map((line) => `${JSON.stringify(line)}\n`).join('');
const tournamentFile = (name: string, bundles: ExportBundle[], announced = bundles.length) => writeJson(dir, name, ndjson([tournamentHeader(bundles, announced), ...bundles]));

describe('arbiter verify on a tournament export (NDJSON: a header line, then one game per line)', () => {
  it('verifies every game, prints a line per game on stderr when it is not a terminal, and a table with totals', async () => {
    const file = tournamentFile('round.ndjson', [game('g-one'), game('g-two', 5), game('g-three', 1)]);
    const run = await cli(['verify', file, '--trust', a.fingerprint]);
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n')).toEqual(['verified 1/3: g-one OK', 'verified 2/3: g-two OK', 'verified 3/3: g-three OK']);
    expect(run.lines[0]).toBe('tournament t-club (Club round 1): 3 games, exported 2026-11-23T09:00:00.000Z');
    expect(run.lines[1]).toMatch(/^game\s+ruleset\s+commits\s+sealed\s+result$/);
    expect(run.lines.slice(2, 5).map((line) => line.split(/\s+/))).toEqual([
      ['g-one', 'dice', '7', 'yes', 'OK'],
      ['g-two', 'dice', '9', 'yes', 'OK'],
      ['g-three', 'dice', '5', 'yes', 'OK'],
    ]);
    expect(run.lines.slice(5)).toEqual(['3 games: 3 OK', 'OK: every game verified']);
  });

  it('draws a progress bar on a terminal instead of the per-game lines', async () => {
    const file = tournamentFile('bar.ndjson', [game('g-one'), game('g-two')]);
    const run = await cli(['verify', file, '--trust', a.fingerprint], { tty: true });
    expect(run.code).toBe(0);
    expect(run.progress).toEqual([`[${'#'.repeat(12)}${'.'.repeat(12)}] 1/2 games verified`, `[${'#'.repeat(24)}] 2/2 games verified`, '']);
    expect(run.stderr).toBe('');
  });

  it('fails the whole file (exit 1) when one game is forged, naming that game, and still checks the others', async () => {
    const file = tournamentFile('forged.ndjson', [game('g-one'), forged(game('g-two'), mallory), game('g-three')]);
    const run = await cli(['verify', file, '--trust', a.fingerprint]);
    expect(run.code).toBe(1);
    const rows = run.lines.slice(2, 5);
    expect(rows[0]).toMatch(/^g-one\s.*OK$/);
    expect(rows[1]).toMatch(/^g-two\s.*FAILED/);
    expect(rows[2]).toMatch(/^g-three\s.*OK$/);
    expect(run.lines).toContain('3 games: 2 OK, 1 FAILED');
  });

  it('--json prints one trust.md §5 report per game, a line each', async () => {
    const changed = copyOf(game('g-two'));
    changed.commits[3].dice[0].value = (changed.commits[3].dice[0].value % 6) + 1;
    const file = tournamentFile('json.ndjson', [game('g-one'), changed, game('g-open', 2, false)]);
    const run = await cli(['verify', file, '--trust', a.fingerprint, '--json']);
    expect(run.code).toBe(1);
    const reports = run.lines.map((line) => VerifierReportSchema.parse(JSON.parse(line)));
    expect(reports.map((r) => [r.gameId, r.exitCode])).toEqual([
      ['g-one', 0],
      ['g-two', 1],
      ['g-open', 3],
    ]);
  });

  it('says when the file was cut short, or holds a game twice, or a line that is not JSON', async () => {
    const short = await cli(['verify', tournamentFile('short.ndjson', [game('g-one')], 3), '--trust', a.fingerprint]);
    expect(short.code).toBe(2);
    expect(short.lines).toContain('FILE: the header announces 3 games but the file holds 1: it was cut short');

    const twice = await cli(['verify', tournamentFile('twice.ndjson', [game('g-one'), game('g-one')]), '--trust', a.fingerprint]);
    expect(twice.code).toBe(1);
    expect(twice.stdout).toContain('appears twice in the file (again on line 3)');

    const broken = writeJson(dir, 'broken.ndjson', `${JSON.stringify(header(2))}\n${JSON.stringify(game('g-one'))}\n{"gameId": "g-two", "gameId": 1}\n`);
    const run = await cli(['verify', broken, '--trust', a.fingerprint]);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/\(line 3\).*UNUSABLE: line 3 is not valid JSON/);

    const badHeader = writeJson(dir, 'header.ndjson', `${JSON.stringify({ ...header(1), games: 'many' })}\n${JSON.stringify(game('g-one'))}\n`);
    const refused = await cli(['verify', badHeader, '--trust', a.fingerprint]);
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('not the header of a tournament export')]);
  });

  it('without a trusted key: exit 3, and how to pin the signer', async () => {
    const run = await cli(['verify', tournamentFile('untrusted.ndjson', [game('g-one')])]);
    expect(run.code).toBe(3);
    expect(run.lines).toContain(`    npx arbiter trust add ${a.fingerprint}`);
  });

  it('escapes what the file says: a tournament name cannot forge an output line', async () => {
    const file = writeJson(dir, 'named.ndjson', ndjson([{ ...header(1), name: 'Round 1\nOK: every game verified' }, game('g-one')]));
    const run = await cli(['verify', file, '--trust', a.fingerprint, '--allow-unsealed']);
    expect(run.lines[0]).toBe('tournament t-club (Round 1\\u000aOK: every game verified): 1 games, exported 2026-11-23T09:00:00.000Z');
  });
});

describe('arbiter verify and the tournament head (trust.md §7)', () => {
  const one = game('g-one');
  const two = game('g-two');
  const three = game('g-three');
  const listed = [one, two, three];

  it('fails a game the head does not list, a listed game the file lacks, and a game of another tournament, naming each', async () => {
    const stranger = game('g-stranger', 3, true, 't-other');
    const run = await cli(['verify', writeJson(dir, 'swapped.ndjson', ndjson([tournamentHeader(listed, 3), one, stranger, three])), '--trust', a.fingerprint]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('game g-stranger was created in tournament t-other, not t-club');
    expect(run.stdout).toContain('FILE: game g-two is listed by the tournament head but missing from the file');
    const json = await cli(['verify', writeJson(dir, 'swapped.ndjson', ndjson([tournamentHeader(listed, 3), one, stranger, three])), '--trust', a.fingerprint, '--json']);
    const reports = json.lines.map((line) => VerifierReportSchema.parse(JSON.parse(line)));
    expect(reports[1].failures.map((f) => f.reason)).toEqual(['game g-stranger was created in tournament t-other, not t-club', 'game g-stranger is not one of the games the tournament head lists']);
    expect(reports.at(-1)).toMatchObject({ exitCode: 1, failures: [{ check: 'tournament', reason: 'game g-two is listed by the tournament head but missing from the file' }] });
  });

  it('fails a head signed by a key none of the trusted fingerprints reaches, and a head that was changed after signing', async () => {
    const forgedHead = await cli(['verify', writeJson(dir, 'mallory.ndjson', ndjson([tournamentHeader(listed, 3, mallory), ...listed])), '--trust', a.fingerprint]);
    expect(forgedHead.code).toBe(1);
    expect(forgedHead.stdout).toContain(`the tournament head is signed by ${mallory.fingerprint}, a key none of your trusted fingerprints reaches`);

    const header = tournamentHeader([one, two], 3);
    header.tournamentHead.games.push({ gameId: 'g-three', head: three.head!.hash });
    const edited = await cli(['verify', writeJson(dir, 'edited.ndjson', ndjson([header, ...listed])), '--trust', a.fingerprint]);
    expect(edited.code).toBe(1);
    expect(edited.stdout).toContain('FILE: the tournament head does not hash to its "hash"');
  });

  it('fails a game whose head is not the one listed (a later or earlier copy of it)', async () => {
    const earlier = exportOf(playGame({ gameId: 'g-two', tournamentId: 't-club', moves: diceMoves(3, false), keyFor: () => a }), { keys: [a] });
    const run = await cli(['verify', writeJson(dir, 'earlier.ndjson', ndjson([tournamentHeader(listed, 3), one, earlier, three])), '--trust', a.fingerprint, '--allow-unsealed']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('game g-two does not end where the tournament head says');
  });

  it('checks a page against the run of the list it names, and does not call a page the whole tournament (exit 3)', async () => {
    const page = (after: string | null, next: string | null, games: ExportBundle[]) => ndjson([{ ...tournamentHeader(listed, games.length), page: { after, next } }, ...games]);
    const middle = await cli(['verify', writeJson(dir, 'page.ndjson', page('g-one', 'g-two', [two])), '--trust', a.fingerprint]);
    expect(middle.code).toBe(3);
    expect(middle.stdout).toContain('FILE: this file is one page: games 2 to 2 of the 3 the tournament head lists; verify every page');
    expect(middle.stdout).not.toContain('OK: every game verified');

    const wrongRun = await cli(['verify', writeJson(dir, 'wrong-page.ndjson', page('g-one', 'g-two', [three])), '--trust', a.fingerprint]);
    expect(wrongRun.code).toBe(1);
    expect(wrongRun.stdout).toContain('game g-two is listed by the tournament head but missing from the file');

    const whole = await cli(['verify', writeJson(dir, 'one-page.ndjson', page(null, null, listed)), '--trust', a.fingerprint]);
    expect([whole.code, whole.lines.at(-1)]).toEqual([0, 'OK: every game verified']);
  });
});

describe('arbiter verify on a tournament header of the wrong shape', () => {
  it('fails a malformed tournament head (exit 1) and does not call an empty tournament verified without a trusted key (exit 3)', async () => {
    const one = game('g-one');
    for (const tournamentHead of [null, 'signed', { ...tournamentHeader([one]).tournamentHead, games: 'all' }]) {
      const run = await cli(['verify', writeJson(dir, 'malformed.ndjson', ndjson([{ ...tournamentHeader([one]), tournamentHead }, one])), '--trust', a.fingerprint]);
      expect([run.code, run.stdout], JSON.stringify(tournamentHead)).toEqual([1, expect.stringContaining('FILE: the tournament head is not a TournamentHead statement')]);
    }
    const keyless = await cli(['verify', writeJson(dir, 'keyless.ndjson', ndjson([{ ...tournamentHeader([one]), keys: [null], keyLog: 'none' }, one])), '--trust', a.fingerprint]);
    expect([keyless.code, keyless.stdout]).toEqual([1, expect.stringContaining(`no Ed25519 public key "${a.jwk.kid}" in the header`)]);

    const empty = await cli(['verify', writeJson(dir, 'empty.ndjson', ndjson([tournamentHeader([])]))]);
    expect(empty.code).toBe(3);
    expect(empty.stdout).toContain(`    npx arbiter trust add ${a.fingerprint}`);
    expect((await cli(['verify', writeJson(dir, 'empty.ndjson', ndjson([tournamentHeader([])])), '--trust', a.fingerprint])).code).toBe(0);
  });
});

describe('a tournament head and the retirement of its key (trust.md §6)', () => {
  it('fails a tournament head signed by a key after the statement that retired it, naming the key and the statement; the same file signed before it passes', async () => {
    const b = newKey('key-b');
    const games = [game('g-one'), game('g-two')];
    const rotated = (retiredAt: string) => ({
      ...tournamentHeader(games),
      keys: { keys: [publishedKey(a.jwk, 'retired'), publishedKey(b.jwk, 'current')] },
      keyLog: [buildKeyRotation({ n: 1, previous: a.fingerprint, next: b.jwk, at: retiredAt }, a.sign)],
    });
    // The games were signed at their own time; the head is signed at 09:00.
    const after = await cli(['verify', writeJson(dir, 'retired-head.ndjson', ndjson([rotated('2026-11-23T08:59:59.000Z'), ...games.map((g) => ({ ...g, keyLog: [] }))])), '--trust', a.fingerprint, '--trust', b.fingerprint]);
    expect(after.code).toBe(1);
    expect(after.stdout).toContain(`FILE: the tournament head was signed at 2026-11-23T09:00:00.000Z by ${a.fingerprint}, which key log statement 1 retired at 2026-11-23T08:59:59.000Z`);
    const before = await cli(['verify', writeJson(dir, 'retired-later.ndjson', ndjson([rotated('2026-11-23T09:00:01.000Z'), ...games])), '--trust', a.fingerprint, '--trust', b.fingerprint]);
    expect([before.code, before.stdout]).toEqual([0, expect.stringContaining('OK: every game verified')]);
  });
});
