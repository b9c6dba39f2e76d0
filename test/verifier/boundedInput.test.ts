import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diceMoves, exportOf, honestExport, newKey, playGame } from '../domain/verify/signedExports';
import { cli, tempDir, writeJson } from './cliHarness';
import { buildTournamentHead } from '../../domain/trust/tournamentHead';
import { publishedKey } from '../../domain/trust/publishedKey';

const a = newKey('key-a');
const dir = tempDir();
const honestText = JSON.stringify(honestExport(a));
const honestFile = writeJson(dir, 'honest.json', honestText);
const bytes = Buffer.byteLength(honestText);

describe('arbiter verify --max-bytes / ARBITER_MAX_BYTES: how much it reads', () => {
  it('refuses a file over the bound given, and reads one within it', async () => {
    const under = await cli(['verify', honestFile, '--trust', a.fingerprint, '--max-bytes', String(bytes)]);
    expect(under.code).toBe(0);
    const over = await cli(['verify', honestFile, '--trust', a.fingerprint, '--max-bytes', String(bytes - 1)]);
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(new RegExp(`^arbiter verify: ".*honest.json" is .* MB; files over .* MB are refused$`));
    const fromEnv = await cli(['verify', honestFile, '--trust', a.fingerprint], { env: { ARBITER_MAX_BYTES: '1K' } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('files over 0 MB are refused');
    // The flag wins over the environment.
    expect((await cli(['verify', honestFile, '--trust', a.fingerprint, '--max-bytes=200M'], { env: { ARBITER_MAX_BYTES: '1K' } })).code).toBe(0);
  });

  it('refuses a bound that is not a number of bytes, naming where it came from', async () => {
    for (const value of ['0', '-5', 'lots', '1.5M', '99999999999999999G']) {
      const run = await cli(['verify', honestFile, '--max-bytes', value]);
      expect(run.code, value).toBe(2);
      expect(run.stderr, value).toContain(`--max-bytes takes a number of bytes such as 52428800 or 200M, not ${JSON.stringify(value)}`);
    }
    const run = await cli(['verify', honestFile], { env: { ARBITER_MAX_BYTES: 'big' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('ARBITER_MAX_BYTES takes a number of bytes');
  });
});

describe('arbiter verify reads a game export whatever its line breaks', () => {
  it('verifies it on one line, with a final newline, indented over many lines, and with CRLF', async () => {
    const bundle = JSON.parse(honestText);
    const shapes: [string, string][] = [
      ['one-line.json', honestText],
      ['newline.json', `${honestText}\n\n`],
      ['indented.json', JSON.stringify(bundle, null, 2)],
      ['crlf.json', JSON.stringify(bundle, null, 2).replaceAll('\n', '\r\n')],
    ];
    for (const [name, text] of shapes) {
      const run = await cli(['verify', writeJson(dir, name, text), '--trust', a.fingerprint]);
      expect(run.code, name).toBe(0);
    }
  });

  it('says where an indented export goes wrong, counting lines from the top of the file', async () => {
    const text = JSON.stringify(JSON.parse(honestText), null, 2).replace('"gameId"', '"gameId" "');
    const run = await cli(['verify', writeJson(dir, 'broken.json', text)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is not valid JSON: expected ':' after the key "gameId" at line \d+, column \d+$/);
    const line = Number(/at line (\d+)/.exec(run.stderr)![1]);
    expect(text.split('\n')[line - 1]).toContain('"gameId" "');
  });
});

describe('arbiter verify reads a tournament export a line at a time', () => {
  const game = (gameId: string) => exportOf(playGame({ gameId, tournamentId: 't-club', moves: diceMoves(2, true), keyFor: () => a }), { keys: [a] });
  const games = [game('g-one'), game('g-two')];
  const header = {
    format: 'arbiter-tournament-export/1',
    tournamentId: 't-club',
    name: 'Club',
    exportedAt: '2026-11-23T09:00:00.000Z',
    games: 2,
    tournamentHead: buildTournamentHead({ tournamentId: 't-club', games: games.map((b) => ({ gameId: b.gameId, head: b.head!.hash })), at: '2026-11-23T09:00:00.000Z', kid: a.jwk.kid }, a.sign),
    keys: { keys: [publishedKey(a.jwk, 'current')] },
    keyLog: [],
  };

  it('verifies the games before a later line that is not UTF-8, then refuses the file (exit 2)', async () => {
    const file = join(dir, 'latin1.ndjson');
    writeFileSync(file, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n${JSON.stringify(games[0])}\n`), Buffer.from('"\xe9"\n', 'latin1')]));
    const run = await cli(['verify', file, '--trust', a.fingerprint]);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')).toEqual(['verified 1/2: g-one OK', `arbiter verify: "${file}" is not UTF-8 text`]);
  });

  it('refuses a line nested too deep as that game, and still verifies the others', async () => {
    const file = writeJson(dir, 'deep.ndjson', [JSON.stringify(header), '['.repeat(100_000), JSON.stringify(games[1]), ''].join('\n'));
    const run = await cli(['verify', file, '--trust', a.fingerprint]);
    // The game that line stood for is then missing from the file: a failed check (1) outranks unusable input (2).
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('FILE: game g-one is listed by the tournament head but missing from the file');
    expect(run.stderr.split('\n')[0]).toBe('verified 1/2: line 2 UNUSABLE: line 2 is not valid JSON: arrays and objects nested deeper than 256 levels at line 1, column 257');
    expect(run.stderr.split('\n')[1]).toBe('verified 2/2: g-two OK');
  });
});
