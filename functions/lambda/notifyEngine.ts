import { kmsSeedVault } from '../application/kmsSeedVault';
import { required } from '../config/settings';
import { dynamoClient, kmsClient, sesClient } from './awsClients';
import { lambdaSettings } from './lambdaSettings';
import type { NotificationEngine } from './notifyEngineContract';
import { sesMailTransport } from './sesMail';

/**
 * What the delivery function gives the notification engine on AWS: the game table (commits,
 * subscriptions, cursors and dead letters), the seed key that opens the subscriptions'
 * secrets (as it opens seeds: the game id as encryption context), SES for e-mail when the
 * stack names a From identity, and the API's origin for the links in each notice.
 */
export function awsNotificationAdapters() {
  const settings = lambdaSettings();
  return {
    dynamo: dynamoClient(),
    tableName: required(settings, 'tableName'),
    vault: kmsSeedVault(kmsClient(), required(settings, 'seedKeyId')),
    mailTransport: settings.sesFrom ? sesMailTransport(sesClient(), settings.sesFrom) : undefined,
    publicUrl: required(settings, 'publicUrl'),
    // Delivery targets on AWS are https only: loopback is for a local server and tests.
    allowLoopback: false,
  };
}

/**
 * STAND-IN until part C's engine lands: the real one is `composeNotifications(adapters)` of
 * functions/notify/ with the adapters above. Until then every batch fails, so its messages
 * stay on the queue and reach the dead-letter queue, whose alarm says so.
 */
export async function awsNotificationEngine(): Promise<NotificationEngine> {
  awsNotificationAdapters();
  throw new Error('the notification engine (functions/notify, part C) is not wired into the AWS delivery function yet');
}
