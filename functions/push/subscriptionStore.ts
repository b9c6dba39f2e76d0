import { DeleteItemCommand, PutItemCommand, QueryCommand, type DynamoDBClient, type QueryCommandOutput } from '@aws-sdk/client-dynamodb';
import { pkSkKeySchema } from '../store/keySchema';
import { unavailableWhenTransient } from '../store/transientErrors';
import { isIdentity, type Identity } from './delivery';

/** A subscription as the AWS path keeps it between Lambda invocations. */
export interface StoredSubscription {
  connectionId: string;
  gameId: string;
  identity: Identity;
  rulesetId: string;
  /** The last seq the subscribe sent: the stream function sends later commits only. */
  after: number;
  /** The version the token was checked at. */
  authorizedAt: number;
  /** Epoch seconds: DynamoDB's TTL removes a subscription whose $disconnect never came. */
  expiresAt: number;
  /** Its fan-out slice (fanOut.ts), given when it subscribed; absent on a subscription stored before slices. */
  slice?: number;
}

/** The subscriptions of the AWS path: who follows which game, on which connection. */
export interface SubscriptionStore {
  put(subscription: StoredSubscription): Promise<void>;
  remove(connectionId: string, gameId: string): Promise<void>;
  /** The games a connection follows (at most `atMost`). */
  gamesOf(connectionId: string, atMost: number): Promise<string[]>;
  /** How many connections follow a game now (`nowSeconds`: expired ones don't count), counted up to `atMost`. */
  countForGame(gameId: string, atMost: number, nowSeconds: number): Promise<number>;
  /** The live subscriptions of a game (at most `atMost`). */
  forGame(gameId: string, atMost: number, nowSeconds: number): Promise<StoredSubscription[]>;
  /** Records an open connection of a client (by the hash of its address), until `expiresAt` (epoch seconds) at the latest. */
  addClientConnection(client: string, connectionId: string, expiresAt: number): Promise<void>;
  removeClientConnection(client: string, connectionId: string): Promise<void>;
  /** How many connections a client holds now, counted up to `atMost`. */
  countClientConnections(client: string, atMost: number, nowSeconds: number): Promise<number>;
}

/** Removes every subscription of a connection ($disconnect, or a connection found gone). */
export async function removeConnection(store: SubscriptionStore, connectionId: string, atMost: number): Promise<void> {
  for (const gameId of await store.gamesOf(connectionId, atMost)) await store.remove(connectionId, gameId);
}

/** The connections table's keys (infra/push.ts creates it so; the tests create its stand-in from this). */
export const CONNECTIONS_KEY_SCHEMA = pkSkKeySchema('S');

/** Subscriptions live until the connection could not possibly be open any more (API Gateway: 2 h), and a margin. */
export const expiresAt = (nowMs: number, maxConnectionMs: number) => Math.ceil((nowMs + maxConnectionMs) / 1000) + 300;

const gameKey = (gameId: string) => `game#${gameId}`;
const connectionKey = (connectionId: string) => `conn#${connectionId}`;
const clientKey = (client: string) => `client#${client}`;
/** Pages read per query: bounded loops whatever the table holds. */
const MAX_PAGES = 20;

/**
 * The connections table (infra/push.ts): pk and sk strings, TTL on `expiresAt`.
 * `game#<gameId>` / `<connectionId>`: a subscription, found by the stream function by game;
 * `conn#<connectionId>` / `<gameId>`: its index by connection, for $disconnect;
 * `client#<hash of the address>` / `<connectionId>`: a client's open connections, to bound them.
 */
export class DynamoSubscriptions implements SubscriptionStore {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  async put(s: StoredSubscription): Promise<void> {
    const expires = { N: String(s.expiresAt) };
    // The index first: a subscription never exists without the entry that lets $disconnect find it.
    await this.call(() => this.client.send(new PutItemCommand({ TableName: this.tableName, Item: { pk: { S: connectionKey(s.connectionId) }, sk: { S: s.gameId }, expiresAt: expires } })));
    const item = new PutItemCommand({
      TableName: this.tableName,
      Item: {
        pk: { S: gameKey(s.gameId) },
        sk: { S: s.connectionId },
        identity: { S: s.identity },
        rulesetId: { S: s.rulesetId },
        after: { N: String(s.after) },
        authorizedAt: { N: String(s.authorizedAt) },
        expiresAt: expires,
        ...(s.slice !== undefined ? { slice: { N: String(s.slice) } } : {}),
      },
    });
    await this.call(() => this.client.send(item));
  }

