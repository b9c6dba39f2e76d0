import { DynamoDBClient, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameService, IDEMPOTENCY_SECONDS } from '../../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { hmacTokenMinter } from '../../../functions/application/tokenMinter';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { DynamoEventStore } from '../../../functions/store/dynamoStore';
import { StoreUnavailable, type EventStore } from '../../../functions/store/eventStore';
import { MemoryEventStore } from '../../../functions/store/memoryStore';

const START = Date.parse('2026-11-27T10:00:00.000Z');
const keys = () => ({ signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()), tokenMinter: hmacTokenMinter(newSeedKey()) });
const tokensOf = (game: { tokens: { organizer: string; players: Record<string, string> } }) => [game.tokens.organizer, ...Object.values(game.tokens.players)];

let dynamo: EmbeddedDynamo;
beforeAll(async () => {
  dynamo = await startEmbeddedDynamo();
});
afterAll(async () => {
  await dynamo?.close();
});

describe.each([
  ['the memory store', () => new MemoryEventStore() as EventStore],
  ['DynamoDB without transactions (dynalite, which never deletes expired items)', () => new DynamoEventStore(dynamo.client, dynamo.tableName)],
])('an Idempotency-Key on %s', (_, makeStore) => {
  it('answers its game for a day, then counts as gone: the key creates a new game with none of the old tokens', async () => {
    let clock = START;
    const service = new GameService({ store: makeStore(), ...keys(), now: () => new Date(clock).toISOString() });
    const key = randomBytes(16).toString('base64url');
    const old = await service.createGame({ ruleset: 'dice' }, undefined, key);
    clock += IDEMPOTENCY_SECONDS * 1000 - 1000;
    expect(await service.createGame({ ruleset: 'dice' }, undefined, key)).toEqual(old);
    clock += 1000;
    const fresh = await service.createGame({ ruleset: 'dice' }, undefined, key);
    expect(fresh.gameId).not.toBe(old.gameId);
    expect(tokensOf(fresh).filter((t) => tokensOf(old).includes(t))).toEqual([]);
    expect(await service.createGame({ ruleset: 'dice' }, undefined, key)).toEqual(fresh);
  });
});

describe('a creation with an Idempotency-Key that fails after its record is stored (no transactions)', () => {
  it('leaves no record behind, so a retry with the key creates the game rather than waiting a day', async () => {
    let failNextSeed = true;
    const flaky = {
      send: async (command: { input: { Item?: { pk?: { S?: string } } } }) => {
        if (command instanceof PutItemCommand && failNextSeed && command.input.Item?.pk?.S?.endsWith('#seed')) {
          failNextSeed = false;
          throw Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
        }
        return dynamo.client.send(command as never);
      },
    } as unknown as DynamoDBClient;
    const service = new GameService({ store: new DynamoEventStore(flaky, dynamo.tableName), ...keys() });
    const key = randomBytes(16).toString('base64url');
    await expect(service.createGame({ ruleset: 'dice', title: 'flaky' }, undefined, key)).rejects.toBeInstanceOf(StoreUnavailable);
    const retried = await service.createGame({ ruleset: 'dice', title: 'flaky' }, undefined, key);
    expect((await service.view(retried.gameId, retried.tokens.organizer)).role).toBe('organizer');
    const records = (await dynamo.client.send(new ScanCommand({ TableName: dynamo.tableName, FilterExpression: 'contains(#r, :g)', ExpressionAttributeNames: { '#r': 'record' }, ExpressionAttributeValues: { ':g': { S: retried.gameId } } }))).Items;
    expect(records).toHaveLength(1);
  });
});
