import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_FORMAT, type Snapshot } from '../../../functions/application/snapshots';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { DynamoSnapshots, SNAPSHOT_PART_BYTES } from '../../../functions/store/dynamoSnapshots';

let dynamo: EmbeddedDynamo;
let snapshots: DynamoSnapshots;

beforeAll(async () => {
  dynamo = await startEmbeddedDynamo();
  snapshots = new DynamoSnapshots(dynamo.client, dynamo.tableName);
});
afterAll(async () => {
  await dynamo?.close();
});

/** A snapshot whose state is `bytes` long, with characters of every UTF-8 width (parts cut inside them). */
const snapshotOf = (seq: number, bytes: number): Snapshot => {
  const unit = `a"é€😀|`; // 1 + 1 + 2 + 3 + 4 + 1 bytes
  const text = unit.repeat(Math.ceil(bytes / 12));
  return { format: SNAPSHOT_FORMAT, ruleset: 'dice@1', seq, hash: String(seq).padStart(64, '0'), state: text };
};

describe('snapshots in DynamoDB (dynalite)', () => {
  it('read back exactly, small or cut into parts well under the item limit', async () => {
    for (const [gameId, bytes] of [['g-small', 1000], ['g-large', 2.5 * SNAPSHOT_PART_BYTES]] as const) {
      const written = snapshotOf(100, bytes);
      await snapshots.write(gameId, written);
      expect(await snapshots.read(gameId)).toEqual(written);
    }
    expect(await snapshots.read('g-none')).toBeUndefined();
  });

  it('a newer, smaller snapshot replaces a larger one; parts of two snapshots are never joined', async () => {
    await snapshots.write('g-shrinks', snapshotOf(100, 2.5 * SNAPSHOT_PART_BYTES));
    const newer = snapshotOf(200, 100);
    await snapshots.write('g-shrinks', newer);
    expect(await snapshots.read('g-shrinks')).toEqual(newer);
    // Two processes writing at once: the first part of one snapshot, a later part of another.
    await snapshots.write('g-mixed', snapshotOf(300, 2.5 * SNAPSHOT_PART_BYTES));
    await snapshots.write('g-other', snapshotOf(400, 2.5 * SNAPSHOT_PART_BYTES));
    const part1 = await dynamo.client.send(new GetItemCommand({ TableName: dynamo.tableName, Key: { pk: { S: 'g-other#snapshot' }, sk: { N: '1' } } }));
    await dynamo.client.send(new PutItemCommand({ TableName: dynamo.tableName, Item: { ...part1.Item!, pk: { S: 'g-mixed#snapshot' } } }));
    expect(await snapshots.read('g-mixed')).toBeUndefined();
  });
});