  async remove(connectionId: string, gameId: string): Promise<void> {
    await this.call(() => this.client.send(new DeleteItemCommand({ TableName: this.tableName, Key: { pk: { S: gameKey(gameId) }, sk: { S: connectionId } } })));
    await this.call(() => this.client.send(new DeleteItemCommand({ TableName: this.tableName, Key: { pk: { S: connectionKey(connectionId) }, sk: { S: gameId } } })));
  }

  async gamesOf(connectionId: string, atMost: number): Promise<string[]> {
    return (await this.query(connectionKey(connectionId), atMost)).map((item) => item.sk?.S).filter((id): id is string => typeof id === 'string');
  }

  async countForGame(gameId: string, atMost: number, nowSeconds: number): Promise<number> {
    return (await this.query(gameKey(gameId), atMost, { projection: 'pk', liveAt: nowSeconds })).length;
  }

  async forGame(gameId: string, atMost: number, nowSeconds: number): Promise<StoredSubscription[]> {
    const subscriptions: StoredSubscription[] = [];
    for (const item of await this.query(gameKey(gameId), atMost, { liveAt: nowSeconds })) {
      const identity = item.identity?.S;
      const connectionId = item.sk?.S;
      // An item this code did not write is skipped, never trusted.
      if (!connectionId || !isIdentity(identity)) continue;
      subscriptions.push({
        connectionId,
        gameId,
        identity,
        rulesetId: item.rulesetId?.S ?? '',
        after: Number(item.after?.N ?? 0),
        authorizedAt: Number(item.authorizedAt?.N ?? 0),
        expiresAt: Number(item.expiresAt?.N ?? 0),
        ...(item.slice?.N !== undefined ? { slice: Number(item.slice.N) } : {}),
      });
    }
    return subscriptions;
  }

  async addClientConnection(client: string, connectionId: string, expiresAt: number): Promise<void> {
    const item = { pk: { S: clientKey(client) }, sk: { S: connectionId }, expiresAt: { N: String(expiresAt) } };
    await this.call(() => this.client.send(new PutItemCommand({ TableName: this.tableName, Item: item })));
  }

  async removeClientConnection(client: string, connectionId: string): Promise<void> {
    await this.call(() => this.client.send(new DeleteItemCommand({ TableName: this.tableName, Key: { pk: { S: clientKey(client) }, sk: { S: connectionId } } })));
  }

  async countClientConnections(client: string, atMost: number, nowSeconds: number): Promise<number> {
    return (await this.query(clientKey(client), atMost, { projection: 'pk', liveAt: nowSeconds })).length;
  }

  /** Throttling and network failures are the store being briefly unavailable (the client is told `unavailable`). */
  private call<T>(operation: () => Promise<T>): Promise<T> {
    return unavailableWhenTransient(operation);
  }

  /** `liveAt`: TTL removes expired items only eventually (within days), so they are filtered out here. */
  private async query(pk: string, atMost: number, options: { projection?: string; liveAt?: number } = {}): Promise<NonNullable<QueryCommandOutput['Items']>> {
    const items: NonNullable<QueryCommandOutput['Items']> = [];
    let startKey: QueryCommandOutput['LastEvaluatedKey'];
    for (let page = 0; page < MAX_PAGES && items.length < atMost; page++) {
      const query = new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: pk }, ...(options.liveAt !== undefined ? { ':now': { N: String(options.liveAt) } } : {}) },
        ...(options.liveAt !== undefined ? { FilterExpression: 'expiresAt > :now' } : {}),
        Limit: atMost - items.length,
        ExclusiveStartKey: startKey,
        ...(options.projection ? { ProjectionExpression: options.projection } : {}),
      });
      const answer = await this.call(() => this.client.send(query));
      items.push(...(answer.Items ?? []));
      startKey = answer.LastEvaluatedKey;
      if (!startKey) break;
    }
    return items;
  }
}
