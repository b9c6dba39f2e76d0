import { DynamoDBClient, GetItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { build } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoGameLeases } from '../../functions/store/dynamoGameLeases';
import { DynamoEventStore } from '../../functions/store/dynamoStore';
import { BUNDLE, esbuildOptions } from '../../infra/bundling';
import { EXPIRY_ENTRIES } from '../../infra/gameExpiry';
import { sampleCommit } from '../support/commits';
import { startLoopbackDynamo } from '../support/loopbackDynamo';
import { invokeBundle } from '../support/runCli';

const DAY = 24 * 60 * 60 * 1000;
const secrets = { tokenHashes: { organizer: '00'.repeat(32), players: { player1: '11'.repeat(32) } } };

/** A stream record as DynamoDB Streams gives it (KEYS_ONLY), removed by TTL (`Service`) or by someone. */
const removal = (pk: string, by: 'Service' | 'User', sequence: string) => ({
  eventID: sequence,
  eventName: 'REMOVE',
  eventSource: 'aws:dynamodb',
  dynamodb: { Keys: { pk: { S: pk }, sk: { N: '0' } }, SequenceNumber: sequence, StreamViewType: 'KEYS_ONLY' },
  ...(by === 'Service' ? { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } : {}),
});

describe('the sweep bundle, run as Lambda runs it on the stream of the game table', () => {
  let bundle: string;
  let dynamo: Awaited<ReturnType<typeof startLoopbackDynamo>>;
  let client: DynamoDBClient;

  beforeAll(async () => {
    bundle = join(mkdtempSync(join(tmpdir(), 'arbiter-sweep-bundle-')), 'sweepAbandoned', BUNDLE.outFile);
    await build(esbuildOptions(EXPIRY_ENTRIES.sweepAbandoned, bundle));
    dynamo = await startLoopbackDynamo('sweep-bundle-games');
    client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  });
  afterAll(async () => {
    client?.destroy();
    await dynamo?.close();
  });

  /** A game whose commits were recorded at `at`. */
  const storeGame = async (gameId: string, at: string) => {
    const store = new DynamoEventStore(client, dynamo.tableName);
    await store.createGame({ ...sampleCommit(gameId, 1, 'create'), recordedAt: at }, secrets, undefined, 'sealed-seed');
    await store.append({ ...sampleCommit(gameId, 2), recordedAt: at });
  };
  /** Runs the bundle on these stream events, as Lambda would, against the loopback table (or another name). */
  const runSweep = async (events: unknown[], tableName = dynamo.tableName) => {
    return invokeBundle(bundle, events, {
      TABLE_NAME: tableName,
      ABANDONED_GAME_DAYS: '30',
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    });
  };
  const itemsOf = async (gameId: string) => {
    const page = await client.send(new ScanCommand({ TableName: dynamo.tableName }));
    return (page.Items ?? []).filter((item) => item.pk.S!.includes(gameId)).length;
  };

  it('deletes a game TTL found abandoned, arms again a game with a newer command, and ignores every other record', async () => {
    await storeGame('g-old', new Date(Date.now() - 40 * DAY).toISOString());
    await storeGame('g-recent', new Date(Date.now() - 2 * DAY).toISOString());
    await storeGame('g-other', new Date(Date.now() - 40 * DAY).toISOString());
    const events = [
      {
        Records: [
          removal('lease#g-old', 'Service', '100'),
          removal('lease#g-recent', 'Service', '101'),
          // Deleted by someone, not by TTL (a sealed game's lease dropped): not a sweep.
          removal('lease#g-other', 'User', '102'),
          // A commit's own removal, or anything but a lease: not a sweep.
          removal('g-other', 'Service', '103'),
          { ...removal('g-other', 'Service', '104'), eventName: 'INSERT' },
        ],
      },
    ];
    const { results, logs } = await runSweep(events);
    expect(results).toEqual([{ batchItemFailures: [] }]);
    expect(await itemsOf('g-old')).toBe(0);
    expect(await itemsOf('g-other')).toBe(4);
    // The recent game: kept, with a lease again.
    expect(await new DynamoGameLeases(client, dynamo.tableName).lastCommit('g-recent')).toMatchObject({ sealed: false });
    const lease = await client.send(new GetItemCommand({ TableName: dynamo.tableName, Key: { pk: { S: 'lease#g-recent' }, sk: { N: '0' } } }));
    expect(Number(lease.Item?.expiresAt?.N) * 1000).toBeGreaterThan(Date.now() + 27 * DAY);
    expect(logs).toContain('"outcome":"deleted"');
    expect(logs).toContain('"outcome":"re-armed"');
  });

  it('reports a record whose sweep fails, so that the stream gives it again', async () => {
    const events = [{ Records: [removal('lease#g-unreachable', 'Service', '200')] }];
    const { results, logs } = await runSweep(events, 'no-such-table');
    expect(results).toEqual([{ batchItemFailures: [{ itemIdentifier: '200' }] }]);
    expect(logs).toContain('sweep failed');
  });
});
