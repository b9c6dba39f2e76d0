import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../functions/local/localService';
import { TestClient } from '../../support/httpClient';
import { run, writeTemp } from '../../support/runCli';

/**
 * `npm start` with a data directory: a tournament's export made by the job in the server's
 * process, sent in parts (multipart) to the embedded s3rver's files, and served by its link
 * on the API's port, as on AWS.
 */
let dataDir: string;
let local: LocalService;
let client: TestClient;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'arbiter-i35-export-local-'));
  local = await startLocalService({ dataDir });
  client = new TestClient(local.url);
});
afterAll(async () => {
  await local?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a tournament export on the local server, with a data directory', () => {
  it('is 202 then 303 to a file under the data directory that verifies, its parts gone once assembled', async () => {
    const cup = (await client.post('/tournaments', { name: 'Local round' })).body;
    for (let table = 0; table < 3; table++) {
      const game = (await client.post('/games', { ruleset: 'dice' }, cup.token)).body;
      for (let i = 0; i < 4; i++) expect((await client.command(game.gameId, game.tokens.players.player1, { commandId: `r${i}`, type: 'Roll', payload: { dice: '2d6', purpose: `r${i}` } })).status).toBe(201);
      expect((await client.command(game.gameId, cup.token, { commandId: 'seal', type: 'Seal' })).status).toBe(201);
    }
    const started = await client.get(`/tournaments/${cup.tournamentId}/export`, cup.token);
    expect([started.status, started.headers.get('retry-after')]).toEqual([202, '1']);
    const file = await client.exported(`/tournaments/${cup.tournamentId}/export`, cup.token);
    expect([file.status, file.headers.get('content-type')]).toEqual([200, 'application/x-ndjson; charset=utf-8']);
    expect(file.text.trimEnd().split('\n')).toHaveLength(4);
    const checked = await run('node', ['bin/arbiter.mjs', 'verify', writeTemp('local-round.ndjson', file.text), '--trust', local.service.signer.fingerprint]);
    expect([checked.code, checked.stdout.trimEnd().split('\n').at(-1)]).toEqual([0, 'OK: every game verified']);
    // The object and the job's record are s3rver's files; no upload is left half-done.
    const bucket = join(dataDir, 'exports', 'exports');
    const names = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? names(join(dir, e.name)).map((n) => `${e.name}/${n}`) : [e.name]));
    const stored = names(bucket);
    expect(stored.some((n) => /^tournaments\/t-[\w-]+\/[0-9a-f]{40}\.ndjson\._S3rver_object$/.test(n))).toBe(true);
    expect(stored.some((n) => /-job\.json\._S3rver_object$/.test(n))).toBe(true);
    expect(stored.filter((n) => n.includes('uploads'))).toEqual([]);
  });
});
