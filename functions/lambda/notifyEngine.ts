import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { KMSClient } from '@aws-sdk/client-kms';
import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { kmsSecretVault } from '../application/kmsSeedVault';
import { composeNotifications } from '../composeNotifications';
import { required } from '../config/settings';
import type { NotificationEngine } from '../notify/notificationEngine';
import { TARGET_LIMITS } from '../notify/targetCheck';
import { DynamoEventStore } from '../store/dynamoStore';
import { DynamoSubscriptions } from '../store/dynamoSubscriptions';
import { dynamoClient, kmsClient, sesClient } from './awsClients';
import { lambdaSettings } from './lambdaSettings';
import { sesMail } from './sesMail';

/** A channel's request gives up after this long (the engine's target checks). */
export const CHANNEL_TIMEOUT_MS = TARGET_LIMITS.timeoutMs;

/**
 * The engine's retries on AWS: they must end within one invocation of the delivery function
 * (infra/notifications.ts DELIVERY_TIMEOUT), else the function times out before the engine
 * records a subscription's dead letter and the whole game is given again by the queue.
 * Worst case: 5 × 10 s of requests and 2 + 4 + 8 + 16 s of waits = 80 s. SQS retries the
 * game again later anyway if the run itself fails.
 */
export const AWS_DELIVERY_RETRY = { attempts: 5, firstDelayMs: 2_000, maxDelayMs: 30_000 } as const;

const sendThrough = (client: SESv2Client) => (input: ConstructorParameters<typeof SendEmailCommand>[0]) => client.send(new SendEmailCommand(input));

export interface AwsNotificationClients {
  dynamo: DynamoDBClient;
  kms: KMSClient;
  ses: SESv2Client;
}

/**
 * The notification engine of the delivery function (part C's `composeNotifications`): the
 * game table for commits, subscriptions, cursors and dead letters; the seed key opening the
 * subscriptions' sealed targets (Decrypt under `subscription:<id>` only, infra/notifications.ts);
 * SES for e-mail when the stack names a From identity; the API's origin for the links in each
 * notice; retries that fit the function's timeout. Delivery targets on AWS are https only:
 * `allowLoopback` is for a test that delivers to a receiver on this machine.
 */
export function awsNotificationEngine(options: { clients?: Partial<AwsNotificationClients>; allowLoopback?: boolean } = {}): NotificationEngine {
  const settings = lambdaSettings();
  const tableName = required(settings, 'tableName');
  const publicUrl = required(settings, 'publicUrl');
  const dynamo = options.clients?.dynamo ?? dynamoClient();
  const store = new DynamoEventStore(dynamo, tableName);
  const subscriptions = new DynamoSubscriptions(dynamo, tableName);
  const { engine } = composeNotifications({
    store,
    subscriptions,
    vault: kmsSecretVault(options.clients?.kms ?? kmsClient(), required(settings, 'seedKeyId')),
    publicUrl: () => publicUrl,
    allowLoopback: options.allowLoopback ?? false,
    email: settings.sesFrom ? sesMail(sendThrough(options.clients?.ses ?? sesClient()), settings.sesFrom) : undefined,
    // Every game with a subscription of its own, and every game of a tournament with one: the minute's tick visits them all.
    subscribedGames: async () => {
      const ofTournaments = await Promise.all((await subscriptions.subscribedTournaments()).map((tournamentId) => store.listTournamentGames(tournamentId)));
      return [...new Set([...(await subscriptions.subscribedGames()), ...ofTournaments.flat()])];
    },
    engine: { retry: AWS_DELIVERY_RETRY },
  });
  return engine;
}
