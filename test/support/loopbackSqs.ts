import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A message on the fake queue, as Lambda's SQS event record carries it. */
export interface FakeSqsRecord {
  messageId: string;
  body: string;
  attributes: { MessageGroupId: string; ApproximateReceiveCount: string };
}

interface Stored {
  messageId: string;
  body: string;
  groupId: string;
  receives: number;
}

/**
 * One SQS FIFO queue on a loopback port, speaking the AWS JSON 1.0 protocol of SendMessage and
 * SendMessageBatch (what the functions send), with FIFO's rules for what a consumer gets: a
 * message group's messages in order, none of a group while one of its messages is in flight,
 * deduplication by MessageDeduplicationId, and a dead-letter list after `maxReceives`. The test
 * plays Lambda's poller through `take`, `done` and `failed`.
 */
export async function startLoopbackSqs(options: { maxReceives?: number } = {}) {
  const maxReceives = options.maxReceives ?? 3;
  const groups = new Map<string, Stored[]>();
  const inFlight = new Set<string>();
  const seen = new Set<string>();
  const deadLetters: Stored[] = [];
  let sent = 0;
  let duplicates = 0;

  const put = (entry: { MessageBody?: string; MessageGroupId?: string; MessageDeduplicationId?: string }) => {
    if (typeof entry.MessageBody !== 'string' || typeof entry.MessageGroupId !== 'string' || typeof entry.MessageDeduplicationId !== 'string') {
      return { error: 'MissingParameter' };
    }
    const messageId = randomUUID();
    const dedup = `${entry.MessageGroupId} ${entry.MessageDeduplicationId}`;
    if (seen.has(dedup)) duplicates++;
    else {
      seen.add(dedup);
      let group = groups.get(entry.MessageGroupId);
      if (!group) groups.set(entry.MessageGroupId, (group = []));
      group.push({ messageId, body: entry.MessageBody, groupId: entry.MessageGroupId, receives: 0 });
      sent++;
    }
    return { messageId, md5: createHash('md5').update(entry.MessageBody).digest('hex') };
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const answer = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(body));
      let input: { Entries?: { Id: string }[] } & Record<string, unknown>;
      try {
        input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(400, { __type: 'com.amazonaws.sqs#InvalidParameterValue', message: 'not JSON' });
      }
      if (target === 'AmazonSQS.SendMessageBatch') {
        const Successful: unknown[] = [];
        const Failed: unknown[] = [];
        for (const entry of input.Entries ?? []) {
          const put1 = put(entry as never);
          if ('error' in put1) Failed.push({ Id: entry.Id, Code: put1.error, SenderFault: true });
          else Successful.push({ Id: entry.Id, MessageId: put1.messageId, MD5OfMessageBody: put1.md5 });
        }
        return answer(200, { Successful, Failed });
      }
      if (target === 'AmazonSQS.SendMessage') {
        const put1 = put(input as never);
        if ('error' in put1) return answer(400, { __type: `com.amazonaws.sqs#${put1.error}`, message: put1.error });
        return answer(200, { MessageId: put1.messageId, MD5OfMessageBody: put1.md5 });
      }
      return answer(400, { __type: 'com.amazonaws.sqs#UnsupportedOperation', message: target });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    endpoint,
    queueUrl: `${endpoint}/000000000000/push-fan-out.fifo`,
    /** Up to `max` messages, as Lambda's FIFO poller gives a batch: whole runs of groups not in flight, each in order. */
    take(max: number): FakeSqsRecord[] {
      const batch: FakeSqsRecord[] = [];
      for (const [groupId, messages] of groups) {
        if (batch.length >= max) break;
        if (inFlight.has(groupId) || messages.length === 0) continue;
        inFlight.add(groupId);
        for (const m of messages.slice(0, max - batch.length)) {
          m.receives++;
          batch.push({ messageId: m.messageId, body: m.body, attributes: { MessageGroupId: groupId, ApproximateReceiveCount: String(m.receives) } });
        }
      }
      return batch;
    },
    /** The batch's outcome: every message of it deleted but the failed ones, which go back (or to the dead letters). */
    settle(batch: readonly FakeSqsRecord[], failedIds: ReadonlySet<string>): void {
      for (const record of batch) {
        const group = groups.get(record.attributes.MessageGroupId)!;
        inFlight.delete(record.attributes.MessageGroupId);
        const at = group.findIndex((m) => m.messageId === record.messageId);
        if (at < 0) continue;
        if (!failedIds.has(record.messageId)) group.splice(at, 1);
        else if (group[at].receives >= maxReceives) deadLetters.push(...group.splice(at, 1));
      }
      for (const [groupId, messages] of groups) if (messages.length === 0 && !inFlight.has(groupId)) groups.delete(groupId);
    },
    waiting: () => [...groups.values()].reduce((n, g) => n + g.length, 0),
    stats: () => ({ sent, duplicates, deadLetters: deadLetters.length }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
