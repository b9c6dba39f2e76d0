import type { ExportDelivery } from '../application/exports';
import { exportStoreFromEnvironment } from '../store/s3BlobStore';

/**
 * The export delivery of a deployed function: the bucket infra/exportStorage.ts gave it
 * (its environment), or none, and exports are then answered inline as before.
 */
export function exportDeliveryFromEnvironment(env: NodeJS.ProcessEnv = process.env): ExportDelivery | undefined {
  const store = exportStoreFromEnvironment(env);
  return store ? { store } : undefined;
}
