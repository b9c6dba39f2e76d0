import type { ExportDelivery } from '../application/exports';
import { exportStoreFromEnvironment, fetchTransport } from '../store/s3BlobStore';
import { observedS3Transport } from './observedS3';

/**
 * The export delivery of a deployed function: the bucket infra/exportStorage.ts gave it
 * (its environment), or none, and exports are then answered inline as before. Its S3 calls
 * are counted and traced as the SDK clients' are (observedS3.ts).
 */
export function exportDeliveryFromEnvironment(env: NodeJS.ProcessEnv = process.env): ExportDelivery | undefined {
  const store = exportStoreFromEnvironment(env, observedS3Transport(fetchTransport()));
  return store ? { store } : undefined;
}
