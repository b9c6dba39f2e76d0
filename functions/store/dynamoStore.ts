import { randomInt } from 'node:crypto';
import {
  ConditionalCheckFailedException,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
  type AttributeValue,
  type DynamoDBClient,
  type QueryCommandOutput,
} from '@aws-sdk/client-dynamodb';
import type { Commit } from '../../domain/fairness/hashChain';
import type { GameHead } from '../../domain/trust/gameHead';
import {
  GameIdTaken,
  IdempotencyKeyTaken,
  StoreUnavailable,
  TournamentIdTaken,
  type AppendResult,
  type EventStore,
  type GameSecrets,
  type IdempotencyRecord,
  type IssuedToken,
  type TournamentRecord,
  type ViewerRecord,
} from '../ports/eventStore';
import { appendItem, commitItem, commitsOf } from './commitItems';
import { checkItemSize } from './itemSize';
import { pkSkKeySchema } from './keySchema';
import { queryItems } from './queryItems';
import { unavailableWhenTransient } from './transientErrors';

/** Secrets live under their own partition key, which no query of commits reaches. */
export const secretsKey = (gameId: string) => `${gameId}#secrets`;
/**
 * The server seed, apart from everything else: in a table of its own (`seedTableName`, on AWS
 * reachable only by the functions that roll, infra/seedTable.ts), under this key. Seeds of games
 * created before that table are under the same key in the game table, where the functions
 * that only read are denied every partition key ending in #seed (dynamodb:LeadingKeys).
 */
export const SEED_KEY_SUFFIX = '#seed';
export const seedKey = (gameId: string) => `${gameId}${SEED_KEY_SUFFIX}`;
const seedItem = (gameId: string, sealedSeed: string): Record<string, AttributeValue> => ({ pk: { S: seedKey(gameId) }, sk: { N: '0' }, seed: { S: sealedSeed } });
/** Spectator links: one item each under the game's viewers key, sk taken from the viewer id. */
export const viewersKey = (gameId: string) => `${gameId}#viewers`;
/** Tokens issued after creation: one item each under the game's tokens key, sk taken from the token id. */
export const tokensKey = (gameId: string) => `${gameId}#tokens`;
/** `v-…` and `k-…` ids carry a base-36 number, which is their item's sort key. */
const numberedSk = (prefix: string, id: string) => {
  const match = new RegExp(`^${prefix}-([0-9a-z]{1,10})$`).exec(id);
  return match ? String(parseInt(match[1], 36)) : undefined;
};
const viewerSk = (viewerId: string) => numberedSk('v', viewerId);
/** A tournament: its record at sk 0 under one key, its games under another, by when they were listed. */
const tournamentKey = (tournamentId: string) => `${tournamentId}#tournament`;
const tournamentGamesKey = (tournamentId: string) => `${tournamentId}#games`;
/** From a tournament token's hash to the tournament: a GetItem, never a scan. */
const tournamentTokenKey = (tokenHash: string) => `tournament-token#${tokenHash}`;
const MAX_LISTING_ATTEMPTS = 8;
/** A creation's idempotency record, under the hash of its key; `expiresAt` is the table's TTL attribute. */
const idempotencyKey = (keyHash: string) => `idempotency#${keyHash}`;
const idempotencyItem = (record: IdempotencyRecord): Record<string, AttributeValue> => ({
  pk: { S: idempotencyKey(record.keyHash) },
  sk: { N: '0' },
  record: { S: JSON.stringify(record) },
  expiresAt: { N: String(record.expiresAt) },
});
/**
 * A put of a new item, or of an idempotency record over one of its key that expired by the
 * time this one was made (the TTL deletes expired items only some time later; dynalite never).
 */
