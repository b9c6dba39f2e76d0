import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException, DeleteItemCommand, GetItemCommand, PutItemCommand, UpdateItemCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DEAD_LETTERS_KEPT, type DeadLetter, type Digest, type SubscriptionKind, type SubscriptionRecord, type SubscriptionGrant, type SubscriptionScope, type SubscriptionStore } from '../ports/subscriptionStore';
import { queryItems } from './queryItems';
import { unavailableWhenTransient } from './transientErrors';

/**
 * Subscriptions in the game table (its sk is a number):
 * - `subscription#<id>`, sk 0: the record; sk 1 + hash(game): its cursor in that game; sk 2^49 + hash(game): the latest reminder it was sent in that game;
 * - `subscriptions#game#<gameId>` / `subscriptions#tournament#<id>`, sk hash(subscription): the scope's index;
 * - `subscriptions#games`, `subscriptions#tournaments`, sk hash(id): the games and tournaments that have subscriptions (caught up at start-up);
 * - `deadletters#<id>`, sk the time in µs: its dead letters, the latest DEAD_LETTERS_KEPT.
 * Every string a subscriber chose (URL, address) is inside `sealedTarget` or masked: data, never a key.
 */
const hash48 = (text: string) => createHash('sha256').update(text, 'utf8').digest().readUIntBE(0, 6);
const S = (value: string) => ({ S: value });
const N = (value: number) => ({ N: String(value) });
const recordKey = (subscriptionId: string) => ({ pk: S(`subscription#${subscriptionId}`), sk: N(0) });
const cursorKey = (subscriptionId: string, gameId: string) => ({ pk: S(`subscription#${subscriptionId}`), sk: N(1 + hash48(gameId)) });
const remindedKey = (subscriptionId: string, gameId: string) => ({ pk: S(`subscription#${subscriptionId}`), sk: N(2 ** 49 + hash48(gameId)) });
const scopePk = (scope: SubscriptionScope) => ('gameId' in scope ? `subscriptions#game#${scope.gameId}` : `subscriptions#tournament#${scope.tournamentId}`);
const GAMES_PK = 'subscriptions#games';
const TOURNAMENTS_PK = 'subscriptions#tournaments';

function itemOf(record: SubscriptionRecord): Record<string, AttributeValue> {
  return {
    ...recordKey(record.subscriptionId),
    subscriptionId: S(record.subscriptionId),
    scope: S(JSON.stringify(record.scope)),
    kind: S(record.kind),
    owner: S(record.owner),
    ...(record.grantedBy ? { grantedBy: S(JSON.stringify(record.grantedBy)) } : {}),
    sealedTarget: S(record.sealedTarget),
    maskedTarget: S(record.maskedTarget),
    digest: S(JSON.stringify(record.digest)),
    status: S(record.status),
    createdAt: S(record.createdAt),
    ...(record.codeHash ? { codeHash: S(record.codeHash) } : {}),
    ...(record.afterSeq !== undefined ? { afterSeq: N(record.afterSeq) } : {}),
  };
}

function recordOf(item: Record<string, AttributeValue>): SubscriptionRecord {
  return {
    subscriptionId: item.subscriptionId!.S!,
    scope: JSON.parse(item.scope!.S!) as SubscriptionScope,
    kind: item.kind!.S! as SubscriptionKind,
    owner: item.owner!.S!,
    ...(item.grantedBy?.S ? { grantedBy: JSON.parse(item.grantedBy.S) as SubscriptionGrant } : {}),
    sealedTarget: item.sealedTarget!.S!,
    maskedTarget: item.maskedTarget!.S!,
    digest: JSON.parse(item.digest!.S!) as Digest,
    status: item.status!.S! as 'active' | 'confirming',
    createdAt: item.createdAt!.S!,
    ...(item.codeHash?.S ? { codeHash: item.codeHash.S } : {}),
    ...(item.afterSeq?.N ? { afterSeq: Number(item.afterSeq.N) } : {}),
  };
}

