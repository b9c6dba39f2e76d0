import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { GameService } from '../../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { readSettings } from '../../../functions/config/settings';
import { lambdaSubscriptions } from '../../../functions/lambda/lambdaSubscriptions';
import { MemoryEventStore } from '../../../functions/store/memoryStore';

describe('the subscription routes on AWS (functions/lambda/lambdaSubscriptions.ts)', () => {
  it('refuse e-mail when the stack names no SES identity, naming ARBITER_SES_FROM, and refuse a loopback webhook', async () => {
    const { settings } = readSettings({ ARBITER_TABLE_NAME: 'arbiter' });
    const unused = { send: () => Promise.reject(new Error('no table call expected')) } as unknown as DynamoDBClient;
    const service = new GameService({ store: new MemoryEventStore(), signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()), subscriptions: lambdaSubscriptions(unused, 'arbiter', settings) });
    const game = await service.createGame({ ruleset: 'dice' });
    await expect(service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'email', address: 'player@example.net' })).rejects.toMatchObject({
      status: 422,
      message: 'This server sends no e-mail: its ARBITER_SES_FROM setting is not set.',
    });
    await expect(service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: 'http://127.0.0.1:9/hook' })).rejects.toMatchObject({ status: 400 });
  });
});
