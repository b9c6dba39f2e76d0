import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SubscriptionsDeps } from '../application/gameSubscriptions';
import { kmsSecretVault } from '../application/kmsSeedVault';
import { required, type Settings } from '../config/settings';
import { settingName } from '../config/settingNames';
import type { ConfirmationSender } from '../notify/channel';
import { subscriptionLinks } from '../notify/subscriptionLinks';
import type { SeedVault } from '../ports/seedVault';
import type { SubscriptionStore } from '../ports/subscriptionStore';
import { onDemand } from '../application/onDemand';
import { kmsClient } from './awsClients';

/** The vault of a function that holds no seed key (reads): it lists subscriptions, masked, and never seals one. */
const sealsNothing: SeedVault = {
  seal: () => Promise.reject(new Error('this function seals no subscription target')),
  open: () => Promise.reject(new Error('this function opens no subscription target')),
};

/**
 * The subscription routes on AWS (docs/deploy.md#notifications): subscriptions in the game
 * table; the commands function seals each target with the seed key under `subscription:<id>`,
 * and, given `confirmations` (ARBITER_SES_FROM set), offers e-mail with its confirmation mail
 * linking to ARBITER_PUBLIC_URL. Delivery targets are https only. No catch-up is started
 * here: the delivery function delivers from the game's next commit, or at the minute's tick.
 */
export function lambdaSubscriptions(client: DynamoDBClient, tableName: string, settings: Settings, confirmations?: ConfirmationSender): SubscriptionsDeps {
  return {
    // Loaded by the first subscription request, not at a cold start.
    store: onDemand<SubscriptionStore>(async () => new (await import('../store/dynamoSubscriptions')).DynamoSubscriptions(client, tableName)),
    vault: settings.signs && settings.seedKeyId ? kmsSecretVault(kmsClient(), settings.seedKeyId) : sealsNothing,
    allowLoopback: false,
    mailSetting: settingName('sesFrom'),
    links: subscriptionLinks(() => required(settings, 'publicUrl')),
    ...(confirmations ? { confirmations } : {}),
  };
}