type CreationPut = { Item: Record<string, AttributeValue>; ConditionExpression: string; ExpressionAttributeValues?: Record<string, AttributeValue>; TableName?: string };
const newItem = (Item: Record<string, AttributeValue>): CreationPut => ({ Item, ConditionExpression: 'attribute_not_exists(pk)' });
const idempotencyPut = (record: IdempotencyRecord): CreationPut =>
  record.createdAt === undefined
    ? newItem(idempotencyItem(record))
    : { Item: idempotencyItem(record), ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :createdAt', ExpressionAttributeValues: { ':createdAt': { N: String(record.createdAt) } } };
/**
 * The DynamoDB adapter: pk = game id, sk = seq, the commit as one JSON string
 * attribute (byte-exact), commandId beside it. Append is one conditional put; with
 * `groups`, a group of commits goes in one item keyed by its first seq.
 */
export class DynamoEventStore implements EventStore {
  private lastListingSk = 0;

  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
    /**
     * `transactions`: DynamoDB on AWS (a game's creation in one TransactWriteItems).
     * `groups`: commits may be written several to an item (a process that takes many requests
     * at once, such as the local server; a Lambda container takes one at a time and never does).
     * `seedTableName`: the table of seeds (npm start and the stack have one); unset, seeds are
     * kept in the game table, as before it existed.
     */
    private readonly options: { transactions?: boolean; groups?: boolean; seedTableName?: string } = {},
  ) {}

  private get seedTable(): string {
    return this.options.seedTableName ?? this.tableName;
  }

  /**
   * With transactions (DynamoDB on AWS): every item of the new game, and its idempotency
   * record, in one TransactWriteItems. Without (dynalite has none): the idempotency record,
   * the seed, the secrets, then commit 1, each a conditional put; a game is visible only
   * once commit 1 is stored.
   */
  async createGame(first: Commit, secrets: GameSecrets, head?: GameHead, sealedSeed?: string, idempotency?: IdempotencyRecord): Promise<void> {
    const puts: CreationPut[] = [
      ...(idempotency ? [idempotencyPut(idempotency)] : []),
      ...(sealedSeed !== undefined ? [{ ...newItem(seedItem(first.gameId, sealedSeed)), TableName: this.seedTable }] : []),
      newItem({ pk: { S: secretsKey(first.gameId) }, sk: { N: '0' }, secrets: { S: JSON.stringify(secrets) } }),
      newItem(commitItem(first, head)),
    ];
    for (const put of puts) checkItemSize(put.Item);
    await this.call(async () => {
      if (this.options.transactions) {
        try {
          await this.client.send(new TransactWriteItemsCommand({ TransactItems: puts.map((put) => ({ Put: { ...put, TableName: put.TableName ?? this.tableName } })) }));
        } catch (error) {
          if (!(error instanceof TransactionCanceledException)) throw error;
          const codes = error.CancellationReasons?.map((reason) => reason.Code) ?? [];
          // TransactionConflict on the record: another creation with the key is being written at this moment.
          if (idempotency && (codes[0] === 'ConditionalCheckFailed' || codes[0] === 'TransactionConflict')) throw new IdempotencyKeyTaken();
          if (codes.includes('ConditionalCheckFailed')) throw new GameIdTaken(first.gameId);
          if (codes.some((code) => code === 'TransactionConflict' || code === 'ThrottlingError' || code === 'ProvisionedThroughputExceeded')) throw new StoreUnavailable(error);
          throw error;
        }
        return;
      }
      for (const [index, put] of puts.entries()) {
        try {
          await this.client.send(new PutItemCommand({ ...put, TableName: put.TableName ?? this.tableName }));
        } catch (error) {
          if (idempotency && index === 0) {
            if (error instanceof ConditionalCheckFailedException) throw new IdempotencyKeyTaken();
            throw error;
          }
          // The record must not name a game that was never stored: the key would answer nothing for a day.
          if (idempotency) await this.forgetIdempotency(idempotency);
          if (error instanceof ConditionalCheckFailedException) throw new GameIdTaken(first.gameId);
          throw error;
        }
      }
    });
  }

  /** Deletes this very record (not a later one of its key), as far as the store lets it now. */
  private async forgetIdempotency(record: IdempotencyRecord): Promise<void> {
    const { pk, sk, record: text } = idempotencyItem(record);
    await this.client
      .send(new DeleteItemCommand({ TableName: this.tableName, Key: { pk, sk }, ConditionExpression: '#record = :record', ExpressionAttributeNames: { '#record': 'record' }, ExpressionAttributeValues: { ':record': text } }))
      .catch(() => undefined);
  }

  async readIdempotency(keyHash: string, nowSeconds = Date.now() / 1000): Promise<IdempotencyRecord | undefined> {
    return this.call(async () => {
      const result = await this.client.send(
        new GetItemCommand({ TableName: this.tableName, Key: { pk: { S: idempotencyKey(keyHash) }, sk: { N: '0' } }, ConsistentRead: true }),
      );
      const text = result.Item?.record?.S;
      if (!text) return undefined;
      const record = JSON.parse(text) as IdempotencyRecord;
      // DynamoDB deletes expired items some time after they expire: an expired record counts as gone.
      return record.expiresAt > nowSeconds ? record : undefined;
    });
  }

  async append(commit: Commit, head?: GameHead): Promise<AppendResult> {
    return this.appendGroup([commit], head);
  }

  /**
   * One conditional put for the whole group, keyed by its first seq: a lone commit as it
   * always was (`commit`, `commandId`), a group of several as `commits` with their commandIds
   * and last seq. Groups tile the seqs, so a writer whose version is stale always meets the
   * item keyed by its first seq (docs/append-protocol.md).
   */
  async appendGroup(commits: readonly Commit[], head?: GameHead): Promise<AppendResult> {
    if (commits.length === 0) throw new Error('an empty group');
    if (commits.length > 1 && !this.options.groups) throw new Error('this store writes one commit per item');
    const first = commits[0];
    const item = appendItem(commits, head);
    checkItemSize(item);
    return this.call(async () => {
      try {
        await this.client.send(new PutItemCommand({ TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(sk)' }));
        return { ok: true } as const;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        const existing = await this.client.send(
          new GetItemCommand({ TableName: this.tableName, Key: { pk: { S: first.gameId }, sk: { N: String(first.seq) } }, ConsistentRead: true }),
        );
        const stored = existing.Item ? commitsOf(existing.Item)[0] : undefined;
        if (!stored) throw new Error(`seq ${first.seq} of ${first.gameId} is taken but unreadable`);
        return { ok: false, existing: stored } as const;
      }
    });
  }

  /** From the seeds table; a game created before it existed has its seed in the game table. */
  async readSeed(gameId: string): Promise<string | undefined> {
    return this.call(async () => {
      const key = { pk: { S: seedKey(gameId) }, sk: { N: '0' } };
      const result = await this.client.send(new GetItemCommand({ TableName: this.seedTable, Key: key, ConsistentRead: true }));
      if (result.Item || this.seedTable === this.tableName) return result.Item?.seed?.S;
      const before = await this.client.send(new GetItemCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
      return before.Item?.seed?.S;
    });
  }

  async writeSeed(gameId: string, sealedSeed: string): Promise<void> {
    await this.call(() => this.client.send(new PutItemCommand({ TableName: this.seedTable, Item: seedItem(gameId, sealedSeed) })));
  }

  async readHead(gameId: string, seq: number): Promise<GameHead | undefined> {
    return this.call(async () => {
      const result = await this.client.send(
        new GetItemCommand({
          TableName: this.tableName,
          Key: { pk: { S: gameId }, sk: { N: String(seq) } },
          ProjectionExpression: 'head',
          ConsistentRead: true,
        }),
      );
      let text = result.Item?.head?.S;
      // The last commit of a group: its head is on the group's item, keyed by the group's first seq.
      if (!result.Item && this.options.groups) text = (await this.itemHolding(gameId, seq))?.head?.S;
      const head = text ? (JSON.parse(text) as GameHead) : undefined;
      return head?.seq === seq ? head : undefined;
    });
  }

  async readLastHead(gameId: string): Promise<GameHead | undefined> {
    return this.call(async () => {
      // The last item is the last commit's, or the last group's, which carries the head of its last commit.
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk > :zero',
          ExpressionAttributeValues: { ':pk': { S: gameId }, ':zero': { N: '0' } },
          ProjectionExpression: 'head',
          ScanIndexForward: false,
          Limit: 1,
          ConsistentRead: true,
        }),
      );
      const text = page.Items?.[0]?.head?.S;
      return text ? (JSON.parse(text) as GameHead) : undefined;
    });
  }

  async read(gameId: string, after: number, limit?: number): Promise<Commit[]> {
    return this.call(async () => {
      const commits: Commit[] = [];
      let startKey: QueryCommandOutput['LastEvaluatedKey'];
      do {
        const page: QueryCommandOutput = await this.client.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk AND sk > :after',
            ExpressionAttributeValues: { ':pk': { S: gameId }, ':after': { N: String(after) } },
            ProjectionExpression: '#commit, commits',
            ExpressionAttributeNames: { '#commit': 'commit' },
            ConsistentRead: true,
            ...(limit !== undefined ? { Limit: limit - commits.length } : {}),
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of page.Items ?? []) commits.push(...commitsOf(item));
        startKey = page.LastEvaluatedKey;
      } while (startKey && (limit === undefined || commits.length < limit));
      // `after` inside a group (a page that ended mid-group, a retry's seq): the group's tail first.
      if (this.options.groups && commits[0]?.seq !== after + 1 && after > 0) {
        const holding = await this.itemHolding(gameId, after);
        if (holding) commits.unshift(...commitsOf(holding).filter((c) => c.seq > after));
      }
      return limit === undefined ? commits : commits.slice(0, limit);
    });
  }

  /** The item whose commits include `seq`: the one with the greatest first seq not above it. */
  private async itemHolding(gameId: string, seq: number): Promise<Record<string, AttributeValue> | undefined> {
    const page = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk <= :seq',
        ExpressionAttributeValues: { ':pk': { S: gameId }, ':seq': { N: String(seq) } },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    return page.Items?.[0];
  }

  /** A filtered Query of the whole game (it reads every commit's capacity): only for retries a snapshot cannot answer. */
  async findCommandId(gameId: string, commandId: string): Promise<number | undefined> {
    return this.call(async () => {
      let startKey: QueryCommandOutput['LastEvaluatedKey'];
      do {
        const page: QueryCommandOutput = await this.client.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk',
            FilterExpression: 'commandId = :commandId OR contains(commandIds, :commandId)',
            ExpressionAttributeValues: { ':pk': { S: gameId }, ':commandId': { S: commandId } },
            ProjectionExpression: 'sk, commandIds, commits',
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
          }),
        );
        const found = page.Items?.[0];
        if (found?.commits) return commitsOf(found).find((c) => c.commandId === commandId)?.seq;
        if (found?.sk?.N !== undefined) return Number(found.sk.N);
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return undefined;
    });
  }

  async readSecrets(gameId: string): Promise<GameSecrets | undefined> {
    return this.call(async () => {
      const result = await this.client.send(
        new GetItemCommand({
          TableName: this.tableName,
          Key: { pk: { S: secretsKey(gameId) }, sk: { N: '0' } },
          ConsistentRead: true,
        }),
      );
      const text = result.Item?.secrets?.S;
      return text ? (JSON.parse(text) as GameSecrets) : undefined;
    });
  }

  async replaceSecrets(gameId: string, secrets: GameSecrets): Promise<void> {
    await this.call(() =>
      this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: { pk: { S: secretsKey(gameId) }, sk: { N: '0' }, secrets: { S: JSON.stringify(secrets) } },
          ConditionExpression: 'attribute_exists(pk)',
        }),
      ),
    );
  }

  async addViewer(gameId: string, viewer: ViewerRecord): Promise<void> {
    const sk = viewerSk(viewer.viewerId);
    if (!sk) throw new Error(`not a viewer id: ${viewer.viewerId}`);
    await this.call(() =>
      this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: { pk: { S: viewersKey(gameId) }, sk: { N: sk }, viewer: { S: JSON.stringify(viewer) } },
          ConditionExpression: 'attribute_not_exists(sk)',
        }),
      ),
    );
  }

  async revokeViewer(gameId: string, viewerId: string): Promise<boolean> {
    const sk = viewerSk(viewerId);
    if (!sk) return false;
    return this.call(async () => {
      const key = { pk: { S: viewersKey(gameId) }, sk: { N: sk } };
      const found = await this.client.send(new GetItemCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
      const text = found.Item?.viewer?.S;
      if (!text) return false;
      const revoked = JSON.stringify({ ...(JSON.parse(text) as ViewerRecord), revoked: true });
      await this.client.send(new PutItemCommand({ TableName: this.tableName, Item: { ...key, viewer: { S: revoked } } }));
      return true;
    });
  }

  async readViewers(gameId: string): Promise<ViewerRecord[]> {
    return (await this.queryAll(viewersKey(gameId), 'viewer')).map((text) => JSON.parse(text) as ViewerRecord);
  }

  async addIssuedToken(gameId: string, token: IssuedToken): Promise<void> {
    const sk = numberedSk('k', token.tokenId);
    if (!sk) throw new Error(`not a token id: ${token.tokenId}`);
    await this.call(() =>
      this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: { pk: { S: tokensKey(gameId) }, sk: { N: sk }, token: { S: JSON.stringify(token) } },
          ConditionExpression: 'attribute_not_exists(sk)',
        }),
      ),
    );
  }

  async readIssuedTokens(gameId: string): Promise<IssuedToken[]> {
    return (await this.queryAll(tokensKey(gameId), 'token')).map((text) => JSON.parse(text) as IssuedToken);
  }

  async createTournament(tournament: TournamentRecord): Promise<void> {
    await this.call(async () => {
      try {
        await this.client.send(
          new PutItemCommand({
            TableName: this.tableName,
            Item: { pk: { S: tournamentKey(tournament.tournamentId) }, sk: { N: '0' }, tournament: { S: JSON.stringify(tournament) } },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) throw new TournamentIdTaken(tournament.tournamentId);
        throw error;
      }
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: { pk: { S: tournamentTokenKey(tournament.tokenHash) }, sk: { N: '0' }, tournamentId: { S: tournament.tournamentId } },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    });
  }

  async findTournamentByTokenHash(tokenHash: string): Promise<string | undefined> {
    return this.call(async () => {
      const result = await this.client.send(
        new GetItemCommand({ TableName: this.tableName, Key: { pk: { S: tournamentTokenKey(tokenHash) }, sk: { N: '0' } }, ConsistentRead: true }),
      );
      return result.Item?.tournamentId?.S;
    });
  }

  async readTournament(tournamentId: string): Promise<TournamentRecord | undefined> {
    return this.call(async () => {
      const result = await this.client.send(
        new GetItemCommand({ TableName: this.tableName, Key: { pk: { S: tournamentKey(tournamentId) }, sk: { N: '0' } }, ConsistentRead: true }),
      );
      const text = result.Item?.tournament?.S;
      return text ? (JSON.parse(text) as TournamentRecord) : undefined;
    });
  }

  /**
   * Keyed by when it was listed (milliseconds × 1000 plus three random digits), so games
   * created at once in many processes never queue behind one another; a collision (same
   * millisecond, same digits) draws again.
   */
  async addTournamentGame(tournamentId: string, gameId: string): Promise<void> {
    await this.call(async () => {
      for (let attempt = 1; attempt <= MAX_LISTING_ATTEMPTS; attempt++) {
        // Never below this process's last listing: games it lists one after another keep their order.
        const sk = Math.max(Date.now() * 1000 + randomInt(1000), this.lastListingSk + 1);
        this.lastListingSk = sk;
        try {
          await this.client.send(
            new PutItemCommand({
              TableName: this.tableName,
              Item: { pk: { S: tournamentGamesKey(tournamentId) }, sk: { N: String(sk) }, gameId: { S: gameId } },
              ConditionExpression: 'attribute_not_exists(sk)',
            }),
          );
          return;
        } catch (error) {
          if (!(error instanceof ConditionalCheckFailedException)) throw error;
        }
      }
      throw new StoreUnavailable();
    });
  }

  async listTournamentGames(tournamentId: string): Promise<string[]> {
    return this.queryAll(tournamentGamesKey(tournamentId), 'gameId');
  }

  /** Every item under one partition key, in sk order: the string attribute `attribute` of each. */
  private async queryAll(pk: string, attribute: string): Promise<string[]> {
    const items = await this.call(() =>
      queryItems(this.client, { TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: pk } }, ConsistentRead: true }),
    );
    return items.map((item) => item[attribute].S!);
  }

  /** Throttling, timeouts and unreachable endpoints become StoreUnavailable (503). */
  private call<T>(operation: () => Promise<T>): Promise<T> {
    return unavailableWhenTransient(operation);
  }
}

export { commitsOf };

/** The game table's keys: sk is a number (a seq, or 0 for a game's other items). */
export const TABLE_KEY_SCHEMA = pkSkKeySchema('N');
