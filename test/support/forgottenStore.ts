// Run by storeThread.test.ts in a process of its own: starts the embedded store on its thread,
// writes, and never closes it. The process must end by itself.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { startEmbeddedDynamo } from '../../functions/local/embeddedDynamo';

const dynamo = await startEmbeddedDynamo({ thread: true });
await dynamo.client.send(new PutItemCommand({ TableName: dynamo.tableName, Item: { pk: { S: 'a' }, sk: { N: '1' } } }));
console.log('written');
