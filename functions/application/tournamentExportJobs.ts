import { createHash } from 'node:crypto';
import { canonicalJson } from '../../domain/canonicalJson';
import type { GameHead } from '../../domain/trust/gameHead';
import type { BlobStore, JobBlobStore } from '../ports/blobStore';
import type { ExportJob, ExportJobStarter } from '../ports/exportJobs';
import { StoreUnavailable } from '../ports/eventStore';
import { ApplicationError, notFound } from './errors';
import { EXPORT_LINK_SECONDS, keysDigest, type ExportDelivery } from './exports';
import type { GameService } from './gameService';
import type { TournamentSnapshot } from './tournaments';
import { pageOf, type GamePage } from './tournamentPages';

/** Retry-After of a running export: how long a client waits before it asks again. */
export const EXPORT_POLL_SECONDS = 1;
/** A job not finished this long after it started is taken for lost (its function timed out or died) and started again. */
export const EXPORT_JOB_STALE_MS = 15 * 60_000;
/** How many times one export is started before its status answers 503 (a new state of the tournament starts afresh). */
export const EXPORT_JOB_ATTEMPTS = 3;

const NDJSON_TYPE = 'application/x-ndjson; charset=utf-8';
const EXPORT_ID = /^[0-9a-f]{40}$/;

/** What GET /tournaments/{id}/export and its status answer: the stored export's link, or a job still running. */
export type TournamentExportAnswer =
  | { kind: 'inline'; body: string; contentType: string }
  | { kind: 'link'; exportId: string; url: string; expiresAt: string; bytes: number }
  | { kind: 'pending'; exportId: string; startedAt: string; retryAfter: number };

/** The record a job is started from, stored beside its export (`<exportId>-job.json`): the snapshot it exports, and how its attempts went. */
interface JobRecord {
  tournamentId: string;
  page: GamePage | null;
  heads: GameHead[];
  state: 'running' | 'failed';
  attempt: number;
  startedAt: string;
  /** Why the last attempt failed, for the log and the status: never a token or a seed. */
  reason?: string;
}

/**
 * The id of a tournament export: a digest of every game's head, the keys it carries and the
 * page. A command in any game, a rotation or another page is another export; the same state
 * asked again is the same export, made once.
 */
export function tournamentExportId({ heads }: Pick<TournamentSnapshot, 'heads'>, keys: string, page?: GamePage): string {
  const content = canonicalJson({ games: heads.map((head) => [head.gameId, head.hash]), keys, page: page ? [page.after ?? null, page.limit] : null });
  return createHash('sha256').update(content).digest('hex').slice(0, 40);
}

export const exportObjectKey = (tournamentId: string, exportId: string) => `tournaments/${tournamentId}/${exportId}.ndjson`;
const jobRecordKey = (tournamentId: string, exportId: string) => `tournaments/${tournamentId}/${exportId}-job.json`;

/**
 * GET /tournaments/{id}/export. The request signs nothing and reads no game past its head:
 * it takes the snapshot (every game's stored head), and answers the export of that snapshot
 * if it was made, or starts (or joins) the job that makes it and answers where to ask next.
 * A server without an export store answers the file itself, made in the request.
 */
export async function startTournamentExport(service: GameService, delivery: ExportDelivery | undefined, tournamentId: string, token: string | undefined, page?: GamePage): Promise<TournamentExportAnswer> {
  const snapshot = await service.tournaments.snapshot(tournamentId, token);
  // A page whose `after` names no game of the tournament is the request's 400, not a job's failure.
  if (page) pageOf(snapshot.heads, (head) => head.gameId, page);
  if (!delivery) return { kind: 'inline', body: await service.tournaments.exportText(snapshot, page), contentType: NDJSON_TYPE };
  const store = jobStoreOf(delivery);
  const exportId = tournamentExportId(snapshot, keysDigest(service), page);
  const made = await madeExport(delivery, store, tournamentId, exportId);
  if (made) return made;
  const record = await readRecord(store, tournamentId, exportId);
  return ensureRunning(service, delivery, store, record ?? { tournamentId, page: page ?? null, heads: snapshot.heads, state: 'running', attempt: 0, startedAt: '' }, exportId);
}

/** GET /tournaments/{id}/exports/{exportId}: the export's link once made, 202 while its job runs; a lost job is started again. */
export async function tournamentExportStatus(service: GameService, delivery: ExportDelivery | undefined, tournamentId: string, exportId: string, token: string | undefined): Promise<TournamentExportAnswer> {
  await service.tournaments.authenticate(tournamentId, token);
  if (!delivery || !EXPORT_ID.test(exportId)) throw notFound('No such export of this tournament: ask GET /tournaments/{id}/export for one.');
  const store = jobStoreOf(delivery);
  const made = await madeExport(delivery, store, tournamentId, exportId);
  if (made) return made;
  const record = await readRecord(store, tournamentId, exportId);
  if (!record) throw notFound('No such export of this tournament (exports are kept 7 days): ask GET /tournaments/{id}/export for one.');
  return ensureRunning(service, delivery, store, record, exportId);
}

