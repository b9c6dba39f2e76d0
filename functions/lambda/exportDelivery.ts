import type { ExportDelivery } from '../application/exports';
import { onDemand } from '../application/onDemand';
import { settingName } from '../config/settingNames';
import type { JobBlobStore } from '../ports/blobStore';
import type { ExportJobStarter } from '../ports/exportJobs';
import { EXPORT_ENVIRONMENT } from '../store/blobStore';

/**
 * The export delivery of a deployed function: the bucket infra/exportStorage.ts gave it
 * (its environment), or none, and exports are then answered inline as before. Its S3 calls
 * are counted and traced as the SDK clients' are (observedS3.ts). A function told of the
 * export function (infra/exportJob.ts) starts tournament export jobs there. The store's code
 * (S3 requests, their signing, multipart uploads) and the job starter's are loaded by the first
 * export stored or started, not by a cold start: most requests store nothing.
 */
export function exportDeliveryFromEnvironment(env: NodeJS.ProcessEnv = process.env): ExportDelivery | undefined {
  if (!env[EXPORT_ENVIRONMENT.endpoint]) return undefined;
  if (!(env[EXPORT_ENVIRONMENT.region] ?? env.AWS_REGION)) throw new Error(`${EXPORT_ENVIRONMENT.region} is not set`);
  const store = onDemand<JobBlobStore>(async () => {
    const [{ exportStoreFromEnvironment, fetchTransport }, { observedS3Transport }] = await Promise.all([import('../store/s3BlobStore'), import('./observedS3')]);
    return exportStoreFromEnvironment(env, observedS3Transport(fetchTransport()))!;
  });
  const functionName = env[settingName('exportJobFunction')];
  const region = env.AWS_REGION;
  if (!functionName || !region) return { store };
  const endpoint = env.AWS_ENDPOINT_URL_LAMBDA;
  const jobs = onDemand<ExportJobStarter>(async () => (await import('./exportJobStarter')).lambdaJobStarter({ functionName, region, ...(endpoint ? { endpoint } : {}) }));
  return { store, jobs };
}
