import { randomUUID } from 'node:crypto';
import { QueryCommand, UpdateItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { errorAnswer } from '../http/errorAnswer';
import { header, type HttpEvent, type HttpResult } from '../http/respond';

/**
 * The long polls that may wait at once: a slot each, leased in the connections table under the
 * partition `longpoll`, until the poll ends (or, if its function dies, its lease runs out).
 */
export interface PollPool {
  /** A slot held until `release` (at most `holdSeconds` and a margin), or undefined when every slot is taken. */
  acquire(holdSeconds: number): Promise<{ release(): Promise<void> } | undefined>;
}

/** The partition of the slots in the connections table (infra/push.ts grants the reads function this partition only). */
export const POLL_POOL_KEY = 'longpoll';
/** A lease outlives its poll by this much: the function's answer and a slow clock. */
const LEASE_MARGIN_SECONDS = 5;
/** Free slots tried when others take them at the same instant. */
const TRIES = 3;

export class DynamoPollPool implements PollPool {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
    private readonly slots: number,
    private readonly now: () => number = Date.now,
  ) {}

  async acquire(holdSeconds: number) {
    const nowSeconds = Math.floor(this.now() / 1000);
    const held = new Set<string>();
    const answer = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: 'heldUntil > :now',
        ExpressionAttributeValues: { ':pk': { S: POLL_POOL_KEY }, ':now': { N: String(nowSeconds) } },
        ProjectionExpression: 'sk',
        // Slots are a few dozen small items: one page.
        Limit: this.slots + 1,
      }),
    );
    for (const item of answer.Items ?? []) if (item.sk?.S) held.add(item.sk.S);
    const free = Array.from({ length: this.slots }, (_, i) => slotKey(i)).filter((slot) => !held.has(slot));
    const holder = randomUUID();
    for (let tries = 0; tries < TRIES && free.length > 0; tries++) {
      const [slot] = free.splice(Math.floor(Math.random() * free.length), 1);
      try {
        await this.client.send(
          new UpdateItemCommand({
            TableName: this.tableName,
            Key: { pk: { S: POLL_POOL_KEY }, sk: { S: slot } },
            UpdateExpression: 'SET heldUntil = :until, holder = :holder',
            ConditionExpression: 'attribute_not_exists(heldUntil) OR heldUntil <= :now',
            ExpressionAttributeValues: { ':until': { N: String(nowSeconds + holdSeconds + LEASE_MARGIN_SECONDS) }, ':holder': { S: holder }, ':now': { N: String(nowSeconds) } },
          }),
        );
      } catch (error) {
        if ((error as { name?: string })?.name === 'ConditionalCheckFailedException') continue;
        throw error;
      }
      return {
        release: async () => {
          try {
            await this.client.send(
              new UpdateItemCommand({
                TableName: this.tableName,
                Key: { pk: { S: POLL_POOL_KEY }, sk: { S: slot } },
                UpdateExpression: 'SET heldUntil = :zero',
                ConditionExpression: 'holder = :holder',
                ExpressionAttributeValues: { ':zero': { N: '0' }, ':holder': { S: holder } },
              }),
            );
          } catch {
            // The lease runs out by itself.
          }
        },
      };
    }
    return undefined;
  }
}

const slotKey = (i: number) => `slot-${String(i).padStart(4, '0')}`;

/** The route whose `wait` holds a function. */
export const LONG_POLL_ROUTE = 'GET /games/{id}/events';
/** What a poller refused a slot is told to wait before it polls again. */
export const POLL_RETRY_AFTER_SECONDS = 5;

const waitOf = (event: HttpEvent): number => {
  const value = event.queryStringParameters?.wait;
  return value !== undefined && /^[0-9]{1,9}$/.test(value) ? Number(value) : 0;
};

/**
 * Long polls in a pool of their own inside the reads function: a poll that would wait needs a
 * slot; with none free it is answered at once, 429 `long_poll_full` with Retry-After, and the
 * function is free for the next read. Reads that do not wait never touch the pool. If the pool
 * itself cannot be reached, the poll is answered as a read that does not wait.
 */
export function withPollPool<C>(handler: (event: HttpEvent, context: C) => Promise<HttpResult>, pool: PollPool, maxWaitSeconds: number, report: (reason: string) => void = () => {}) {
  return async (event: HttpEvent, context: C): Promise<HttpResult> => {
    const wait = Math.min(waitOf(event), maxWaitSeconds);
    if (event.routeKey !== LONG_POLL_ROUTE || wait === 0) return handler(event, context);
    let slot;
    try {
      slot = await pool.acquire(wait);
    } catch (error) {
      report(`the long-poll pool could not be read (${error instanceof Error ? error.name : 'unknown'}): answered without waiting`);
      return handler({ ...event, queryStringParameters: { ...event.queryStringParameters, wait: '0' } }, context);
    }
    if (!slot) {
      return errorAnswer(
        header(event, 'accept'),
        429,
        'long_poll_full',
        `As many long polls wait now as this server holds: poll again in ${POLL_RETRY_AFTER_SECONDS} seconds, or follow the game over the push socket (docs/push.md).`,
        { retryAfterSeconds: POLL_RETRY_AFTER_SECONDS },
        { 'retry-after': String(POLL_RETRY_AFTER_SECONDS) },
      );
    }
    try {
      return await handler(event, context);
    } finally {
      await slot.release();
    }
  };
}
