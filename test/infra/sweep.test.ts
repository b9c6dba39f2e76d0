import { DynamoDBClient, GetItemCommand, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoGameLeases, SWEEP_RETRY_SECONDS } from '../../functions/store/dynamoGameLeases';
import { DynamoEventStore } from '../../functions/store/dynamoStore';
import { BUNDLE, esbuildOptions } from '../../infra/bundling';
import { EXPIRY_ENTRIES, SWEEP_TIMEOUT } from '../../infra/gameExpiry';
import { SWEEP_CONCURRENCY } from '../../functions/lambda/sweepAbandoned';
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
  const runSweep = async (events: unknown[], tableName = dynamo.tableName, endpoint = dynamo.endpoint) => {
    return invokeBundle(bundle, events, {
      TABLE_NAME: tableName,
      ABANDONED_GAME_DAYS: '30',
      // The function's timeout (infra/gameExpiry.ts), as Lambda counts it down.
      LAMBDA_TIMEOUT_MS: String(SWEEP_TIMEOUT.toMilliseconds()),
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: endpoint,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    });
  };
  const itemsOf = async (gameId: string) => {
    const page = await client.send(new ScanCommand({ TableName: dynamo.tableName }));
    return (page.Items ?? []).filter((item) => item.pk.S!.includes(gameId)).length;
  };
  const leaseEndOf = async (gameId: string) => {
    const lease = await client.send(new GetItemCommand({ TableName: dynamo.tableName, Key: { pk: { S: `lease#${gameId}` }, sk: { N: '0' } }, ConsistentRead: true }));
    return lease.Item ? Number(lease.Item.expiresAt.N) : undefined;
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

  it(`sweeps a batch of 100 ended leases ${SWEEP_CONCURRENCY} at a time; a game whose sweep fails gets its lease back for an hour later and blocks none of the others`, async () => {
    const old = new Date(Date.now() - 40 * DAY).toISOString();
    const store = new DynamoEventStore(client, dynamo.tableName);
    const ids = Array.from({ length: 100 }, (_, i) => `g-batch-${i}`);
    for (const gameId of ids) {
      await storeGame(gameId, old);
      for (let seq = 3; seq <= 10; seq++) await store.append({ ...sampleCommit(gameId, seq), recordedAt: old });
    }
    // One game whose last commit cannot be read: its head is no JSON.
    await client.send(new PutItemCommand({ TableName: dynamo.tableName, Item: { pk: { S: 'g-batch-poisoned' }, sk: { N: '1' }, commit: { S: JSON.stringify({ ...sampleCommit('g-batch-poisoned', 1, 'create'), recordedAt: old }) }, head: { S: '{not json' } } }));
    const records = [...ids.slice(0, 50), 'g-batch-poisoned', ...ids.slice(50)].map((gameId, i) => removal(`lease#${gameId}`, 'Service', String(1000 + i)));
    const started = performance.now();
    const { results, logs } = await runSweep([{ Records: records }]);
    const seconds = (performance.now() - started) / 1000;
    expect(results).toEqual([{ batchItemFailures: [] }]);
    for (const gameId of ids) expect(await itemsOf(gameId), gameId).toBe(0);
    expect(logs).toContain('sweep failed; the game comes again');
    const retryAt = await leaseEndOf('g-batch-poisoned');
    expect(retryAt).toBeGreaterThan(Date.now() / 1000 + SWEEP_RETRY_SECONDS - 120);
    expect(retryAt).toBeLessThanOrEqual(Date.now() / 1000 + SWEEP_RETRY_SECONDS);
    // The figure for docs/deploy.md (dynalite, a loopback stand-in much slower than DynamoDB): 100 games of 10 commits, one process.
    console.log(`sweep: 100 games of 10 commits in ${seconds.toFixed(1)} s on dynalite, process start included: ${Math.round((100 / seconds) * 60)} games a minute`);
  });

  it('reports the records it had no time left to start, so that the stream gives them again', async () => {
    const old = new Date(Date.now() - 40 * DAY).toISOString();
    await storeGame('g-late', old);
    // 10 s left: less than the sweep keeps in reserve before its timeout.
    const { results } = await invokeBundle(bundle, [{ Records: [removal('lease#g-late', 'Service', '400')] }], {
      TABLE_NAME: dynamo.tableName,
      ABANDONED_GAME_DAYS: '30',
      LAMBDA_TIMEOUT_MS: '10000',
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    });
    expect(results).toEqual([{ batchItemFailures: [{ itemIdentifier: '400' }] }]);
    expect(await itemsOf('g-late')).toBe(4);
  });

  it('finishes a sweep cut short half-way when the game comes again: the lease it set before deleting anything brings it back, and nothing is left', async () => {
    const old = new Date(Date.now() - 40 * DAY).toISOString();
    const store = new DynamoEventStore(client, dynamo.tableName);
    await storeGame('g-cut', old);
    for (let seq = 3; seq <= 60; seq++) await store.append({ ...sampleCommit('g-cut', seq), recordedAt: old });
    const before = await itemsOf('g-cut');
    // From the second deletion on (the first took the seed; the sweep deletes item by item, DeleteItem, since its role may
    // not BatchWriteItem: dynamoGameLeases.ts), DynamoDB refuses every call: the run stops there, and cannot even give
    // the game its lease back. Lambda would retry the record until it goes to the dead letters.
    const refusing = await startRefusingProxy(dynamo.endpoint, 'DeleteItem', 2);
    try {
      const cut = await runSweep([{ Records: [removal('lease#g-cut', 'Service', '300')] }], dynamo.tableName, refusing.endpoint);
      expect(cut.results).toEqual([{ batchItemFailures: [{ itemIdentifier: '300' }] }]);
      expect(cut.logs).toContain('sweep failed');
    } finally {
      await refusing.close();
    }
    const left = await itemsOf('g-cut');
    expect(left).toBeGreaterThan(1);
    expect(left).toBeLessThan(before + 1);
    // The lease the sweep set before deleting anything: the game is not lost with the record.
    expect(await leaseEndOf('g-cut')).toBeGreaterThan(Date.now() / 1000 + SWEEP_RETRY_SECONDS - 120);
    // An hour later TTL removes that lease, and the stream gives the game again.
    const again = await runSweep([{ Records: [removal('lease#g-cut', 'Service', '301')] }]);
    expect(again.results).toEqual([{ batchItemFailures: [] }]);
    expect(await itemsOf('g-cut')).toBe(0);
    expect(again.logs).toMatch(/"outcome":"(deleted|gone)"/);
  });
});

/** A loopback proxy in front of dynalite that answers the `nth` call of `operation`, and every call after it, with a ValidationException (not retried). */
async function startRefusingProxy(endpoint: string, operation: string, nth: number) {
  const upstream = new URL(endpoint);
  let seen = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.headers['x-amz-target'] === `DynamoDB_20120810.${operation}`) seen += 1;
      if (seen >= nth) {
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify({ __type: 'com.amazon.coral.validate#ValidationException', message: 'refused by the test' }));
        return;
      }
      const forwarded = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 500, up.headers);
        up.pipe(res);
      });
      forwarded.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
