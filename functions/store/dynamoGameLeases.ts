import {
  DeleteItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  type AttributeValue,
  type DynamoDBClient,
  type ScanCommandOutput,
} from '@aws-sdk/client-dynamodb';
import type { GameHead } from '../../domain/trust/gameHead';
import type { GameLeases } from '../application/gameExpiry';
import { commitsOf, secretsKey, seedKey, tokensKey, viewersKey } from './dynamoStore';
import { SNAPSHOT_KEY_SUFFIX } from './dynamoSnapshots';
import { DynamoPendingReveals } from './dynamoPendingReveals';
import { queryItems } from './queryItems';
import { unavailableWhenTransient } from './transientErrors';

/**
 * A game's lease: `lease#<game id>`, sk 0, with `expiresAt`, the table's TTL attribute. The
 * prefix lets the sweep function's stream filter pick out leases that TTL removed.
 */
export const LEASE_KEY_PREFIX = 'lease#';
const leaseKey = (gameId: string) => ({ pk: { S: `${LEASE_KEY_PREFIX}${gameId}` }, sk: { N: '0' } });
/** Deletes sent at once. */
const BATCH = 25;
/**
 * A sweep that stops half-way (a timeout, DynamoDB refusing for a while) comes back this long
 * after it started: the lease it set first ends then, and TTL gives the game to the sweep again.
 */
export const SWEEP_RETRY_SECONDS = 60 * 60;

/** The leases of expiring games in the game table, and the deletion of an abandoned game's items. */
export class DynamoGameLeases implements GameLeases {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
    /** The seeds' table (infra/seedTable.ts), where a swept game's seed is deleted; unset: the game table. */
    private readonly seedTableName?: string,
  ) {}

  async arm(gameId: string, expiresAt: number): Promise<void> {
    await this.call(() =>
      this.client.send(new PutItemCommand({ TableName: this.tableName, Item: { ...leaseKey(gameId), expiresAt: { N: String(expiresAt) } } })),
    );
  }

  async disarm(gameId: string): Promise<void> {
    await this.call(() => this.client.send(new DeleteItemCommand({ TableName: this.tableName, Key: leaseKey(gameId) })));
  }

  async due(now: number, limit: number): Promise<string[]> {
    return this.call(async () => {
      const games: string[] = [];
      let startKey: ScanCommandOutput['LastEvaluatedKey'];
      do {
        const page: ScanCommandOutput = await this.client.send(
          new ScanCommand({
            TableName: this.tableName,
            FilterExpression: 'begins_with(pk, :lease) AND expiresAt <= :now',
            ExpressionAttributeValues: { ':lease': { S: LEASE_KEY_PREFIX }, ':now': { N: String(now) } },
            ProjectionExpression: 'pk',
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of page.Items ?? []) games.push(item.pk.S!.slice(LEASE_KEY_PREFIX.length));
        startKey = page.LastEvaluatedKey;
      } while (startKey && games.length < limit);
      return games.slice(0, limit);
    });
  }

  async lastCommit(gameId: string): Promise<{ recordedAt: string; sealed: boolean } | undefined> {
    return this.call(async () => {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': { S: gameId } },
          ProjectionExpression: '#commit, commits, head',
          ExpressionAttributeNames: { '#commit': 'commit' },
          ScanIndexForward: false,
          Limit: 1,
          ConsistentRead: true,
        }),
      );
      const item = page.Items?.[0];
      const commit = item && commitsOf(item).at(-1);
      if (!commit) return undefined;
      const head = item.head?.S ? (JSON.parse(item.head.S) as GameHead) : undefined;
      return { recordedAt: commit.recordedAt, sealed: head?.sealed === true || commit.events.some((e) => e.type === 'GameSealed') };
    });
  }

  /**
   * Every step may run again and a run may stop after any step: a retried sweep finishes the
   * job. First a lease again, ending in SWEEP_RETRY_SECONDS (on AWS, TTL had removed the one
   * that started this sweep): a run cut short after it comes back by itself. Then the seed
   * (once it is gone no die of the game can be drawn), the commits (oldest first: while the
   * last one is there the sweep judges the game as before; once they are all gone it is
   * `gone`, and the rest is deleted the same way), the spectator links, issued tokens,
   * snapshots and pending reveals, the secrets, and the lease last.
   */
  async deleteGame(gameId: string, nowSeconds = Math.floor(Date.now() / 1000)): Promise<void> {
    await this.call(async () => {
      await this.arm(gameId, nowSeconds + SWEEP_RETRY_SECONDS);
      // One DeleteItem that returns nothing (the sweep may never read a seed, infra/gameExpiry.ts); a seed from before the seeds table is in the game table.
      if (this.seedTableName) await this.client.send(new DeleteItemCommand({ TableName: this.seedTableName, Key: { pk: { S: seedKey(gameId) }, sk: { N: '0' } }, ReturnValues: 'NONE' }));
      await this.deleteKeys([{ pk: { S: seedKey(gameId) }, sk: { N: '0' } }]);
      for (const pk of [gameId, viewersKey(gameId), tokensKey(gameId), `${gameId}${SNAPSHOT_KEY_SUFFIX}`]) await this.deleteKeys(await this.keysUnder(pk));
      await this.deleteKeys(await new DynamoPendingReveals(this.client, this.tableName).keysOfGame(gameId));
      await this.deleteKeys([{ pk: { S: secretsKey(gameId) }, sk: { N: '0' } }, leaseKey(gameId)]);
    });
  }

  private keysUnder(pk: string): Promise<Record<string, AttributeValue>[]> {
    return queryItems(this.client, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: pk } },
      ProjectionExpression: 'pk, sk',
      ConsistentRead: true,
    });
  }

  /**
   * DeleteItem by DeleteItem, 25 at a time, each returning nothing: the sweep's role may
   * delete these keys but put no item (a BatchWriteItem could put as well) and read none
   * back (ReturnValues NONE is a condition of its grant, infra/gameExpiry.ts).
   */
  private async deleteKeys(keys: Record<string, AttributeValue>[]): Promise<void> {
    for (let start = 0; start < keys.length; start += BATCH) {
      await Promise.all(keys.slice(start, start + BATCH).map((Key) => this.client.send(new DeleteItemCommand({ TableName: this.tableName, Key, ReturnValues: 'NONE' }))));
    }
  }

  private call<T>(operation: () => Promise<T>): Promise<T> {
    return unavailableWhenTransient(operation);
  }
}
