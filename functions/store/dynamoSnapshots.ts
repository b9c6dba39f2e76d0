import { PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Snapshot, SnapshotStore } from '../application/snapshots';
import { queryItems } from './queryItems';
import { unavailableWhenTransient } from './transientErrors';

/** A game's snapshot: `<game id>#snapshot`, one item per part (sk 0, 1, …), apart from its commits. */
export const SNAPSHOT_KEY_SUFFIX = '#snapshot';
/** Bytes of state per item: well under DynamoDB's 400 KB, whatever else the item holds. */
export const SNAPSHOT_PART_BYTES = 300 * 1024;

/**
 * Snapshots in the game table. The state's JSON is cut into parts of SNAPSHOT_PART_BYTES
 * (a game's list of commandIds grows with it); every part names the snapshot's seq and hash,
 * and the first says how many parts there are, so that parts of two snapshots written at
 * once are never joined: such a snapshot reads as missing.
 */
export class DynamoSnapshots implements SnapshotStore {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  async read(gameId: string): Promise<Snapshot | undefined> {
    // Eventually consistent (half the read units): a snapshot is checked against the chain anyway.
    const items = await this.call(() =>
      queryItems(this.client, { TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: `${gameId}${SNAPSHOT_KEY_SUFFIX}` } } }),
    );
    const first = items.find((item) => item.sk?.N === '0');
    if (!first?.meta?.S) return undefined;
    const meta = JSON.parse(first.meta.S) as Omit<Snapshot, 'state'> & { parts: number };
    const parts: Uint8Array[] = [];
    for (let index = 0; index < meta.parts; index++) {
      const part = items.find((item) => item.sk?.N === String(index));
      // A part of another snapshot (two written at once), or one missing: no snapshot.
      if (!part?.bytes?.B || part.seq?.N !== String(meta.seq) || part.hash?.S !== meta.hash) return undefined;
      parts.push(part.bytes.B);
    }
    const { parts: _count, ...rest } = meta;
    return { ...rest, state: Buffer.concat(parts).toString('utf8') };
  }

  /** The later parts first, the first (which names the count) last. */
  async write(gameId: string, snapshot: Snapshot): Promise<void> {
    const bytes = Buffer.from(snapshot.state, 'utf8');
    const count = Math.max(1, Math.ceil(bytes.length / SNAPSHOT_PART_BYTES));
    const { state: _state, ...meta } = snapshot;
    await this.call(async () => {
      for (let index = count - 1; index >= 0; index--) {
        await this.client.send(
          new PutItemCommand({
            TableName: this.tableName,
            Item: {
              pk: { S: `${gameId}${SNAPSHOT_KEY_SUFFIX}` },
              sk: { N: String(index) },
              seq: { N: String(snapshot.seq) },
              hash: { S: snapshot.hash },
              bytes: { B: bytes.subarray(index * SNAPSHOT_PART_BYTES, (index + 1) * SNAPSHOT_PART_BYTES) },
              ...(index === 0 ? { meta: { S: JSON.stringify({ ...meta, parts: count }) } } : {}),
            },
          }),
        );
      }
    });
  }

  private call<T>(operation: () => Promise<T>): Promise<T> {
    return unavailableWhenTransient(operation);
  }
}
