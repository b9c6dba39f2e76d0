import { ConditionalCheckFailedException, UpdateItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { CreationCounter } from '../application/creationQuota';
import { StoreUnavailable } from '../ports/eventStore';
import { isTransientAwsError } from './transientErrors';

/** A client's creations in one hour: `quota#<client key>#<window end>`, sk 0, a count `n`; `expiresAt` (TTL) at the window's end. */
export const QUOTA_KEY_PREFIX = 'quota#';

export class DynamoCreationCounter implements CreationCounter {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  async count(client: string, windowEnd: number, limit: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: { pk: { S: `${QUOTA_KEY_PREFIX}${client}#${windowEnd}` }, sk: { N: '0' } },
          UpdateExpression: 'ADD n :one SET expiresAt = :end',
          ConditionExpression: 'attribute_not_exists(n) OR n < :limit',
          ExpressionAttributeValues: { ':one': { N: '1' }, ':end': { N: String(windowEnd) }, ':limit': { N: String(limit) } },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      if (isTransientAwsError(error)) throw new StoreUnavailable(error);
      throw error;
    }
  }
}
