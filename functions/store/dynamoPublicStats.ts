import { ConditionalCheckFailedException, GetItemCommand, PutItemCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DieSizeAggregate } from '../../domain/stats/publicStats';
import { StoreUnavailable } from '../ports/eventStore';
import type { PublicStatsStore } from '../ports/publicStatsStore';
import { checkItemSize } from './itemSize';
import { queryItems } from './queryItems';
import { unavailableWhenTransient } from './transientErrors';

/** One item per die size under one key (a Query reads them all, never a scan): sk = the number of sides. */
export const PUBLIC_STATS_KEY = 'public-stats#dice';
/** Conditional puts lost to other sealings at the same moment, before the sealing answers 503 (and its retry adds the game then). */
const MAX_ATTEMPTS = 25;

interface StoredAggregate {
  counts: number[];
  gameIds: string[];
  version: number;
}

/**
 * The public statistics in DynamoDB, without transactions (dynalite has none): each die
 * size's item holds its counts, the ids of the games in them and a version; a game is added
 * with a put conditioned on the version read, so two sealings never overwrite each other,
 * and a game whose id is already listed is not added again. The ids make the item grow:
 * about 20 bytes a game, so some 18,000 games per die size fit in DynamoDB's 400 KB.
 */
export class DynamoPublicStats implements PublicStatsStore {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  async addGame(gameId: string, countsBySides: ReadonlyMap<number, readonly number[]>): Promise<void> {
    for (const [sides, counts] of countsBySides) await this.addToDieSize(gameId, sides, counts);
  }

  private async addToDieSize(gameId: string, sides: number, counts: readonly number[]): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const stored = await this.read(sides);
      if (stored?.gameIds.includes(gameId)) return;
      const next: StoredAggregate = {
        counts: (stored?.counts ?? new Array<number>(sides).fill(0)).map((n, i) => n + counts[i]),
        gameIds: [...(stored?.gameIds ?? []), gameId],
        version: (stored?.version ?? 0) + 1,
      };
      const item: Record<string, AttributeValue> = {
        pk: { S: PUBLIC_STATS_KEY },
        sk: { N: String(sides) },
        counts: { S: JSON.stringify(next.counts) },
        gameIds: { S: JSON.stringify(next.gameIds) },
        version: { N: String(next.version) },
      };
      checkItemSize(item);
      try {
        await unavailableWhenTransient(() =>
          this.client.send(
            new PutItemCommand({
              TableName: this.tableName,
              Item: item,
              ...(stored
                ? { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': { N: String(stored.version) } } }
                : { ConditionExpression: 'attribute_not_exists(pk)' }),
            }),
          ),
        );
        return;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
    throw new StoreUnavailable();
  }

  private async read(sides: number): Promise<StoredAggregate | undefined> {
    const result = await unavailableWhenTransient(() =>
      this.client.send(new GetItemCommand({ TableName: this.tableName, Key: { pk: { S: PUBLIC_STATS_KEY }, sk: { N: String(sides) } }, ConsistentRead: true })),
    );
    return result.Item ? storedOf(result.Item) : undefined;
  }

  async readAll(): Promise<DieSizeAggregate[]> {
    const items = await unavailableWhenTransient(() => queryItems(this.client, {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: PUBLIC_STATS_KEY } },
        ConsistentRead: true,
      }),
    );
    return items.map((item) => {
      const { counts, gameIds } = storedOf(item);
      return { sides: Number(item.sk.N), counts, games: gameIds.length };
    });
  }
}

const storedOf = (item: Record<string, AttributeValue>): StoredAggregate => ({
  counts: JSON.parse(item.counts.S!) as number[],
  gameIds: JSON.parse(item.gameIds.S!) as string[],
  version: Number(item.version.N),
});
