import { fanOutDelivery, fanOutHandler } from '../push/fanOut';
import { PUSH_LIMITS } from '../push/protocol';
import { gameStore, gateway, subscriptionStore } from './pushService';

let built: ReturnType<typeof fanOutHandler> | undefined;

/** The fan-out queue (SQS FIFO) → each message's commits posted to its connections, in parallel (docs/push.md). */
export const handler = (event: Parameters<ReturnType<typeof fanOutHandler>>[0]) => {
  if (!built) {
    const store = gameStore();
    built = fanOutHandler(fanOutDelivery({ readCommits: (gameId, after, limit) => store.read(gameId, after, limit), subscriptions: subscriptionStore(), gateway: gateway(), limits: PUSH_LIMITS }));
  }
  return built(event);
};
