import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException, DeleteItemCommand, GetItemCommand, PutItemCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { PendingReveal, PendingReveals } from '../ports/pendingReveals';
import { queryItems } from './queryItems';
import { unavailableWhenTransient } from './transientErrors';

/**
 * Every pending commit waiting for its reveal is an item of one partition of the game table,
 * `reveal#pending`: the entries due are found by a Query of that partition alone (few items
 * at any time: each lives for a few seconds), never by a scan of the table. Its sk is a hash
 * of the game and the seq (the table's sk is a number); the item holds them, with `round` and
 * `dueAtMs`. Written with a conditional put, so an entry written again is left as it was.
 */
export const PENDING_REVEALS_KEY = 'reveal#pending';

/** The sk of a game's pending commit `seq`: 48 bits of SHA-256, so two entries alive at once never share one in practice (and if they did, the second is refused, never dropped). */
export function pendingRevealSk(gameId: string, seq: number): number {
  return createHash('sha256').update(`${gameId}\n${seq}`).digest().readUIntBE(0, 6);
}

/** An item's keys as a stream record gives them. */
export interface EntryKeys {
  pk?: { S?: string };
  sk?: { N?: string };
}

const keyOf = (gameId: string, seq: number) => ({ pk: { S: PENDING_REVEALS_KEY }, sk: { N: String(pendingRevealSk(gameId, seq)) } });

const entryOf = (item: Record<string, AttributeValue>): PendingReveal => ({
  gameId: item.gameId.S!,
  seq: Number(item.seq.N),
  round: Number(item.round.N),
  dueAtMs: Number(item.dueAtMs.N),
});

export class DynamoPendingReveals implements PendingReveals {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  async add(gameId: string, seq: number, round: number, dueAtMs: number): Promise<void> {
    await unavailableWhenTransient(async () => {
      try {
        await this.client.send(
          new PutItemCommand({
            TableName: this.tableName,
            Item: { ...keyOf(gameId, seq), gameId: { S: gameId }, seq: { N: String(seq) }, round: { N: String(round) }, dueAtMs: { N: String(dueAtMs) } },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        const kept = await this.entryAt(keyOf(gameId, seq));
        if (kept && (kept.gameId !== gameId || kept.seq !== seq)) throw new Error(`pending reveals: ${gameId} ${seq} has the key of ${kept.gameId} ${kept.seq}`);
      }
    });
  }

  async due(nowMs: number, limit: number): Promise<PendingReveal[]> {
    return unavailableWhenTransient(async () => {
      const items = await queryItems(this.client, {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: 'dueAtMs <= :now',
        ExpressionAttributeValues: { ':pk': { S: PENDING_REVEALS_KEY }, ':now': { N: String(nowMs) } },
      });
      return items
        .map(entryOf)
        .sort((a, b) => a.dueAtMs - b.dueAtMs)
        .slice(0, limit);
    });
  }

  async remove(gameId: string, seq: number): Promise<void> {
    await unavailableWhenTransient(() => this.client.send(new DeleteItemCommand({ TableName: this.tableName, Key: keyOf(gameId, seq) })));
  }

  /** The entry at these keys (a stream record's, KEYS_ONLY); undefined when it is no entry or already removed. */
  async entryAt(keys: EntryKeys): Promise<PendingReveal | undefined> {
    const sk = keys.sk?.N;
    if (keys.pk?.S !== PENDING_REVEALS_KEY || !sk) return undefined;
    return unavailableWhenTransient(async () => {
      const found = await this.client.send(new GetItemCommand({ TableName: this.tableName, Key: { pk: { S: PENDING_REVEALS_KEY }, sk: { N: sk } }, ConsistentRead: true }));
      return found.Item ? entryOf(found.Item) : undefined;
    });
  }

  /** The keys of a game's entries (the sweep of an abandoned game deletes them). */
  async keysOfGame(gameId: string): Promise<Record<string, AttributeValue>[]> {
    return queryItems(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: 'gameId = :game',
      ExpressionAttributeValues: { ':pk': { S: PENDING_REVEALS_KEY }, ':game': { S: gameId } },
      ProjectionExpression: 'pk, sk',
      ConsistentRead: true,
    });
  }
}
