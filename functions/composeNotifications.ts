import type { SubscriptionsDeps } from './application/gameSubscriptions';
import type { ConfirmationSender, Channel } from './notify/channel';
import { discordChannel, slackChannel } from './notify/chatChannels';
import { NotificationEngine, type EngineDeps } from './notify/notificationEngine';
import { storeNoticeSource } from './notify/noticeSource';
import { subscriptionLinks } from './notify/subscriptionLinks';
import { webhookChannel } from './notify/webhookChannel';
import type { EventStore } from './ports/eventStore';
import type { SeedVault } from './ports/seedVault';
import type { SubscriptionStore } from './ports/subscriptionStore';

export interface NotificationAdapters {
  store: EventStore;
  subscriptions: SubscriptionStore;
  vault: SeedVault;
  /** The origin of the links notifications carry (ARBITER_PUBLIC_URL, or where the server listens). */
  publicUrl: () => string;
  /** ARBITER_NOTIFY_ALLOW_LOOPBACK=1. */
  allowLoopback: boolean;
  /** The e-mail channel and its confirmation mail (part D), when ARBITER_SMTP_URL is set. */
  email?: { channel: Channel; confirmations: ConfirmationSender };
  /** Every game with a subscription of its own: caught up at start-up. */
  subscribedGames?: () => Promise<string[]>;
  /** A test's clock, waits and retry policy. */
  engine?: Pick<EngineDeps, 'nowMs' | 'wait' | 'retry' | 'rate' | 'log' | 'gamesOfTournament'>;
}

/**
 * The notification engine and the subscription routes' dependencies, from adapters: pass
 * `subscriptions` to compose(), then call `engine.stored(gameId)` on each stored commit and
 * `engine.resume()` at start-up (the local server does both; on AWS the delivery function
 * calls `engine.catchUpGame` per game the table's stream hands it, and `resume()` every minute).
 */
export function composeNotifications(adapters: NotificationAdapters): { engine: NotificationEngine; subscriptions: SubscriptionsDeps } {
  const policy = { allowLoopback: adapters.allowLoopback };
  const links = subscriptionLinks(adapters.publicUrl);
  const engine = new NotificationEngine({
    ...adapters.engine,
    subscriptions: adapters.subscriptions,
    vault: adapters.vault,
    source: storeNoticeSource(adapters.store, adapters.publicUrl),
    channels: {
      webhook: webhookChannel(policy),
      discord: discordChannel(policy),
      slack: slackChannel(policy),
      ...(adapters.email ? { email: adapters.email.channel } : {}),
    },
    links,
    subscribedGames: adapters.subscribedGames,
  });
  const subscriptions: SubscriptionsDeps = {
    store: adapters.subscriptions,
    vault: adapters.vault,
    allowLoopback: adapters.allowLoopback,
    links,
    confirmations: adapters.email?.confirmations,
    changed: (gameId) => engine.stored(gameId),
  };
  return { engine, subscriptions };
}
