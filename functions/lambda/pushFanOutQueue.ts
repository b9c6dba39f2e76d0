import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { FanOutQueue } from '../push/fanOut';

/** SQS takes at most 10 messages per SendMessageBatch. */
const PER_BATCH = 10;
/** Batches sent at once: a game's 64 slices go out in about one round trip. */
const BATCHES_AT_ONCE = 8;

/** The fan-out queue on AWS (infra/push.ts): SQS FIFO, one message group per game and slice. */
export function sqsFanOutQueue(client: SQSClient, queueUrl: string): FanOutQueue {
  return {
    async send(messages) {
      const batches: (typeof messages)[] = [];
      for (let start = 0; start < messages.length; start += PER_BATCH) batches.push(messages.slice(start, start + PER_BATCH));
      for (let start = 0; start < batches.length; start += BATCHES_AT_ONCE) {
        await Promise.all(
          batches.slice(start, start + BATCHES_AT_ONCE).map(async (batch) => {
            const entries = batch.map((m, i) => ({ Id: String(i), MessageBody: m.body, MessageGroupId: m.groupId, MessageDeduplicationId: m.deduplicationId }));
            const answer = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
            if (answer.Failed?.length) {
              const codes = [...new Set(answer.Failed.map((f) => f.Code ?? 'unknown'))].join(', ');
              throw new Error(`the fan-out queue refused ${answer.Failed.length} of ${entries.length} messages (${codes})`);
            }
          }),
        );
      }
    },
  };
}
