import { DeleteItemCommand, DynamoDBClient, PutItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TABLE_KEY_SCHEMA } from '../../functions/store/dynamoStore';

/**
 * dynalite, the loopback DynamoDB of the bundle tests, has no TransactWriteItems, which the
 * deployed commands function creates games with. This loopback proxy in front of it answers
 * TransactWriteItems of Puts as DynamoDB does for one writer at a time: each conditional put
 * in order, the earlier ones deleted again when one fails, and a TransactionCanceledException
 * with a reason per item. Any other call goes to dynalite unchanged.
 */
export async function startTransactingProxy(target: { endpoint: string; tableName: string }) {
  const client = new DynamoDBClient({ endpoint: target.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const keyNames = TABLE_KEY_SCHEMA.KeySchema.map((k) => k.AttributeName!);
  const upstream = new URL(target.endpoint);

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const answer = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify(value));
      };
      if (req.headers['x-amz-target'] !== 'DynamoDB_20120810.TransactWriteItems') {
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
    });
  });

  type Put = { TableName: string; Item: Record<string, AttributeValue>; ConditionExpression?: string; ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, AttributeValue> };
  /** The cancellation reasons, or undefined when every put landed. */
  async function transact(items: { Put?: Put }[]): Promise<{ Code: string; Message?: string }[] | undefined> {
    if (items.some((item) => !item.Put)) throw new Error('this stand-in answers transactions of Put items only');
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
    close: async () => {
      client.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
