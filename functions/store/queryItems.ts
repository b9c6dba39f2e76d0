import { QueryCommand, type AttributeValue, type DynamoDBClient, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/client-dynamodb';

/** Every item a Query finds, page after page (bounded by the items under its key). */
export async function queryItems(client: DynamoDBClient, input: Omit<QueryCommandInput, 'ExclusiveStartKey'>): Promise<Record<string, AttributeValue>[]> {
  const items: Record<string, AttributeValue>[] = [];
  let startKey: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
