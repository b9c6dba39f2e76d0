import { DynamoDBClient, PutItemCommand, TransactionCanceledException, TransactionConflictException, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { GameIdTaken, IdempotencyKeyTaken, StoreUnavailable, type GameSecrets } from '../../../functions/store/eventStore';
import { DynamoEventStore } from '../../../functions/store/dynamoStore';
import { GameService } from '../../../functions/application/gameService';
import { hmacTokenMinter } from '../../../functions/application/tokenMinter';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { MemoryEventStore } from '../../../functions/store/memoryStore';
import { sampleCommit } from '../../support/commits';

const dynamo = mockClient(DynamoDBClient);
afterEach(() => dynamo.reset());
const secrets: GameSecrets = { tokenHashes: { organizer: '00'.repeat(32), players: { p1: '11'.repeat(32) } } };
const record = { keyHash: 'ab'.repeat(32), requestHash: 'cd'.repeat(32), gameId: 'g-tx', expiresAt: 2_000_000_000 };
const canceled = (codes: string[]) => new TransactionCanceledException({ message: 'canceled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });

describe('creating a game where the store has transactions (DynamoDB on AWS)', () => {
  it('writes the idempotency record, the seed, the secrets and commit 1 in one TransactWriteItems, each only if new', async () => {
    dynamo.on(TransactWriteItemsCommand).resolves({});
    const store = new DynamoEventStore(new DynamoDBClient({ region: 'eu-west-1' }), 'T', { transactions: true });
    await store.createGame(sampleCommit('g-tx', 1, 'create'), secrets, undefined, 'kms-v1.seed', record);
    const [call] = dynamo.commandCalls(TransactWriteItemsCommand);
    const items = call.args[0].input.TransactItems!;
    expect(items.map((i) => i.Put!.Item!.pk.S)).toEqual(['idempotency#' + record.keyHash, 'g-tx#seed', 'g-tx#secrets', 'g-tx']);
    expect(items.every((i) => i.Put!.ConditionExpression === 'attribute_not_exists(pk)' && i.Put!.TableName === 'T')).toBe(true);
    expect(items[0].Put!.Item!.expiresAt).toEqual({ N: String(record.expiresAt) });
  });

  it('tells a taken key from a taken game id by the canceled item', async () => {
    const store = new DynamoEventStore(new DynamoDBClient({ region: 'eu-west-1' }), 'T', { transactions: true });
    dynamo.on(TransactWriteItemsCommand).rejects(canceled(['ConditionalCheckFailed', 'None', 'None', 'None']));
    await expect(store.createGame(sampleCommit('g-tx', 1, 'create'), secrets, undefined, 'kms-v1.seed', record)).rejects.toBeInstanceOf(IdempotencyKeyTaken);
    dynamo.on(TransactWriteItemsCommand).rejects(canceled(['None', 'None', 'ConditionalCheckFailed', 'None']));
    await expect(store.createGame(sampleCommit('g-tx', 1, 'create'), secrets, undefined, 'kms-v1.seed', record)).rejects.toBeInstanceOf(GameIdTaken);
  });

  it('takes a TransactionConflict on the key as the key taken (the service answers the other creation or a retryable 409), elsewhere as a store to retry, never a fault', async () => {
    const store = new DynamoEventStore(new DynamoDBClient({ region: 'eu-west-1' }), 'T', { transactions: true });
    dynamo.on(TransactWriteItemsCommand).rejects(canceled(['TransactionConflict', 'None', 'None', 'None']));
    await expect(store.createGame(sampleCommit('g-tx', 1, 'create'), secrets, undefined, 'kms-v1.seed', record)).rejects.toBeInstanceOf(IdempotencyKeyTaken);
    dynamo.on(TransactWriteItemsCommand).rejects(canceled(['None', 'TransactionConflict', 'None', 'None']));
    await expect(store.createGame(sampleCommit('g-tx', 1, 'create'), secrets, undefined, 'kms-v1.seed', record)).rejects.toBeInstanceOf(StoreUnavailable);
  });

  it('takes a transaction throttled on any item, or a write that met a transaction in flight, as a store to retry (503), not a fault', async () => {
    const store = new DynamoEventStore(new DynamoDBClient({ region: 'eu-west-1' }), 'T', { transactions: true });
    for (const code of ['ThrottlingError', 'ProvisionedThroughputExceeded']) {
      dynamo.on(TransactWriteItemsCommand).rejects(canceled(['None', code, 'None', 'None']));
      await expect(store.createGame(sampleCommit('g-tx', 1, 'create'), secrets, undefined, 'kms-v1.seed', record), code).rejects.toBeInstanceOf(StoreUnavailable);
    }
    dynamo.on(PutItemCommand).rejects(new TransactionConflictException({ message: 'Transaction is ongoing for the item', $metadata: {} }));
    await expect(store.append(sampleCommit('g-tx', 2))).rejects.toBeInstanceOf(StoreUnavailable);
  });

  it('writes a record made at a time over one of its key that expired by then, and only such a one', async () => {
    dynamo.on(TransactWriteItemsCommand).resolves({});
    const store = new DynamoEventStore(new DynamoDBClient({ region: 'eu-west-1' }), 'T', { transactions: true });
    await store.createGame(sampleCommit('g-tx', 1, 'create'), secrets, undefined, 'kms-v1.seed', { ...record, createdAt: 1_999_913_600, salt: 's' });
    const put = dynamo.commandCalls(TransactWriteItemsCommand)[0].args[0].input.TransactItems![0].Put!;
    expect([put.ConditionExpression, put.ExpressionAttributeValues]).toEqual(['attribute_not_exists(pk) OR expiresAt <= :createdAt', { ':createdAt': { N: '1999913600' } }]);
  });
});

describe('one Idempotency-Key sent to two processes at once', () => {
  it('creates one game; the process that loses answers with the winner\'s game and the same tokens', async () => {
    const store = new MemoryEventStore();
    const shared = { signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()), tokenMinter: hmacTokenMinter(newSeedKey()) };
    const a = new GameService({ store, ...shared });
    const b = new GameService({ store, ...shared });
    const key = randomUUID();
    const [first, second] = await Promise.all([a.createGame({ ruleset: 'dice' }, undefined, key), b.createGame({ ruleset: 'dice' }, undefined, key)]);
    expect(second).toEqual(first);
    expect((await b.view(first.gameId, first.tokens.players.player2)).role).toBe('player2');
  });
});
