import { createHmac } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { afterAll, describe, expect, it } from 'vitest';
import { GameService } from '../../../functions/application/gameService';
import { kmsSecretVault } from '../../../functions/application/kmsSeedVault';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { settingName } from '../../../functions/config/settingNames';
import { awsNotificationEngine } from '../../../functions/lambda/notifyEngine';
import { subscriptionLinks } from '../../../functions/notify/subscriptionLinks';
import { DynamoEventStore } from '../../../functions/store/dynamoStore';
import { DynamoSubscriptions } from '../../../functions/store/dynamoSubscriptions';
import { startFakeKms } from '../../support/fakeKms';
import { startLoopbackDynamo } from '../../support/loopbackDynamo';
import { startReceiver } from '../../support/webhookReceiver';

const SEED_KEY = 'arn:aws:kms:eu-west-3:000000000000:key/seeds';
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

describe('the delivery function\'s engine (functions/lambda/notifyEngine.ts), composed as on AWS', () => {
  it('delivers a commit to a webhook subscribed through the commands side: the target sealed by KMS under subscription:<id> opens, the signature holds', async () => {
    const dynamo = await startLoopbackDynamo('arbiter-notify-engine');
    const kms = await startFakeKms({ signing: [], symmetric: [SEED_KEY] });
    const hook = await startReceiver();
    closers.push(dynamo.close, kms.close, hook.close);
    const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
    const clients = { dynamo: new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'eu-west-3', credentials }), kms: new KMSClient({ endpoint: kms.endpoint, region: 'eu-west-3', credentials }) };
    Object.assign(process.env, { [settingName('tableName')]: dynamo.tableName, [settingName('seedKeyId')]: SEED_KEY, [settingName('publicUrl')]: 'https://api.example.org' });

    // The commands function's side: the game and its subscription in the table, the target sealed with the seed key (lambdaSubscriptions.ts).
    const subscriptions = { store: new DynamoSubscriptions(clients.dynamo, dynamo.tableName), vault: kmsSecretVault(clients.kms, SEED_KEY), allowLoopback: true, links: subscriptionLinks(() => 'https://api.example.org') };
    const service = new GameService({ store: new DynamoEventStore(clients.dynamo, dynamo.tableName), signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()), subscriptions });
    const game = await service.createGame({ ruleset: 'dice', title: 'Arnhem by mail' });
    const { subscriptionId, secret } = await service.subscriptions.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: `${hook.url}/arbiter` });
    await service.submit(game.gameId, game.tokens.players.player1!, { commandId: 'r1', type: 'Roll', payload: { dice: '2d6', purpose: 'bridge assault' } });

    const engine = awsNotificationEngine({ clients, allowLoopback: true });
    await engine.catchUpGame(game.gameId);
    await engine.catchUpGame(game.gameId);
    expect(hook.received).toHaveLength(1);
    const [request] = hook.received;
    expect(request!.headers['webhook-id']).toBe(`msg_${subscriptionId}_2_2`);
    const key = Buffer.from(secret!.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${request!.headers['webhook-id']}.${request!.headers['webhook-timestamp']}.${request!.body}`).digest('base64');
    expect(String(request!.headers['webhook-signature']).split(' ')).toContain(`v1,${expected}`);
    expect(JSON.parse(request!.body).data.notices[0]).toMatchObject({ gameId: game.gameId, seq: 2, purposes: ['bridge assault'], timelineUrl: `https://api.example.org/#/games/${game.gameId}` });
    await engine.close();
  });
});
