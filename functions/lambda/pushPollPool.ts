import type { HttpEvent, HttpResult } from '../http/respond';
import { DynamoPollPool, withPollPool } from '../push/pollPool';
import { dynamoClient } from './awsClients';
import { lambdaSettings } from './lambdaSettings';
import { logger } from './powertools';

/**
 * The reads function's long polls in a pool of their own (docs/push.md#a-crowd-on-aws) when the
 * stack sets ARBITER_LONG_POLL_SLOTS and the connections table; otherwise the handler as it is.
 */
export function withLongPollPool<C>(handler: (event: HttpEvent, context: C) => Promise<HttpResult>, maxWaitSeconds: number) {
  const settings = lambdaSettings();
  if (!settings.longPollSlots || !settings.connectionsTableName) return handler;
  const pool = new DynamoPollPool(dynamoClient(), settings.connectionsTableName, settings.longPollSlots);
  return withPollPool(handler, pool, maxWaitSeconds, (reason) => logger.warn(reason));
}
