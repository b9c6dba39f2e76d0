import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { streamHandler, type StreamRecordLike } from '../../../functions/push/awsStream';
import type { SubscriptionStore } from '../../../functions/push/subscriptionStore';
import { gameIdOfMessage, notifyMessageBody, sqsNotifyQueue } from '../../../functions/lambda/notifyQueue';

const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/000000000000/notify';
const sqs = mockClient(SQSClient);
afterEach(() => sqs.reset());

/** What SQS was asked to hold, batch by batch: the game each message names. */
function recordSends(failFirst = 0) {
  const batches: string[][] = [];
  let failures = failFirst;
  sqs.on(SendMessageBatchCommand).callsFake(({ Entries }: { Entries: { Id: string; MessageBody: string }[] }) => {
    batches.push(Entries.map((e) => JSON.parse(e.MessageBody).gameId));
    if (failures > 0) {
      failures -= 1;
      return { Successful: Entries.slice(1).map((e) => ({ Id: e.Id, MessageId: `m${e.Id}`, MD5OfMessageBody: '' })), Failed: [{ Id: Entries[0].Id, Code: 'InternalError', SenderFault: false }] };
    }
    return { Successful: Entries.map((e) => ({ Id: e.Id, MessageId: `m${e.Id}`, MD5OfMessageBody: '' })), Failed: [] };
  });
  return batches;
}

/** The push stream function with no push subscriber: what it asks of the subscriptions store is counted. */
function streamFunction() {
  const asked: string[] = [];
  const subscriptions = { forGame: async (gameId: string) => (asked.push(gameId), []) } as unknown as SubscriptionStore;
  const queue = sqsNotifyQueue(new SQSClient({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }), QUEUE_URL);
  const handler = streamHandler({
    readCommits: async () => [],
    subscriptions,
    gateway: { post: async () => 'sent', drop: async () => {} },
    notify: (gameIds) => queue.enqueue(gameIds),
  });
  return { handler, asked };
}

const record = (eventName: string, pk: string, sk: number): StreamRecordLike => ({ eventName, dynamodb: { Keys: { pk: { S: pk }, sk: { N: String(sk) } } } });

describe('the hand-off of new commits to the notification queue (the push stream function, functions/lambda/notifyQueue.ts)', () => {
  it('puts each game with new commits on the queue once per batch, and nothing for the table\'s other items', async () => {
    const batches = recordSends();
    const { handler } = streamFunction();
    await handler({
      Records: [
        record('INSERT', 'g1', 3),
        record('INSERT', 'g1', 4),
        record('INSERT', 'g2', 1),
        // A spectator link revoked, a subscription stored (its record, its index entries), its cursor moved, a dead letter, a beacon reveal pending, a lease, a game swept: none is a commit.
        record('MODIFY', 'g1#viewers', 7),
        record('INSERT', 'subscription#s-1', 0),
        record('INSERT', 'subscriptions#game#g3', 81),
        record('INSERT', 'subscriptions#games', 12),
        record('INSERT', 'subscription#s-1', 5),
        record('MODIFY', 'subscription#s-1', 5),
        record('INSERT', 'deadletters#s-1', 1764234000000000),
        record('INSERT', 'reveal#pending', 5),
        record('INSERT', 'lease#g4', 0),
        record('REMOVE', 'g5', 2),
        record('MODIFY', 'g6', 2),
      ],
    });
    expect(batches).toEqual([['g1', 'g2']]);
  });

  it('sends nothing for a batch without a new commit', async () => {
    const batches = recordSends();
    const { handler } = streamFunction();
    await handler({ Records: [record('MODIFY', 'g1#viewers', 7), record('MODIFY', 'subscription#s-1', 5)] });
    expect(batches).toEqual([]);
  });

  it('fails the stream batch when the queue refuses a message, before pushing anything: Lambda gives the batch again', async () => {
    recordSends(1);
    const { handler, asked } = streamFunction();
    await expect(handler({ Records: [record('INSERT', 'g1', 3), record('INSERT', 'g2', 1)] })).rejects.toThrow('the notification queue refused 1 of 2 messages (InternalError)');
    expect(asked).toEqual([]);
  });

  it('sends at most 10 messages per SendMessageBatch (SQS\'s limit)', async () => {
    const batches = recordSends();
    const { handler } = streamFunction();
    await handler({ Records: Array.from({ length: 23 }, (_, i) => record('INSERT', `game${i}`, 1)) });
    expect(batches.map((b) => b.length)).toEqual([10, 10, 3]);
    expect(batches.flat()).toEqual(Array.from({ length: 23 }, (_, i) => `game${i}`));
  });

  it('reads back the game a message names, and nothing from a body it never writes', () => {
    expect(gameIdOfMessage(notifyMessageBody('g-1_A'))).toBe('g-1_A');
    for (const body of ['', 'not json', 'null', '{}', '{"gameId":3}', '{"gameId":"g1#seed"}', JSON.stringify({ gameId: 'x'.repeat(65) }), '["g1"]']) {
      expect(gameIdOfMessage(body), body).toBeUndefined();
    }
  });
});