export class DynamoSubscriptions implements SubscriptionStore {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}


  async add(record: SubscriptionRecord): Promise<void> {
    const { TableName } = { TableName: this.tableName };
    // The record first: an index entry never names a record that was not written (inScope skips one whose record is gone).
    await unavailableWhenTransient(() => this.client.send(new PutItemCommand({ TableName, Item: itemOf(record), ConditionExpression: 'attribute_not_exists(pk)' })));
    await unavailableWhenTransient(() => this.client.send(new PutItemCommand({ TableName, Item: { pk: S(scopePk(record.scope)), sk: N(hash48(record.subscriptionId)), subscriptionId: S(record.subscriptionId) } })));
    const { scope } = record;
    if ('gameId' in scope) await unavailableWhenTransient(() => this.client.send(new PutItemCommand({ TableName, Item: { pk: S(GAMES_PK), sk: N(hash48(scope.gameId)), gameId: S(scope.gameId) } })));
    else await unavailableWhenTransient(() => this.client.send(new PutItemCommand({ TableName, Item: { pk: S(TOURNAMENTS_PK), sk: N(hash48(scope.tournamentId)), tournamentId: S(scope.tournamentId) } })));
  }

  async get(subscriptionId: string): Promise<SubscriptionRecord | undefined> {
    const found = await unavailableWhenTransient(() => this.client.send(new GetItemCommand({ TableName: this.tableName, Key: recordKey(subscriptionId), ConsistentRead: true })));
    return found.Item ? recordOf(found.Item) : undefined;
  }

  async inScope(scope: SubscriptionScope): Promise<SubscriptionRecord[]> {
    const index = await unavailableWhenTransient(() =>
      queryItems(this.client, { TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': S(scopePk(scope)) }, ConsistentRead: true }),
    );
    const records = await Promise.all(index.map((item) => this.get(item.subscriptionId!.S!)));
    return records.filter((record): record is SubscriptionRecord => record !== undefined).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** The games with subscriptions of their own, for the catch-up at start-up. */
  async subscribedGames(): Promise<string[]> {
    const items = await unavailableWhenTransient(() => queryItems(this.client, { TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': S(GAMES_PK) } }));
    return items.map((item) => item.gameId!.S!);
  }

  /** The tournaments with subscriptions: their games are caught up at start-up. */
  async subscribedTournaments(): Promise<string[]> {
    const items = await unavailableWhenTransient(() => queryItems(this.client, { TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': S(TOURNAMENTS_PK) } }));
    return items.map((item) => item.tournamentId!.S!);
  }

  async remove(subscriptionId: string): Promise<boolean> {
    const record = await this.get(subscriptionId);
    if (!record) return false;
    const TableName = this.tableName;
    await unavailableWhenTransient(() => this.client.send(new DeleteItemCommand({ TableName, Key: recordKey(subscriptionId) })));
    await unavailableWhenTransient(() => this.client.send(new DeleteItemCommand({ TableName, Key: { pk: S(scopePk(record.scope)), sk: N(hash48(subscriptionId)) } })));
    for (const pk of [`subscription#${subscriptionId}`, `deadletters#${subscriptionId}`]) {
      const items = await unavailableWhenTransient(() => queryItems(this.client, { TableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': S(pk) }, ProjectionExpression: 'pk, sk' }));
      for (const item of items) await unavailableWhenTransient(() => this.client.send(new DeleteItemCommand({ TableName, Key: { pk: item.pk!, sk: item.sk! } })));
    }
    return true;
  }

  async confirm(subscriptionId: string): Promise<boolean> {
    try {
      await unavailableWhenTransient(() =>
        this.client.send(new UpdateItemCommand({
          TableName: this.tableName,
          Key: recordKey(subscriptionId),
          UpdateExpression: 'SET #status = :active',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':active': S('active') },
        })),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async cursor(subscriptionId: string, gameId: string): Promise<number | undefined> {
    const found = await unavailableWhenTransient(() => this.client.send(new GetItemCommand({ TableName: this.tableName, Key: cursorKey(subscriptionId, gameId), ConsistentRead: true })));
    return found.Item && found.Item.gameId?.S === gameId ? Number(found.Item.seq!.N) : undefined;
  }

  async advance(subscriptionId: string, gameId: string, from: number | undefined, to: number): Promise<boolean> {
    if (!(await this.get(subscriptionId))) return false;
    try {
      await unavailableWhenTransient(() =>
        this.client.send(new PutItemCommand({
          TableName: this.tableName,
          Item: { ...cursorKey(subscriptionId, gameId), gameId: S(gameId), seq: N(to) },
          ...(from === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : { ConditionExpression: 'seq = :from AND gameId = :game', ExpressionAttributeValues: { ':from': N(from), ':game': S(gameId) } }),
        })),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async addDeadLetter(subscriptionId: string, letter: DeadLetter): Promise<void> {
    const TableName = this.tableName;
    const pk = S(`deadletters#${subscriptionId}`);
    const sk = Date.parse(letter.at) * 1000 + Math.floor(Math.random() * 1000);
    await unavailableWhenTransient(() => this.client.send(new PutItemCommand({ TableName, Item: { pk, sk: N(sk), seq: N(letter.seq), at: S(letter.at), error: S(letter.error) } })));
    const keys = await unavailableWhenTransient(() => queryItems(this.client, { TableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ProjectionExpression: 'pk, sk', ConsistentRead: true }));
    for (const old of keys.slice(0, Math.max(0, keys.length - DEAD_LETTERS_KEPT))) await unavailableWhenTransient(() => this.client.send(new DeleteItemCommand({ TableName, Key: { pk: old.pk!, sk: old.sk! } })));
  }

  async deadLetters(subscriptionId: string): Promise<DeadLetter[]> {
    const items = await unavailableWhenTransient(() =>
      queryItems(this.client, { TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': S(`deadletters#${subscriptionId}`) }, ConsistentRead: true }),
    );
    return items.slice(-DEAD_LETTERS_KEPT).map((item) => ({ seq: Number(item.seq!.N), at: item.at!.S!, error: item.error!.S! }));
  }

  async markReminded(subscriptionId: string, gameId: string, key: string): Promise<boolean> {
    if (!(await this.get(subscriptionId))) return false;
    try {
      await unavailableWhenTransient(() =>
        this.client.send(new PutItemCommand({
          TableName: this.tableName,
          Item: { ...remindedKey(subscriptionId, gameId), gameId: S(gameId), reminder: S(key) },
          ConditionExpression: 'attribute_not_exists(pk) OR gameId <> :game OR reminder <> :key',
          ExpressionAttributeValues: { ':game': S(gameId), ':key': S(key) },
        })),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
