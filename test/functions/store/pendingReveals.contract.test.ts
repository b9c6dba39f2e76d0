import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import type { PendingReveals } from '../../../functions/ports/pendingReveals';
import { DynamoGameLeases } from '../../../functions/store/dynamoGameLeases';
import { DynamoPendingReveals, PENDING_REVEALS_KEY, pendingRevealSk } from '../../../functions/store/dynamoPendingReveals';
import { MemoryPendingReveals } from '../../../functions/store/memoryPendingReveals';

let dynamo: EmbeddedDynamo;
beforeAll(async () => {
  dynamo = await startEmbeddedDynamo();
});
afterAll(async () => {
  await dynamo?.close();
});

const adapters: [string, () => PendingReveals][] = [
  ['in memory', () => new MemoryPendingReveals()],
  ['DynamoDB (dynalite)', () => new DynamoPendingReveals(dynamo.client, dynamo.tableName)],
];

describe.each(adapters)('PendingReveals %s', (_name, make) => {
  it('gives the entries due, earliest first and at most the limit, keeps an entry added again as it was, and forgets a removed one', async () => {
    const reveals = make();
    const game = `g-${_name.length}-${Math.random().toString(36).slice(2)}`;
    await reveals.add(game, 4, 104, 4_000);
    await reveals.add(game, 2, 102, 2_000);
    await reveals.add(`${game}-b`, 7, 107, 9_000);
    await reveals.add(game, 2, 999, 1);
    const ours = <E extends { gameId: string }>(entries: E[]) => entries.filter((e) => e.gameId.startsWith(game));
    expect(ours(await reveals.due(1_000, 10))).toEqual([]);
    expect(ours(await reveals.due(4_000, 10))).toEqual([
      { gameId: game, seq: 2, round: 102, dueAtMs: 2_000 },
      { gameId: game, seq: 4, round: 104, dueAtMs: 4_000 },
    ]);
    expect(ours(await reveals.due(10_000, 10))).toHaveLength(3);
    expect(await reveals.due(10_000, 1)).toHaveLength(1);
    await reveals.remove(game, 2);
    await reveals.remove(game, 99);
    expect(ours(await reveals.due(10_000, 10)).map((e) => e.seq)).toEqual([4, 7]);
  });
});

it('keeps every entry in one partition, found by a Query of it: the table is never scanned for them', async () => {
  const reveals = new DynamoPendingReveals(dynamo.client, dynamo.tableName);
  const sent: string[] = [];
  dynamo.client.middlewareStack.add((next, context) => (args) => (sent.push(context.commandName ?? ''), next(args)), { step: 'initialize', name: 'commandsSent' });
  try {
    await reveals.add('g-partition', 3, 9, 0);
    expect((await reveals.due(1, 10)).filter((e) => e.gameId === 'g-partition')).toEqual([{ gameId: 'g-partition', seq: 3, round: 9, dueAtMs: 0 }]);
    expect(await reveals.entryAt({ pk: { S: PENDING_REVEALS_KEY }, sk: { N: String(pendingRevealSk('g-partition', 3)) } })).toEqual({ gameId: 'g-partition', seq: 3, round: 9, dueAtMs: 0 });
    await reveals.remove('g-partition', 3);
    expect(await reveals.entryAt({ pk: { S: PENDING_REVEALS_KEY }, sk: { N: String(pendingRevealSk('g-partition', 3)) } })).toBeUndefined();
  } finally {
    dynamo.client.middlewareStack.remove('commandsSent');
  }
  expect(sent).not.toContain('ScanCommand');
  expect(sent).toContain('QueryCommand');
});

it("deletes an abandoned game's pending reveal with the game", async () => {
  const reveals = new DynamoPendingReveals(dynamo.client, dynamo.tableName);
  await reveals.add('g-swept', 2, 5, 0);
  await new DynamoGameLeases(dynamo.client, dynamo.tableName).deleteGame('g-swept');
  expect((await reveals.due(Number.MAX_SAFE_INTEGER, 100)).filter((e) => e.gameId === 'g-swept')).toEqual([]);
});
