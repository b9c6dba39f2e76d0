import { socketHandler } from '../push/awsSocket';
import { lambdaSettings } from './lambdaSettings';
import { gameStore, gateway, readService, subscriptionStore } from './pushService';

// Built on first use, kept while the container is warm.
let built: ReturnType<typeof socketHandler> | undefined;

/** $connect, $disconnect and every message of the push WebSocket API (docs/push.md). */
export const handler = (event: Parameters<ReturnType<typeof socketHandler>>[0]) => {
  if (!built) {
    const store = gameStore();
    const service = readService(store);
    built = socketHandler({
      service: async () => service,
      subscriptions: subscriptionStore(),
      gateway: gateway(),
      // Default `*`: the token in the subscribe message authorizes, never a cookie.
      allowedOrigins: lambdaSettings().corsOrigins ?? ['*'],
    });
  }
  return built(event);
};
