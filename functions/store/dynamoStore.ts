import { randomInt } from 'node:crypto';
import {
  ConditionalCheckFailedException,
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
} from './eventStore';
import { isTransientAwsError } from './transientErrors';

/** Secrets live under their own partition key, which no query of commits reaches. */
export const secretsKey = (gameId: string) => `${gameId}#secrets`;
/**
 * The server seed, apart from everything else: the functions that only read are denied
 * every partition key ending in #seed (an IAM dynamodb:LeadingKeys condition, infra/signing.ts).
 */
export const SEED_KEY_SUFFIX = '#seed';
export const seedKey = (gameId: string) => `${gameId}${SEED_KEY_SUFFIX}`;
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
const commitItem = (commit: Commit, head?: GameHead): Record<string, AttributeValue> => ({
  pk: { S: commit.gameId },
  sk: { N: String(commit.seq) },
  commandId: { S: commit.commandId },
  commit: { S: JSON.stringify(commit) },
  ...(head ? { head: { S: JSON.stringify(head) } } : {}),
});

/**
 * The DynamoDB adapter: pk = game id, sk = seq, the commit as one JSON string
 * attribute (byte-exact), commandId beside it. Append is one conditional put.
 */
export class DynamoEventStore implements EventStore {
  private lastListingSk = 0;

  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
    private readonly options: { transactions?: boolean } = {},
  ) {}

  /**
   * With transactions (DynamoDB on AWS): every item of the new game, and its idempotency
   * record, in one TransactWriteItems. Without (dynalite has none): the idempotency record,
   * the seed, the secrets, then commit 1, each a conditional put; a game is visible only
   * once commit 1 is stored.
   */
  async createGame(first: Commit, secrets: GameSecrets, head?: GameHead, sealedSeed?: string, idempotency?: IdempotencyRecord): Promise<void> {
    const items: Record<string, AttributeValue>[] = [
      ...(idempotency ? [idempotencyItem(idempotency)] : []),
      ...(sealedSeed !== undefined ? [{ pk: { S: seedKey(first.gameId) }, sk: { N: '0' }, seed: { S: sealedSeed } }] : []),
      { pk: { S: secretsKey(first.gameId) }, sk: { N: '0' }, secrets: { S: JSON.stringify(secrets) } },
      commitItem(first, head),
    ];
    await this.call(async () => {
      if (this.options.transactions) {
        try {
          await this.client.send(
            new TransactWriteItemsCommand({
              TransactItems: items.map((Item) => ({ Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' } })),
            }),
          );
        } catch (error) {
          if (!(error instanceof TransactionCanceledException)) throw error;
          const failed = error.CancellationReasons?.findIndex((reason) => reason.Code === 'ConditionalCheckFailed') ?? -1;
          if (idempotency && failed === 0) throw new IdempotencyKeyTaken();
          if (failed >= 0) throw new GameIdTaken(first.gameId);
          throw error;
        }
        return;
      }
      for (const [index, Item] of items.entries()) {
        try {
          await this.client.send(new PutItemCommand({ TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' }));
        } catch (error) {
          if (!(error instanceof ConditionalCheckFailedException)) throw error;
          if (idempotency && index === 0) throw new IdempotencyKeyTaken();
          throw new GameIdTaken(first.gameId);
        }
      }
    });
  }

  async readIdempotency(keyHash: string): Promise<IdempotencyRecord | undefined> {
    return this.call(async () => {
      const result = await this.client.send(
        new GetItemCommand({ TableName: this.tableName, Key: { pk: { S: idempotencyKey(keyHash) }, sk: { N: '0' } }, ConsistentRead: true }),
      );
      const text = result.Item?.record?.S;
      if (!text) return undefined;
      const record = JSON.parse(text) as IdempotencyRecord;
      // DynamoDB deletes expired items some time after they expire: an expired record counts as gone.
      return record.expiresAt * 1000 > Date.now() ? record : undefined;
    });
  }

  async append(commit: Commit, head?: GameHead): Promise<AppendResult> {
    return this.call(async () => {
      try {
        await this.client.send(
          new PutItemCommand({
            TableName: this.tableName,
            Item: commitItem(commit, head),
            ConditionExpression: 'attribute_not_exists(sk)',
          }),
        );
        return { ok: true } as const;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        const existing = await this.client.send(
          new GetItemCommand({
            TableName: this.tableName,
            Key: { pk: { S: commit.gameId }, sk: { N: String(commit.seq) } },
            ConsistentRead: true,
          }),
        );
        const text = existing.Item?.commit?.S;
        if (!text) throw new Error(`seq ${commit.seq} of ${commit.gameId} is taken but unreadable`);
        return { ok: false, existing: JSON.parse(text) as Commit } as const;
      }
    });
  }

  async readSeed(gameId: string): Promise<string | undefined> {
    return this.call(async () => {
      const result = await this.client.send(
        new GetItemCommand({ TableName: this.tableName, Key: { pk: { S: seedKey(gameId) }, sk: { N: '0' } }, ConsistentRead: true }),
      );
      return result.Item?.seed?.S;
    });
  }

  async writeSeed(gameId: string, sealedSeed: string): Promise<void> {
    await this.call(() =>
      this.client.send(new PutItemCommand({ TableName: this.tableName, Item: { pk: { S: seedKey(gameId) }, sk: { N: '0' }, seed: { S: sealedSeed } } })),
    );
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
      const text = result.Item?.head?.S;
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
            ProjectionExpression: '#commit',
            ExpressionAttributeNames: { '#commit': 'commit' },
            ConsistentRead: true,
            ...(limit !== undefined ? { Limit: limit - commits.length } : {}),
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of page.Items ?? []) commits.push(JSON.parse(item.commit.S!) as Commit);
        startKey = page.LastEvaluatedKey;
      } while (startKey && (limit === undefined || commits.length < limit));
      return commits;
    });
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
            FilterExpression: 'commandId = :commandId',
            ExpressionAttributeValues: { ':pk': { S: gameId }, ':commandId': { S: commandId } },
            ProjectionExpression: 'sk',
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
          }),
        );
        const found = page.Items?.[0]?.sk?.N;
        if (found !== undefined) return Number(found);
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
    return this.call(async () => {
      const values: string[] = [];
      let startKey: QueryCommandOutput['LastEvaluatedKey'];
      do {
        const page: QueryCommandOutput = await this.client.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': { S: pk } },
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of page.Items ?? []) values.push(item[attribute].S!);
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return values;
    });
  }

  /** Throttling, timeouts and unreachable endpoints become StoreUnavailable (503). */
  private async call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof GameIdTaken || error instanceof TournamentIdTaken || error instanceof IdempotencyKeyTaken) throw error;
      if (isTransientAwsError(error)) throw new StoreUnavailable(error);
      throw error;
    }
  }
}

export const TABLE_KEY_SCHEMA = {
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' as const },
    { AttributeName: 'sk', KeyType: 'RANGE' as const },
  ],
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' as const },
    { AttributeName: 'sk', AttributeType: 'N' as const },
  ],
};
