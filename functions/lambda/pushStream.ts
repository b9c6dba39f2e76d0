import { streamHandler } from '../push/awsStream';
import { sqsClient } from './awsClients';
import { lambdaSettings } from './lambdaSettings';
import { sqsNotifyQueue } from './notifyQueue';
import { gameStore, gateway, subscriptionStore } from './pushService';
import { sqsFanOutQueue } from './pushFanOutQueue';

let built: ReturnType<typeof streamHandler> | undefined;

/**
 * The game table's stream (KEYS_ONLY) → each game's new commits onto the fan-out queue, a message per slice of its subscribers (docs/push.md),
 * and each game with new commits to the notification queue when the stack has one (docs/deploy.md#notifications).
 */
export const handler = (event: Parameters<ReturnType<typeof streamHandler>>[0]) => {
  if (!built) {
    const store = gameStore();
    const queueUrl = lambdaSettings().notifyQueueUrl;
    const queue = queueUrl ? sqsNotifyQueue(sqsClient(), queueUrl) : undefined;
    const fanOutUrl = lambdaSettings().fanOutQueueUrl;
    built = streamHandler({
      readCommits: (gameId, after, limit) => store.read(gameId, after, limit),
      subscriptions: subscriptionStore(),
      gateway: gateway(),
      ...(queue ? { notify: (gameIds: readonly string[]) => queue.enqueue(gameIds) } : {}),
      ...(fanOutUrl ? { fanOut: sqsFanOutQueue(sqsClient(), fanOutUrl) } : {}),
    });
  }
  return built(event);
};
