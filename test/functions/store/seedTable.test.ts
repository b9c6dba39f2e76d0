import { BatchWriteItemCommand, DeleteItemCommand, DynamoDBClient, GetItemCommand, PutItemCommand, ScanCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { DynamoGameLeases } from '../../../functions/store/dynamoGameLeases';
import { DynamoEventStore } from '../../../functions/store/dynamoStore';
import type { GameSecrets } from '../../../functions/store/eventStore';
import { sampleCommit } from '../../support/commits';

const secrets: GameSecrets = { tokenHashes: { organizer: '00'.repeat(32), players: { player1: '11'.repeat(32) } } };
let dynamo: EmbeddedDynamo;
let store: DynamoEventStore;

beforeAll(async () => {
  // As npm start runs it: the game table and the seeds' table beside it.
  dynamo = await startEmbeddedDynamo();
  store = new DynamoEventStore(dynamo.client, dynamo.tableName, { seedTableName: dynamo.seedTableName });
});
afterAll(async () => {
  await dynamo?.close();
});

const seedIn = async (table: string, gameId: string) =>
  (await dynamo.client.send(new GetItemCommand({ TableName: table, Key: { pk: { S: `${gameId}#seed` }, sk: { N: '0' } }, ConsistentRead: true }))).Item?.seed?.S;

describe('seeds in a table of their own (dynalite, as npm start keeps them)', () => {
  it("keeps a new game's seed in the seeds table, and nothing of it in the game table", async () => {
    await store.createGame(sampleCommit('g-seed-1', 1, 'create'), secrets, undefined, 'sealed-1');
    expect(await seedIn(dynamo.seedTableName, 'g-seed-1')).toBe('sealed-1');
    const gameTable = await dynamo.client.send(new ScanCommand({ TableName: dynamo.tableName }));
    expect((gameTable.Items ?? []).filter((item) => item.pk.S!.startsWith('g-seed-1')).map((item) => item.pk.S)).toEqual(expect.arrayContaining(['g-seed-1', 'g-seed-1#secrets']));
    expect(JSON.stringify(gameTable.Items)).not.toContain('sealed-1');
    expect(await store.readSeed('g-seed-1')).toBe('sealed-1');
    // A seed moved from a game's secrets (gameSeeds.ts) is written there too.
    await store.writeSeed('g-seed-2', 'sealed-2');
    expect(await seedIn(dynamo.seedTableName, 'g-seed-2')).toBe('sealed-2');
    expect(await seedIn(dynamo.tableName, 'g-seed-2')).toBeUndefined();
  });

  it('still reads the seed of a game created before the seeds table, from the game table', async () => {
    const before = new DynamoEventStore(dynamo.client, dynamo.tableName);
    await before.createGame(sampleCommit('g-seed-old', 1, 'create'), secrets, undefined, 'sealed-old');
    expect(await seedIn(dynamo.tableName, 'g-seed-old')).toBe('sealed-old');
    expect(await store.readSeed('g-seed-old')).toBe('sealed-old');
    expect(await store.readSeed('g-seed-none')).toBeUndefined();
  });

  it("deletes a swept game's seed from both tables, one DeleteItem at a time that returns nothing, and no other game's", async () => {
    const leases = new DynamoGameLeases(dynamo.client, dynamo.tableName, dynamo.seedTableName);
    await store.createGame(sampleCommit('g-swept', 1, 'create'), secrets, undefined, 'sealed-swept');
    await new DynamoEventStore(dynamo.client, dynamo.tableName).writeSeed('g-swept', 'sealed-swept-before');
    await store.createGame(sampleCommit('g-kept', 1, 'create'), secrets, undefined, 'sealed-kept');
    const send = vi.spyOn(dynamo.client, 'send');
    try {
      await leases.deleteGame('g-swept');
      const writes = send.mock.calls.map(([command]) => command).filter((c) => !(c instanceof ScanCommand) && c.constructor.name !== 'QueryCommand');
      expect(writes.some((c) => c instanceof BatchWriteItemCommand)).toBe(false);
      // First the game's lease again (a sweep cut short comes back, dynamoGameLeases.ts), then deletions only.
      const [arm, ...deletions] = writes;
      expect(arm).toBeInstanceOf(PutItemCommand);
      expect((arm as PutItemCommand).input.Item?.pk).toEqual({ S: 'lease#g-swept' });
      for (const c of deletions) expect(c).toBeInstanceOf(DeleteItemCommand);
      for (const c of deletions as DeleteItemCommand[]) expect(c.input.ReturnValues).toBe('NONE');
    } finally {
      send.mockRestore();
    }
    expect(await seedIn(dynamo.seedTableName, 'g-swept')).toBeUndefined();
    expect(await seedIn(dynamo.tableName, 'g-swept')).toBeUndefined();
    expect(await store.readSeed('g-swept')).toBeUndefined();
    expect(await store.readSeed('g-kept')).toBe('sealed-kept');
  });
});

describe('seeds in a table of their own (DynamoDB on AWS, transactions)', () => {
  it("puts a new game's seed in the seeds table within the creation's one transaction", async () => {
    const client = new DynamoDBClient({ region: 'eu-west-1' });
    const aws = mockClient(client);
    aws.on(TransactWriteItemsCommand).resolves({});
    const onAws = new DynamoEventStore(client, 'Commits', { transactions: true, seedTableName: 'Seeds' });
    await onAws.createGame(sampleCommit('g-tx-seed', 1, 'create'), secrets, undefined, 'kms-v1.seed');
    const [call] = aws.commandCalls(TransactWriteItemsCommand);
    expect(call.args[0].input.TransactItems!.map((i) => [i.Put!.TableName, i.Put!.Item!.pk.S])).toEqual([
      ['Seeds', 'g-tx-seed#seed'],
      ['Commits', 'g-tx-seed#secrets'],
      ['Commits', 'g-tx-seed'],
    ]);
  });
});
