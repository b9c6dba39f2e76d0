import { ConditionalCheckFailedException, GetItemCommand, PutItemCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DieSizeAggregate } from '../../domain/stats/publicStats';
import { StoreUnavailable } from '../ports/eventStore';
import type { PublicStatsStore } from '../ports/publicStatsStore';
import { checkItemSize } from './itemSize';
import { queryItems } from './queryItems';
import { unavailableWhenTransient } from './transientErrors';

/** The items of every die size under one key (a Query reads them all, never a scan). */
export const PUBLIC_STATS_KEY = 'public-stats#dice';
/**
 * Each die size's counts are kept in SHARDS items (sk = sides × 100 + shard), a game going to
 * the shard its id hashes to: the ids an item lists stay some 32 times fewer, and sealings
 * of different games seldom race for the same item. GET /stats adds the shards up.
 */
const SHARDS = 32;
const skOf = (sides: number, gameId: string) => sides * 100 + (fnv1a(gameId) % SHARDS);
const sidesOf = (sk: number) => Math.floor(sk / 100);
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}
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
 * and a game whose id is already listed is not added again. The ids make the items grow:
 * about 20 bytes a game, so some 18,000 games per shard, over half a million per die size,
 * fit in DynamoDB's 400 KB an item.
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
      const sk = skOf(sides, gameId);
      const stored = await this.read(sk);
      if (stored?.gameIds.includes(gameId)) return;
      const next: StoredAggregate = {
        counts: (stored?.counts ?? new Array<number>(sides).fill(0)).map((n, i) => n + counts[i]),
        gameIds: [...(stored?.gameIds ?? []), gameId],
        version: (stored?.version ?? 0) + 1,
      };
      const item: Record<string, AttributeValue> = {
        pk: { S: PUBLIC_STATS_KEY },
        sk: { N: String(sk) },
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

  private async read(sk: number): Promise<StoredAggregate | undefined> {
    const result = await unavailableWhenTransient(() =>
      this.client.send(new GetItemCommand({ TableName: this.tableName, Key: { pk: { S: PUBLIC_STATS_KEY }, sk: { N: String(sk) } }, ConsistentRead: true })),
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
    const bySides = new Map<number, DieSizeAggregate>();
    for (const item of items) {
      const { counts, gameIds } = storedOf(item);
      const sides = sidesOf(Number(item.sk.N));
      const total = bySides.get(sides) ?? { sides, counts: new Array<number>(sides).fill(0), games: 0 };
      counts.forEach((n, i) => (total.counts[i] += n));
      total.games += gameIds.length;
      bySides.set(sides, total);
    }
    return [...bySides.values()];
  }
}

const storedOf = (item: Record<string, AttributeValue>): StoredAggregate => ({
  counts: JSON.parse(item.counts.S!) as number[],
  gameIds: JSON.parse(item.gameIds.S!) as string[],
  version: Number(item.version.N),
});
