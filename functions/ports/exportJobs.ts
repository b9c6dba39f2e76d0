/** Which export a job makes: the tournament, and the export's id (its content digest, tournamentExportJobs.ts). */
export interface ExportJob {
  tournamentId: string;
  exportId: string;
}

/**
 * Starts a tournament export job and returns without waiting for it: in this process on the
 * local server, an asynchronous invocation of the export function on AWS. Starting one that
 * already runs starts it again; the job then finds its export made, or makes the same bytes.
 */
export interface ExportJobStarter {
  start(job: ExportJob): Promise<void>;
}
