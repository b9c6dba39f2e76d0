import { kmsSecretVault } from '../application/kmsSeedVault';
import { required } from '../config/settings';
import { DynamoEventStore } from '../store/dynamoStore';
import { dynamoClient, kmsClient, sesClient } from './awsClients';
import { lambdaSettings } from './lambdaSettings';
import type { NotificationEngine } from './notifyEngineContract';
import { sesMailTransport } from './sesMail';

/** A channel's request gives up after this long (the engine's target checks). */
export const CHANNEL_TIMEOUT_MS = 10_000;

/**
 * The engine's retries on AWS: they must end within one invocation of the delivery function
 * (infra/notifications.ts DELIVERY_TIMEOUT), else the function times out before the engine
 * records a subscription's dead letter and the whole game is given again by the queue.
 * Worst case: 5 × 10 s of requests and 2 + 4 + 8 + 16 s of waits = 80 s. SQS retries the
 * game again later anyway if the run itself fails.
 */
export const AWS_DELIVERY_RETRY = { attempts: 5, firstDelayMs: 2_000, maxDelayMs: 30_000 } as const;

/**
 * What the delivery function gives the notification engine on AWS (part C's
 * `composeNotifications` adapters): the game table for commits (subscriptions, cursors and
 * dead letters are C's DynamoSubscriptions on the same table), the seed key opening the
 * subscriptions' sealed targets, SES for e-mail when the stack names a From identity, the
 * API's origin for the links in each notice, and retries that fit the function's timeout.
 */
export function awsNotificationAdapters() {
  const settings = lambdaSettings();
  const publicUrl = required(settings, 'publicUrl');
  return {
    store: new DynamoEventStore(dynamoClient(), required(settings, 'tableName')),
    vault: kmsSecretVault(kmsClient(), required(settings, 'seedKeyId')),
    publicUrl: () => publicUrl,
    // Delivery targets on AWS are https only: loopback is for a local server and tests.
    allowLoopback: false,
    mailTransport: settings.sesFrom ? sesMailTransport(sesClient(), settings.sesFrom) : undefined,
    retry: AWS_DELIVERY_RETRY,
  };
}

/**
 * STAND-IN until part C's engine is merged: the real one is
 * `composeNotifications({ ...awsNotificationAdapters(), subscriptions, subscribedGames, email })`
 * of functions/composeNotifications.ts, with `tick` its engine's `resume()` (every game with
 * subscriptions caught up: digests that fell due, hand-offs the stream lost). Until then every
 * batch fails, so its messages reach the dead-letter queue, whose alarm says so.
 */
export async function awsNotificationEngine(): Promise<NotificationEngine> {
  awsNotificationAdapters();
  throw new Error('the notification engine (functions/notify, part C) is not wired into the AWS delivery function yet');
}
