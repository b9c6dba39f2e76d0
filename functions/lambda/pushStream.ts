import { streamHandler } from '../push/awsStream';
import { gameStore, gateway, subscriptionStore } from './pushService';

let built: ReturnType<typeof streamHandler> | undefined;

/** The game table's stream (KEYS_ONLY) → each new commit to its game's subscribers (docs/push.md). */
export const handler = (event: Parameters<ReturnType<typeof streamHandler>>[0]) => {
  if (!built) {
    const store = gameStore();
    built = streamHandler({
      readCommits: (gameId, after, limit) => store.read(gameId, after, limit),
      subscriptions: subscriptionStore(),
      gateway: gateway(),
    });
  }
  return built(event);
};
