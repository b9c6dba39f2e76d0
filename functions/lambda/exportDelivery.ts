import type { ExportDelivery } from '../application/exports';
import { settingName } from '../config/settingNames';
import { exportStoreFromEnvironment, fetchTransport } from '../store/s3BlobStore';
import { lambdaJobStarter } from './exportJobStarter';
import { observedS3Transport } from './observedS3';

/**
 * The export delivery of a deployed function: the bucket infra/exportStorage.ts gave it
 * (its environment), or none, and exports are then answered inline as before. Its S3 calls
 * are counted and traced as the SDK clients' are (observedS3.ts). A function told of the
 * export function (infra/exportJob.ts) starts tournament export jobs there.
 */
export function exportDeliveryFromEnvironment(env: NodeJS.ProcessEnv = process.env): ExportDelivery | undefined {
  const store = exportStoreFromEnvironment(env, observedS3Transport(fetchTransport()));
  if (!store) return undefined;
  const functionName = env[settingName('exportJobFunction')];
  const region = env.AWS_REGION;
  if (!functionName || !region) return { store };
  return { store, jobs: lambdaJobStarter({ functionName, region, ...(env.AWS_ENDPOINT_URL_LAMBDA ? { endpoint: env.AWS_ENDPOINT_URL_LAMBDA } : {}) }) };
}
