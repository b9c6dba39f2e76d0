import { ConditionalCheckFailedException, GetItemCommand, PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { KmsKeyRing } from '../application/kmsSigner';

/** The deployed key ring's item: public only (key ids, retired public keys, the key log). */
/** The key ring's partition key in the game table (the rotation role may write this item only, infra/signing.ts). */
export const KEY_RING_KEY = 'arbiter#keyring';
const RING_KEY = { pk: { S: KEY_RING_KEY }, sk: { N: '0' } };

/**
 * Where the deployed service keeps which KMS key signs now. Before the first rotation there
 * is no item and the stack's first key signs.
 */
export class KeyRingStore {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  async read(initialKeyId: string): Promise<KmsKeyRing> {
    const found = await this.client.send(new GetItemCommand({ TableName: this.tableName, Key: RING_KEY, ConsistentRead: true }));
    const text = found.Item?.ring?.S;
    return text ? (JSON.parse(text) as KmsKeyRing) : { currentKeyId: initialKeyId, retired: [], log: [] };
  }

  /** Writes the ring after a rotation, unless another rotation wrote first (the log must not fork). */
  async write(ring: KmsKeyRing): Promise<void> {
    const previousLength = ring.log.length - 1;
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: { ...RING_KEY, ring: { S: JSON.stringify(ring) }, statements: { N: String(ring.log.length) } },
          ConditionExpression: previousLength === 0 ? 'attribute_not_exists(pk)' : 'statements = :previous',
          ...(previousLength === 0 ? {} : { ExpressionAttributeValues: { ':previous': { N: String(previousLength) } } }),
        }),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) throw new Error('another rotation changed the key ring meanwhile: read it again and retry');
      throw error;
    }
  }
}
