import { describe, expect, it } from 'vitest';
import type { ExportDelivery } from '../../../functions/application/exports';
import { EXPORT_JOB_ATTEMPTS, EXPORT_JOB_STALE_MS, InProcessExportJobs, startTournamentExport, tournamentExportStatus, type TournamentExportAnswer } from '../../../functions/application/tournamentExportJobs';
import type { ExportJob, ExportJobStarter } from '../../../functions/ports/exportJobs';
import { StoreUnavailable } from '../../../functions/ports/eventStore';
import { memoryBlobs } from '../../support/memoryBlobs';
import { memoryService } from '../../support/memoryService';
import { run, writeTemp } from '../../support/runCli';

/** A tournament of `games` dice games, each with `rolls` rolls. */
async function cupOf(label: string, games: number, rolls: number) {
  const { service } = memoryService(label);
  const cup = await service.tournaments.create({ name: `Cup ${label}` });
  const gameIds: string[] = [];
  for (let g = 0; g < games; g++) {
    const game = await service.tournaments.createGame({ ruleset: 'dice' }, cup.token);
    gameIds.push(game.gameId);
    for (let r = 0; r < rolls; r++) await service.submit(game.gameId, game.tokens.players.player1, { commandId: `r${r}`, type: 'Roll', payload: { dice: '2d6', purpose: `roll ${r}` } });
  }
  return { service, cup, gameIds };
}

const pending = (answer: TournamentExportAnswer) => {
  expect(answer.kind).toBe('pending');
  return answer as Extract<TournamentExportAnswer, { kind: 'pending' }>;
};
const verify = (text: string, fingerprint: string) => run('node', ['bin/arbiter.mjs', 'verify', writeTemp('cup.ndjson', text), '--trust', fingerprint, '--allow-unsealed']);

