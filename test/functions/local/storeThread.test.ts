import { ConditionalCheckFailedException, GetItemCommand, PutItemCommand, QueryCommand, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from 'node:worker_threads';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { StoreThread } from '../../../functions/local/storeThreadClient';
import { isTransientAwsError } from '../../../functions/store/transientErrors';

const item = (seq: number, text: string) => ({ pk: { S: 'g-1' }, sk: { N: String(seq) }, commit: { S: text }, bytes: { B: new Uint8Array([seq, 0, 255]) } });

describe('the embedded store on its own thread', () => {
  let dynamo: EmbeddedDynamo;
  beforeAll(async () => {
    dynamo = await startEmbeddedDynamo({ thread: true });
  });
  afterAll(async () => {
    await dynamo?.close();
  });

  it('answers as the store on the caller\'s thread does: puts, reads, queries, binary attributes', async () => {
    for (const seq of [1, 2, 3]) await dynamo.client.send(new PutItemCommand({ TableName: dynamo.tableName, Item: item(seq, `commit ${seq} "quoted" ✓`), ConditionExpression: 'attribute_not_exists(sk)' }));
    const got = await dynamo.client.send(new GetItemCommand({ TableName: dynamo.tableName, Key: { pk: { S: 'g-1' }, sk: { N: '2' } }, ConsistentRead: true }));
    expect(got.Item).toEqual(item(2, 'commit 2 "quoted" ✓'));
    const page = await dynamo.client.send(new QueryCommand({ TableName: dynamo.tableName, KeyConditionExpression: 'pk = :g AND sk > :after', ExpressionAttributeValues: { ':g': { S: 'g-1' }, ':after': { N: '1' } } }));
    expect(page.Items?.map((i) => i.sk.N)).toEqual(['2', '3']);
  });

  it('refuses a taken key with the SDK\'s own exception, which the append protocol tells apart from a failure', async () => {
    await dynamo.client.send(new PutItemCommand({ TableName: dynamo.tableName, Item: item(10, 'first'), ConditionExpression: 'attribute_not_exists(sk)' }));
    const taken = await dynamo.client.send(new PutItemCommand({ TableName: dynamo.tableName, Item: item(10, 'second'), ConditionExpression: 'attribute_not_exists(sk)' })).catch((error: unknown) => error);
    expect(taken).toBeInstanceOf(ConditionalCheckFailedException);
    expect(taken).toMatchObject({ name: 'ConditionalCheckFailedException', $fault: 'client' });
    const missing = await dynamo.client.send(new GetItemCommand({ TableName: 'no-such-table', Key: { pk: { S: 'x' }, sk: { N: '1' } } })).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ResourceNotFoundException);
  });
});

describe('the embedded store\'s thread, opened and closed', () => {
  it('keeps what was written in its directory, and lets the next server open it once closed', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'arbiter-thread-')), 'dynamodb');
    const first = await startEmbeddedDynamo({ path, thread: true });
    await first.client.send(new PutItemCommand({ TableName: first.tableName, Item: item(1, 'kept') }));
    await first.close();
    await first.close();
    const refused = await first.client.send(new GetItemCommand({ TableName: first.tableName, Key: { pk: { S: 'g-1' }, sk: { N: '1' } } })).catch((error: unknown) => error);
    expect(refused).toMatchObject({ message: 'the embedded store is closed', code: 'ECONNREFUSED' });

    const second = await startEmbeddedDynamo({ path, thread: true });
    try {
      const got = await second.client.send(new GetItemCommand({ TableName: second.tableName, Key: { pk: { S: 'g-1' }, sk: { N: '1' } }, ConsistentRead: true }));
      expect(got.Item?.commit).toEqual({ S: 'kept' });
    } finally {
      await second.close();
    }
  });

  it('does not keep a process alive once nothing waits on it', async () => {
    const script = join(import.meta.dirname, '../../support/forgottenStore.ts');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { timeout: 30_000 });
    expect(stdout.trim()).toBe('written');
  });
});

describe('the embedded store\'s thread, lost while the server runs', () => {
  it('is reported once, and every call from then on fails as a store out of reach (503), not as a fault', async () => {
    const lost: Error[] = [];
    const thread = await StoreThread.start(undefined, (error) => lost.push(error));
    // An error in the store ends its thread; here the thread is ended from outside.
    await (thread as unknown as { worker: Worker }).worker.terminate();
    const refused = await thread.client.send(new GetItemCommand({ TableName: 'arbiter-commits', Key: { pk: { S: 'g-1' }, sk: { N: '1' } } })).catch((error: unknown) => error);
    expect(lost.map((e) => e.message)).toEqual(['the embedded store stopped (exit code 1)']);
    expect(refused).toMatchObject({ name: 'StoreClosed', message: 'the embedded store stopped (exit code 1)' });
    expect(isTransientAwsError(refused)).toBe(true);
    await thread.close();
    expect(lost).toHaveLength(1);
  });

  it('is not reported when the server closes it', async () => {
    const lost: Error[] = [];
    const thread = await StoreThread.start(undefined, (error) => lost.push(error));
    await thread.close();
    expect(lost).toEqual([]);
  });
});