async function ensureRunning(service: GameService, delivery: ExportDelivery, store: JobBlobStore, record: JobRecord, exportId: string): Promise<TournamentExportAnswer> {
  const now = delivery.now?.() ?? Date.now();
  const started = Date.parse(record.startedAt);
  const running = record.state === 'running' && record.attempt > 0 && now - started < EXPORT_JOB_STALE_MS;
  if (running) return { kind: 'pending', exportId, startedAt: record.startedAt, retryAfter: EXPORT_POLL_SECONDS };
  if (record.attempt >= EXPORT_JOB_ATTEMPTS) {
    throw new ApplicationError(503, 'unavailable', `This export failed ${record.attempt} times; try again later, after a command in one of the games, or a page of the games (?limit=).`, undefined, { 'retry-after': '300' });
  }
  const again: JobRecord = { ...record, state: 'running', attempt: record.attempt + 1, startedAt: new Date(now).toISOString() };
  delete again.reason;
  const recordKey = jobRecordKey(record.tournamentId, exportId);
  await store.put(recordKey, Buffer.from(JSON.stringify(again), 'utf8'), 'application/json');
  try {
    await jobsOf(service, delivery, store).start({ tournamentId: record.tournamentId, exportId });
  } catch (error) {
    // Nothing runs: a record left "running" would answer 202 until stale. The next ask starts it again (the attempt counts).
    const failed: JobRecord = { ...again, state: 'failed', reason: 'the job could not be started' };
    await store.put(recordKey, Buffer.from(JSON.stringify(failed), 'utf8'), 'application/json').catch(() => undefined);
    throw error;
  }
  return { kind: 'pending', exportId, startedAt: again.startedAt, retryAfter: EXPORT_POLL_SECONDS };
}

/**
 * The job: the export of the snapshot its record names, written to the store game by game in
 * parts (multipart upload), with the tournament head signed when it starts. It holds a few
 * games at a time and one part, whatever the tournament's size. A failure is written to its
 * record (the status starts it again, up to EXPORT_JOB_ATTEMPTS); nothing is half-stored.
 */
export async function runTournamentExport(service: GameService, store: JobBlobStore, job: ExportJob): Promise<{ bytes: number } | { failed: string } | { skipped: string }> {
  if (!EXPORT_ID.test(job.exportId)) return { skipped: 'not an export id' };
  const key = exportObjectKey(job.tournamentId, job.exportId);
  if ((await store.size(key)) !== undefined) return { skipped: 'already made' };
  const record = await readRecord(store, job.tournamentId, job.exportId);
  if (!record) return { skipped: 'no job record' };
  const snapshot = await service.tournaments.snapshotOf(job.tournamentId, record.heads);
  if (!snapshot) return { skipped: 'no such tournament' };
  const upload = await store.upload(key, NDJSON_TYPE);
  try {
    // service.tournaments is loaded on demand (gameService.ts, onDemand.ts): each of its methods answers a promise, this one of the lines.
    const lines = await service.tournaments.exportLines(snapshot, record.page ?? undefined);
    for await (const line of lines) await upload.write(Buffer.from(line, 'utf8'));
    return { bytes: await upload.complete() };
  } catch (error) {
    await upload.abort();
    const reason = error instanceof ApplicationError ? error.message : error instanceof StoreUnavailable ? 'a store was unavailable' : `${(error as Error)?.name ?? 'Error'}: ${String((error as Error)?.message ?? error).slice(0, 200)}`;
    await store.put(jobRecordKey(job.tournamentId, job.exportId), Buffer.from(JSON.stringify({ ...record, state: 'failed', reason }), 'utf8'), 'application/json').catch(() => undefined);
    return { failed: reason };
  }
}

/**
 * Jobs run in this process, in the background (the local server; a test's service): each is
 * a promise kept until it ends, so that `idle()` (the server's close) can wait for them.
 */
export class InProcessExportJobs implements ExportJobStarter {
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly service: GameService,
    private readonly store: JobBlobStore,
    private readonly report: (job: ExportJob, outcome: Awaited<ReturnType<typeof runTournamentExport>>) => void = () => undefined,
  ) {}

  async start(job: ExportJob): Promise<void> {
    const run = runTournamentExport(this.service, this.store, job)
      .then((outcome) => this.report(job, outcome))
      .catch((error: unknown) => this.report(job, { failed: String((error as Error)?.message ?? error).slice(0, 200) }))
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}

/** A delivery without a starter of its own runs its jobs in this process, one runner per delivery. */
const inProcess = new WeakMap<ExportDelivery, InProcessExportJobs>();
function jobsOf(service: GameService, delivery: ExportDelivery, store: JobBlobStore): ExportJobStarter {
  if (delivery.jobs) return delivery.jobs;
  let jobs = inProcess.get(delivery);
  if (!jobs) inProcess.set(delivery, (jobs = new InProcessExportJobs(service, store)));
  return jobs;
}

function jobStoreOf(delivery: ExportDelivery): JobBlobStore {
  const store = delivery.store as BlobStore & Partial<JobBlobStore>;
  if (typeof store.read !== 'function' || typeof store.upload !== 'function') throw new Error('tournament exports need a store that reads and uploads in parts');
  return store as JobBlobStore;
}

async function madeExport(delivery: ExportDelivery, store: JobBlobStore, tournamentId: string, exportId: string): Promise<TournamentExportAnswer | undefined> {
  const key = exportObjectKey(tournamentId, exportId);
  const bytes = await store.size(key);
  if (bytes === undefined) return undefined;
  const seconds = delivery.linkSeconds ?? EXPORT_LINK_SECONDS;
  const now = delivery.now?.() ?? Date.now();
  return { kind: 'link', exportId, url: await store.link(key, seconds), expiresAt: new Date(now + seconds * 1000).toISOString(), bytes };
}

async function readRecord(store: JobBlobStore, tournamentId: string, exportId: string): Promise<JobRecord | undefined> {
  const bytes = await store.read(jobRecordKey(tournamentId, exportId));
  if (!bytes) return undefined;
  const record = JSON.parse(Buffer.from(bytes).toString('utf8')) as JobRecord;
  if (record.tournamentId !== tournamentId || !Array.isArray(record.heads)) throw new Error(`the job record of export ${exportId} is not this tournament's`);
  return record;
}
