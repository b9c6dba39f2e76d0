import type { NotificationEngine } from '../notify/notificationEngine';
import { gameIdOfMessage } from './notifyQueue';

/** The parts of an SQS record this handler reads. */
export interface QueueRecord {
  messageId: string;
  body: string;
}

/** What the delivery function is invoked with: a batch of the notification queue, or the schedule's tick. */
export type DeliveryEvent = { Records: readonly QueueRecord[] } | { source: 'aws.events'; time?: string };

/** Lambda's partial batch answer (ReportBatchItemFailures): the messages named go back to the queue. */
export interface BatchAnswer {
  batchItemFailures: { itemIdentifier: string }[];
}

export interface DeliveryLog {
  warn(message: string, details: Record<string, unknown>): void;
  error(message: string, details: Record<string, unknown>): void;
}

/**
 * What the delivery function needs of the notification engine: a game caught up, and the
 * minute's tick, the engine's `tick(nowIso)` when it has one, else `resume()` (every game with
 * subscriptions caught up: digests that fell due, a hand-off the stream lost).
 */
export type DeliveryEngine = Pick<NotificationEngine, 'catchUpGame' | 'resume'> & { tick?(nowIso: string): Promise<void> };

export interface DeliveryHandlerDeps {
  /** The engine of this container; a failure to build it fails every message of the batch. */
  engine: () => Promise<DeliveryEngine>;
  log: DeliveryLog;
  now?: () => Date;
  /** Games caught up side by side. */
  gamesAtOnce?: number;
}

/**
 * The notification delivery function (infra/notifications.ts). A queue batch: each distinct
 * game named once, caught up by the engine; a game that fails puts every message naming it
 * back on the queue (after 5 receives SQS moves it to the dead-letter queue). The schedule's
 * tick: the engine's tick (every subscribed game caught up, digests that fell due, reminders of overdue sides).
 */
export function notifyDeliveryHandler(deps: DeliveryHandlerDeps) {
  const gamesAtOnce = deps.gamesAtOnce ?? 4;
  const now = deps.now ?? (() => new Date());

  return async (event: DeliveryEvent): Promise<BatchAnswer | { ticked: true }> => {
    if (!('Records' in event)) {
      const engine = await deps.engine();
      if (engine.tick) await engine.tick(event.time ?? now().toISOString());
      else await engine.resume();
      return { ticked: true };
    }

    const messagesOf = new Map<string, string[]>();
    for (const record of event.Records) {
      const gameId = gameIdOfMessage(record.body);
      // Only the stream function sends to this queue: a body it never writes is dropped, not retried into the dead letters.
      if (gameId === undefined) {
        deps.log.warn('notification queue message names no game: dropped', { messageId: record.messageId });
        continue;
      }
      const ids = messagesOf.get(gameId);
      if (ids) ids.push(record.messageId);
      else messagesOf.set(gameId, [record.messageId]);
    }
    if (messagesOf.size === 0) return { batchItemFailures: [] };

    let engine: DeliveryEngine;
    try {
      engine = await deps.engine();
    } catch (error) {
      deps.log.error('notification engine unavailable', { error: describe(error) });
      return { batchItemFailures: [...messagesOf.values()].flat().map((itemIdentifier) => ({ itemIdentifier })) };
    }

    const failed: string[] = [];
    const games = [...messagesOf.keys()];
    for (let start = 0; start < games.length; start += gamesAtOnce) {
      await Promise.all(
        games.slice(start, start + gamesAtOnce).map(async (gameId) => {
          try {
            await engine.catchUpGame(gameId);
          } catch (error) {
            deps.log.error('notifications of a game not delivered: its messages go back to the queue', { gameId, error: describe(error) });
            failed.push(...messagesOf.get(gameId)!);
          }
        }),
      );
    }
    return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
  };
}

/** A failure's name and message: the engine's errors name no secret and no full URL (DeliveryError's contract). */
const describe = (error: unknown) => ({ name: (error as Error)?.name ?? 'Error', message: String((error as Error)?.message ?? error).slice(0, 500) });
