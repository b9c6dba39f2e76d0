import { runTournamentExport } from '../application/tournamentExportJobs';
import { exportStoreFromEnvironment, fetchTransport } from '../store/s3BlobStore';
import { observedS3Transport } from './observedS3';
import { warmService } from './lambdaService';

// Signs tournament heads and reads games: no seed, no token key, no beacon code (infra/exportJob.ts grants no more).
const warm = warmService(() => ({}));
// Its S3 calls are counted and traced as every function's are (observedS3.ts).
const store = exportStoreFromEnvironment(process.env, observedS3Transport(fetchTransport()));
const ID = /^[A-Za-z0-9_-]{1,80}$/;

/**
 * The export function: one tournament export, `{ tournamentId, exportId }`, as the commands
 * function starts it (exportJobStarter.ts, an asynchronous invocation). It writes the file to
 * the bucket in parts and signs its tournament head (tournamentExportJobs.ts). A failure is
 * written to the job's record and the invocation ends normally: the status the client polls
 * starts it again, so Lambda's own retries are off (infra/exportJob.ts).
 */
export async function handler(event: unknown) {
  const { tournamentId, exportId } = (event ?? {}) as { tournamentId?: unknown; exportId?: unknown };
  if (typeof tournamentId !== 'string' || typeof exportId !== 'string' || !ID.test(tournamentId) || !ID.test(exportId)) {
    console.warn(JSON.stringify({ level: 'WARN', message: 'not a tournament export job', event: JSON.stringify(event ?? null).slice(0, 200) }));
    return { skipped: 'not a tournament export job' };
  }
  if (!store) throw new Error('the export function has no export bucket (ARBITER_EXPORT_ENDPOINT)');
  const started = Date.now();
  const outcome = await runTournamentExport(await warm.service(), store, { tournamentId, exportId });
  console.log(JSON.stringify({ level: 'failed' in outcome ? 'ERROR' : 'INFO', message: 'tournament export', tournamentId, exportId, ms: Date.now() - started, ...outcome }));
  return outcome;
}
