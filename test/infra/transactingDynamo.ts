import { DeleteItemCommand, DynamoDBClient, PutItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TABLE_KEY_SCHEMA } from '../../functions/store/dynamoStore';

/**
 * dynalite, the loopback DynamoDB of the bundle tests, has no TransactWriteItems, which the
 * deployed commands function creates games with. This loopback proxy in front of it answers
 * TransactWriteItems of Puts as DynamoDB does for one writer at a time: each conditional put
 * in order, the earlier ones deleted again when one fails, and a TransactionCanceledException
 * with a reason per item. Any other call goes to dynalite unchanged.
 *
 * As on DynamoDB, a transaction in flight holds its items: another transaction touching one
 * of them is cancelled with the reason `TransactionConflict`, and a PutItem, UpdateItem or
 * DeleteItem of one fails with TransactionConflictException; reads see the items as they were
 * before the transaction (its puts land together when it ends). With `overlap`, a transaction
 * is held until another one touches one of its items (or `overlap.waitMs` passes), and lands
 * `overlap.holdMs` after that one was cancelled (or, with `bothCancelled`, is cancelled too, as
 * DynamoDB may cancel both of two conflicting transactions): two concurrent creations always conflict.
 */
export async function startTransactingProxy(
  target: { endpoint: string; tableName: string },
  options: {
    overlap?: { waitMs: number; holdMs: number; bothCancelled?: boolean };
    /**
     * Holds every GetItem of a key starting with `keyPrefix` until `parties` different calls
     * (the SDK's invocation ids: its retries of one call count once) have asked: processes that
     * started apart go on from there together.
     */
    barrier?: { keyPrefix: string; parties: number };
  } = {},
) {
  const client = new DynamoDBClient({ endpoint: target.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const keyNames = TABLE_KEY_SCHEMA.KeySchema.map((k) => k.AttributeName!);
  const upstream = new URL(target.endpoint);

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const operation = String(req.headers['x-amz-target'] ?? '');
      if (operation === 'DynamoDB_20120810.GetItem' && options.barrier && !barrierOpen) {
        const input = JSON.parse(body.toString('utf8')) as { Key?: { pk?: { S?: string } } };
        if (input.Key?.pk?.S?.startsWith(options.barrier.keyPrefix)) {
          arrived.add(String(req.headers['amz-sdk-invocation-id'] ?? arrived.size));
          void opened.then(() => answerCall(operation, body, req, res));
          if (arrived.size >= options.barrier.parties) {
            barrierOpen = true;
            open();
          }
          return;
        }
      }
      answerCall(operation, body, req, res);
    });
  });

  let barrierOpen = false;
  const arrived = new Set<string>();
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));

  function answerCall(operation: string, body: Buffer, req: IncomingMessage, res: ServerResponse): void {
    const answer = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(value));
    };
    if (WRITES.has(operation)) {
      const input = JSON.parse(body.toString('utf8')) as { Key?: Record<string, AttributeValue>; Item?: Record<string, AttributeValue> };
      const key = keyOf(input.Key ?? input.Item ?? {});
      if (held.has(key)) {
        conflicts.push(`${operation.split('.')[1]} ${key}`);
        answer(400, { __type: 'com.amazonaws.dynamodb.v20120810#TransactionConflictException', message: 'Transaction is ongoing for the item' });
        return;
      }
    }
    if (operation !== 'DynamoDB_20120810.TransactWriteItems') {
      const forwarded = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 500, up.headers);
        up.pipe(res);
      });
      forwarded.on('error', (error) => answer(500, { __type: 'InternalServerError', message: error.message }));
      forwarded.end(body);
      return;
    }
    transact(JSON.parse(body.toString('utf8')).TransactItems ?? []).then(
      (reasons) =>
        reasons
          ? answer(400, {
              __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
              message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
              CancellationReasons: reasons,
            })
          : answer(200, {}),
      (error: Error) => answer(400, { __type: 'com.amazonaws.dynamodb.v20120810#ValidationException', message: error.message }),
    );
  }

  type Put = { TableName: string; Item: Record<string, AttributeValue>; ConditionExpression?: string; ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, AttributeValue> };
  const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem'].map((op) => `DynamoDB_20120810.${op}`));
  const keyOf = (item: Record<string, AttributeValue>) => JSON.stringify(keyNames.map((k) => item[k] ?? null));
  /** The items of the transactions in flight, and what to call when another transaction touches one. */
  const held = new Map<string, () => void>();
  /** Every conflict answered, as `<operation> <key>`. */
  const conflicts: string[] = [];
  const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  /** The cancellation reasons, or undefined when every put landed. */
  async function transact(items: { Put?: Put }[]): Promise<{ Code: string; Message?: string }[] | undefined> {
    if (items.some((item) => !item.Put)) throw new Error('this stand-in answers transactions of Put items only');
    const keys = items.map((item) => keyOf(item.Put!.Item));
    const clash = keys.findIndex((key) => held.has(key));
    if (clash >= 0) {
      conflicts.push(`TransactWriteItems ${keys[clash]}`);
      held.get(keys[clash])!();
      return keys.map((key) => (held.has(key) ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' }));
    }
    let touched = () => {};
    const another = new Promise<void>((resolve) => (touched = resolve));
    for (const key of keys) held.set(key, touched);
    try {
      if (options.overlap) {
        const { waitMs, holdMs } = options.overlap;
        if (await Promise.race([another.then(() => true), pause(waitMs).then(() => false)])) {
          await pause(holdMs);
          if (options.overlap.bothCancelled) return keys.map((_, i) => (i === 0 ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' }));
        }
      }
      return await applyInOrder(items);
    } finally {
      for (const key of keys) held.delete(key);
    }
  }

  async function applyInOrder(items: { Put?: Put }[]): Promise<{ Code: string; Message?: string }[] | undefined> {
    const done: Put[] = [];
    for (const [index, item] of items.entries()) {
      const put = item.Put!;
      try {
        await client.send(new PutItemCommand(put));
        done.push(put);
      } catch (error) {
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
        for (const landed of done) {
          await client.send(new DeleteItemCommand({ TableName: landed.TableName, Key: Object.fromEntries(keyNames.map((k) => [k, landed.Item[k]])) }));
        }
        return items.map((_, i) => (i === index ? { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' } : { Code: 'None' }));
      }
    }
    return undefined;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    conflicts,
    close: async () => {
      client.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
