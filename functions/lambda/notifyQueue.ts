import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';

/**
 * The notification queue on AWS (infra/notifications.ts): one message `{ "gameId" }` per game
 * that has new commits. The message says only which game to catch up: the delivery function
 * reads the commits after each subscription's cursor itself, so a message sent twice, late or
 * out of order delivers nothing twice (the engine is idempotent by commit).
 */
export interface NotifyQueue {
  /** Resolves once every game is on the queue; rejects if any is not (the caller's batch is retried). */
  enqueue(gameIds: readonly string[]): Promise<void>;
}

const GAME_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** SQS takes at most 10 messages per SendMessageBatch. */
const PER_BATCH = 10;

export const notifyMessageBody = (gameId: string): string => JSON.stringify({ gameId });

/** The game id a queue message names, or undefined for a body this queue never carries. */
export function gameIdOfMessage(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const gameId = (parsed as { gameId?: unknown } | null)?.gameId;
  return typeof gameId === 'string' && GAME_ID.test(gameId) ? gameId : undefined;
}

export function sqsNotifyQueue(client: SQSClient, queueUrl: string): NotifyQueue {
  return {
    async enqueue(gameIds) {
      const distinct = [...new Set(gameIds)].filter((gameId) => GAME_ID.test(gameId));
      for (let start = 0; start < distinct.length; start += PER_BATCH) {
        const entries = distinct.slice(start, start + PER_BATCH).map((gameId, i) => ({ Id: String(i), MessageBody: notifyMessageBody(gameId) }));
        const answer = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
        if (answer.Failed?.length) {
          const codes = [...new Set(answer.Failed.map((f) => f.Code ?? 'unknown'))].join(', ');
          throw new Error(`the notification queue refused ${answer.Failed.length} of ${entries.length} messages (${codes})`);
        }
      }
    },
  };
}
