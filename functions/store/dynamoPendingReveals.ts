import { ConditionalCheckFailedException, DeleteItemCommand, PutItemCommand, ScanCommand, type DynamoDBClient, type ScanCommandOutput } from '@aws-sdk/client-dynamodb';
import type { PendingReveal, PendingReveals } from '../ports/pendingReveals';
import { unavailableWhenTransient } from './transientErrors';

/**
 * A pending commit waiting for its reveal: `reveal#<game id>`, sk its seq, with `round` and
 * `dueAtMs`, in the game table (as leases are). Written with a conditional put, so an entry
 * written again is left as it was; found by a scan for the prefix (few items at any time:
 * each lives for a few seconds).
 */
export const PENDING_REVEAL_KEY_PREFIX = 'reveal#';
const revealKey = (gameId: string, seq: number) => ({ pk: { S: `${PENDING_REVEAL_KEY_PREFIX}${gameId}` }, sk: { N: String(seq) } });

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
            Item: { ...revealKey(gameId, seq), round: { N: String(round) }, dueAtMs: { N: String(dueAtMs) } },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    });
  }

  async due(nowMs: number, limit: number): Promise<PendingReveal[]> {
    return unavailableWhenTransient(async () => {
      const found: PendingReveal[] = [];
      let startKey: ScanCommandOutput['LastEvaluatedKey'];
      do {
        const page: ScanCommandOutput = await this.client.send(
          new ScanCommand({
            TableName: this.tableName,
            FilterExpression: 'begins_with(pk, :reveal) AND dueAtMs <= :now',
            ExpressionAttributeValues: { ':reveal': { S: PENDING_REVEAL_KEY_PREFIX }, ':now': { N: String(nowMs) } },
            ExclusiveStartKey: startKey,
          }),
        );
        for (const item of page.Items ?? []) {
          found.push({ gameId: item.pk.S!.slice(PENDING_REVEAL_KEY_PREFIX.length), seq: Number(item.sk.N), round: Number(item.round.N), dueAtMs: Number(item.dueAtMs.N) });
        }
        startKey = page.LastEvaluatedKey;
      } while (startKey && found.length < limit);
      return found.sort((a, b) => a.dueAtMs - b.dueAtMs).slice(0, limit);
    });
  }

  async remove(gameId: string, seq: number): Promise<void> {
    await unavailableWhenTransient(() => this.client.send(new DeleteItemCommand({ TableName: this.tableName, Key: revealKey(gameId, seq) })));
  }
}
