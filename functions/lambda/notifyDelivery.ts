import type { Context } from 'aws-lambda';
import { notifyDeliveryHandler, type DeliveryEngine, type DeliveryEvent } from './notifyDeliveryHandler';
import { awsNotificationEngine } from './notifyEngine';
import { logger, metrics } from './powertools';

let engine: Promise<DeliveryEngine> | undefined;
/** One engine per container; one that failed to build is built again by the next batch. */
const engineOfContainer = () =>
  (engine ??= Promise.resolve().then(() => awsNotificationEngine()).catch((error: unknown) => {
    engine = undefined;
    throw error;
  }));

const deliver = notifyDeliveryHandler({ engine: engineOfContainer, log: logger });

/** The notification queue's batches and the minute's tick (infra/notifications.ts, docs/deploy.md#notifications). */
export async function handler(event: DeliveryEvent, context: Context) {
  logger.addContext(context);
  try {
    return await deliver(event);
  } finally {
    metrics.publishStoredMetrics();
  }
}