describe('a tournament export made by a job', () => {
  it('answers 202 (pending) at once, then the link of a file the verifier accepts, written in parts, whose games are exactly what the file made in one request holds', async () => {
    const { service, cup } = await cupOf('job', 6, 20);
    const blobs = memoryBlobs({}, 8 * 1024);
    const jobs = new InProcessExportJobs(service, blobs.store);
    const delivery: ExportDelivery = { store: blobs.store, jobs };
    const first = pending(await startTournamentExport(service, delivery, cup.tournamentId, cup.token));
    expect(first.exportId).toMatch(/^[0-9a-f]{40}$/);
    await jobs.idle();
    const ready = await tournamentExportStatus(service, delivery, cup.tournamentId, first.exportId, cup.token);
    expect(ready).toMatchObject({ kind: 'link', exportId: first.exportId });
    const stored = blobs.objects.get(`tournaments/${cup.tournamentId}/${first.exportId}.ndjson`)!.toString('utf8');
    // Written in several parts, none held whole.
    expect(blobs.calls.filter((c) => c.startsWith('part ')).length).toBeGreaterThan(2);
    // The same games, byte for byte, as the file a request made itself; the header differs only by when it was signed.
    const inline = await startTournamentExport(service, undefined, cup.tournamentId, cup.token);
    expect(inline.kind).toBe('inline');
    const [storedHeader, ...storedGames] = stored.trimEnd().split('\n');
    const [inlineHeader, ...inlineGames] = (inline as { body: string }).body.trimEnd().split('\n');
    expect(storedGames).toEqual(inlineGames);
    expect(Object.keys(JSON.parse(storedHeader))).toEqual(Object.keys(JSON.parse(inlineHeader)));
    const checked = await verify(stored, service.signer.fingerprint);
    expect([checked.code, checked.stdout.trimEnd().split('\n').at(-1)]).toEqual([0, 'OK: every game verified']);
  });

  it('is made once per state: asked again it is answered by its link at once, a command in a game is a new export', async () => {
    const { service, cup, gameIds } = await cupOf('once', 3, 2);
    const blobs = memoryBlobs();
    const jobs = new InProcessExportJobs(service, blobs.store);
    const delivery: ExportDelivery = { store: blobs.store, jobs };
    const first = pending(await startTournamentExport(service, delivery, cup.tournamentId, cup.token));
    // Joined while it runs: the same export, no second job record written.
    const joined = pending(await startTournamentExport(service, delivery, cup.tournamentId, cup.token));
    expect(joined.exportId).toBe(first.exportId);
    await jobs.idle();
    const uploads = () => blobs.calls.filter((c) => c.startsWith('upload ')).length;
    expect(uploads()).toBe(1);
    const again = await startTournamentExport(service, delivery, cup.tournamentId, cup.token);
    expect(again).toMatchObject({ kind: 'link', exportId: first.exportId });
    expect(uploads()).toBe(1);
    await service.submit(gameIds[0], cup.token, { commandId: 'late', type: 'Roll', payload: { dice: 'd6', purpose: 'late' }, as: 'player1' });
    const next = pending(await startTournamentExport(service, delivery, cup.tournamentId, cup.token));
    expect(next.exportId).not.toBe(first.exportId);
    await jobs.idle();
    expect(uploads()).toBe(2);
  });

  it('refuses a wrong token before the store is asked anything, and an unknown or malformed export id with 404', async () => {
    const { service, cup } = await cupOf('refuse', 1, 0);
    const blobs = memoryBlobs();
    const delivery: ExportDelivery = { store: blobs.store, jobs: new InProcessExportJobs(service, blobs.store) };
    await expect(startTournamentExport(service, delivery, cup.tournamentId, 'arb_wrong')).rejects.toMatchObject({ status: 401 });
    await expect(tournamentExportStatus(service, delivery, cup.tournamentId, 'a'.repeat(40), undefined)).rejects.toMatchObject({ status: 401 });
    expect(blobs.calls).toEqual([]);
    await expect(tournamentExportStatus(service, delivery, cup.tournamentId, 'a'.repeat(40), cup.token)).rejects.toMatchObject({ status: 404 });
    await expect(tournamentExportStatus(service, delivery, cup.tournamentId, '../../games', cup.token)).rejects.toMatchObject({ status: 404 });
    // A page after a game the tournament does not hold is the request's 400 naming the field, no job started.
    for (const after of ['__proto__', 'g-nobody']) {
      await expect(startTournamentExport(service, delivery, cup.tournamentId, cup.token, { after, limit: 10 })).rejects.toMatchObject({ status: 400, details: { issues: [{ field: 'after' }] } });
    }
    expect(blobs.calls.filter((c) => c.startsWith('put ') || c.startsWith('upload '))).toEqual([]);
  });

  it('a job that fails stores nothing; its status starts it again, at most three times, then answers 503; a lost job is started again once stale', async () => {
    const { service, cup } = await cupOf('fail', 2, 1);
    const blobs = memoryBlobs({ part: new Error('disk on fire') });
    const started: ExportJob[] = [];
    const inProcess = new InProcessExportJobs(service, blobs.store);
    const jobs: ExportJobStarter = { start: async (job) => (started.push(job), inProcess.start(job)) };
    let now = Date.parse('2026-11-27T12:00:00Z');
    const delivery: ExportDelivery = { store: blobs.store, jobs, now: () => now };
    const { exportId } = pending(await startTournamentExport(service, delivery, cup.tournamentId, cup.token));
    for (let attempt = 2; attempt <= EXPORT_JOB_ATTEMPTS; attempt++) {
      await inProcess.idle();
      pending(await tournamentExportStatus(service, delivery, cup.tournamentId, exportId, cup.token));
    }
    await inProcess.idle();
    expect(started).toHaveLength(EXPORT_JOB_ATTEMPTS);
    expect(blobs.calls.filter((c) => c.startsWith('abort ')).length).toBe(EXPORT_JOB_ATTEMPTS);
    expect([...blobs.objects.keys()].filter((k) => k.endsWith('.ndjson'))).toEqual([]);
    await expect(tournamentExportStatus(service, delivery, cup.tournamentId, exportId, cup.token)).rejects.toMatchObject({ status: 503, headers: { 'retry-after': '300' } });

    // A job that never reports (its function died): running until stale, then started again.
    const quiet = memoryBlobs();
    const lost: ExportJob[] = [];
    const silent: ExportDelivery = { store: quiet.store, jobs: { start: async (job) => void lost.push(job) }, now: () => now };
    const second = pending(await startTournamentExport(service, silent, cup.tournamentId, cup.token));
    pending(await tournamentExportStatus(service, silent, cup.tournamentId, second.exportId, cup.token));
    expect(lost).toHaveLength(1);
    now += EXPORT_JOB_STALE_MS + 1;
    pending(await tournamentExportStatus(service, silent, cup.tournamentId, second.exportId, cup.token));
    expect(lost).toHaveLength(2);
  });

  it('a job that could not be started (its Invoke failed) is not taken for running: the request fails, and the next ask starts it again', async () => {
    const { service, cup } = await cupOf('nostart', 1, 1);
    const blobs = memoryBlobs();
    const inProcess = new InProcessExportJobs(service, blobs.store);
    let invokeFails = true;
    const jobs: ExportJobStarter = {
      start: async (job) => {
        if (invokeFails) throw new StoreUnavailable('lambda down');
        return inProcess.start(job);
      },
    };
    const delivery: ExportDelivery = { store: blobs.store, jobs, now: () => Date.parse('2026-11-27T12:00:00Z') };
    await expect(startTournamentExport(service, delivery, cup.tournamentId, cup.token)).rejects.toBeInstanceOf(StoreUnavailable);
    invokeFails = false;
    // Same instant, well within EXPORT_JOB_STALE_MS: a 202 here would mean nothing runs for 15 minutes.
    const retried = pending(await startTournamentExport(service, delivery, cup.tournamentId, cup.token));
    await inProcess.idle();
    expect(await tournamentExportStatus(service, delivery, cup.tournamentId, retried.exportId, cup.token)).toMatchObject({ kind: 'link', exportId: retried.exportId });
  });
});
