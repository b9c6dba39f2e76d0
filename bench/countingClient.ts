import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export interface Tally {
  calls: Record<string, number>;
  itemsRead: number;
  readUnits: number;
  writeUnits: number;
}

/**
 * Counts what a DynamoDB client does: calls by operation, items returned by reads,
 * and the capacity DynamoDB (here dynalite) reports consumed (ReturnConsumedCapacity).
 */
export function countCalls(client: DynamoDBClient): { tally: Tally; reset: () => void } {
  const tally: Tally = { calls: {}, itemsRead: 0, readUnits: 0, writeUnits: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const op = String(context.commandName).replace(/Command$/, '');
      const output = result.output as { Count?: number; Item?: unknown; ConsumedCapacity?: { CapacityUnits?: number } };
      tally.calls[op] = (tally.calls[op] ?? 0) + 1;
      if (op === 'Query') tally.itemsRead += output.Count ?? 0;
      if (op === 'GetItem' && output.Item) tally.itemsRead += 1;
      const units = output.ConsumedCapacity?.CapacityUnits ?? 0;
      if (op === 'PutItem') tally.writeUnits += units;
      else tally.readUnits += units;
      return result;
    },
    { step: 'initialize', name: 'arbiterBenchCounter' },
  );
  return {
    tally,
    reset: () => {
      tally.calls = {};
      tally.itemsRead = 0;
      tally.readUnits = 0;
      tally.writeUnits = 0;
    },
  };
}
