import { ApiGatewayManagementApiClient, DeleteConnectionCommand, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { CreateTableCommand, DynamoDBClient, QueryCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GameService } from '../../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { attachPush, watchViewerRevocations, type PushHub } from '../../../functions/local/pushServer';
import { socketHandler, type SocketEvent } from '../../../functions/push/awsSocket';
import { changesOf, streamHandler, type StreamRecordLike } from '../../../functions/push/awsStream';
import { apiGateway } from '../../../functions/push/gateway';
import { CONNECTIONS_KEY_SCHEMA, DynamoSubscriptions } from '../../../functions/push/subscriptionStore';
import { DynamoEventStore } from '../../../functions/store/dynamoStore';
import { StoreUnavailable } from '../../../functions/store/eventStore';
import { PushClient, type Pushed } from '../../support/pushClient';

const CONNECTIONS = 'push-connections';
const gatewayClient = mockClient(ApiGatewayManagementApiClient);

let dynamo: EmbeddedDynamo;
let store: DynamoEventStore;
let watched: ReturnType<typeof watchViewerRevocations>;
let service: GameService;
let subscriptions: DynamoSubscriptions;
let server: Server;
let hub: PushHub;
let wsUrl: string;

/** What API Gateway was asked to send, per connection, parsed; and connections that are gone or failing. */
let posted: Map<string, Pushed[]>;
let gone: Set<string>;
let failing: Set<string>;
let dropped: string[];

beforeAll(async () => {
  dynamo = await startEmbeddedDynamo({ tableName: 'push-games' });
  await dynamo.client.send(
    new CreateTableCommand({
      TableName: CONNECTIONS,
      BillingMode: 'PAY_PER_REQUEST',
      ...CONNECTIONS_KEY_SCHEMA,
    }),
  );
  store = new DynamoEventStore(dynamo.client, dynamo.tableName);
  watched = watchViewerRevocations(store);
  service = new GameService({ store: watched.store, signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()) });
  subscriptions = new DynamoSubscriptions(dynamo.client, CONNECTIONS);
  // The local path, on the same service: its messages are compared with the AWS path's.
  server = createServer((_req, res) => res.writeHead(404).end());
  hub = attachPush({ server, service, viewers: store, viewerRevocations: watched });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  wsUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/push`;
});
afterAll(async () => {
  await hub?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await dynamo?.close();
});

const resetGateway = () => {
  posted = new Map();
  gone = new Set();
  failing = new Set();
  dropped = [];
  gatewayClient.reset();
  gatewayClient.on(PostToConnectionCommand).callsFake(({ ConnectionId, Data }: { ConnectionId: string; Data: Uint8Array }) => {
    if (gone.has(ConnectionId)) throw new GoneException({ message: 'gone', $metadata: {} });
    if (failing.has(ConnectionId)) throw Object.assign(new Error('LimitExceededException'), { name: 'LimitExceededException' });
    const list = posted.get(ConnectionId) ?? [];
    list.push(JSON.parse(Buffer.from(Data).toString('utf8')));
    posted.set(ConnectionId, list);
    return {};
  });
  gatewayClient.on(DeleteConnectionCommand).callsFake(({ ConnectionId }: { ConnectionId: string }) => {
    dropped.push(ConnectionId);
    return {};
  });
};
afterEach(() => gatewayClient.reset());

const gateway = () => apiGateway(new ApiGatewayManagementApiClient({ region: 'eu-west-1', endpoint: 'http://gateway.invalid/live', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }));
const socketFunction = (overrides: Partial<Parameters<typeof socketHandler>[0]> = {}) =>
  socketHandler({ service: async () => service, viewers: async () => store, subscriptions, gateway: gateway(), allowedOrigins: ['https://app.invalid'], report: () => {}, ...overrides });
const streamFunction = () => streamHandler({ readCommits: (gameId, after, limit) => store.read(gameId, after, limit), subscriptions, gateway: gateway() });

const message = (connectionId: string, body: unknown, extra: Partial<SocketEvent> = {}): SocketEvent => ({
  requestContext: { routeKey: '$default', connectionId },
  body: typeof body === 'string' ? body : JSON.stringify(body),
  isBase64Encoded: false,
  ...extra,
});
const inserts = (gameId: string, ...seqs: number[]): StreamRecordLike[] => seqs.map((seq) => ({ eventName: 'INSERT', dynamodb: { Keys: { pk: { S: gameId }, sk: { N: String(seq) } } } }));
const newGame = (options: Record<string, unknown> = { sides: ['red', 'blue'] }) => service.createGame({ ruleset: 'dice', title: 'aws push', options });
const roll = (gameId: string, token: string, commandId: string) => service.submit(gameId, token, { commandId, type: 'Roll', payload: { dice: '2d6', purpose: commandId } });
const items = async (table: string) => (await dynamo.client.send(new ScanCommand({ TableName: table }))).Items ?? [];

describe('the AWS push functions, with the gateway faked (aws-sdk-client-mock) and the tables in dynalite', () => {
  it('send the same messages as the local server, commit for commit and refusal for refusal', async () => {
    resetGateway();
    const socket = socketFunction();
    const stream = streamFunction();
    const game = await newGame();
    await roll(game.gameId, game.tokens.players.blue, 'first');
    const local = await PushClient.open(wsUrl);
    const subscribe = { action: 'subscribe', gameId: game.gameId, token: game.tokens.players.red, after: 1 };
    local.send(subscribe);
    await socket(message('c-red', subscribe));
    await local.next((m) => m.type === 'commit' && m.commit.seq === 2);

    await roll(game.gameId, game.tokens.players.blue, 'second');
    await roll(game.gameId, game.tokens.players.blue, 'third');
    await stream({ Records: inserts(game.gameId, 3, 4) });
    await local.next((m) => m.type === 'commit' && m.commit.seq === 4);
    await service.revokeToken(game.gameId, game.tokens.organizer, 'red');
    await stream({ Records: inserts(game.gameId, 5) });
    await local.next((m) => m.type === 'error');

    const hostile = [
      'not json',
      '{"action":"launch"}',
      `{"action":"subscribe","gameId":"${game.gameId}","after":0,"__proto__":{"x":1}}`,
      `{"action":"subscribe","gameId":"${game.gameId}","after":0,"pad":"${'x'.repeat(5000)}"}`,
      `{"action":"subscribe","gameId":"${game.gameId}","token":"arb_wrong","after":0}`,
      '{"action":"subscribe","gameId":"g-none","after":0}',
      `{"action":"subscribe","gameId":"${game.gameId}","token":"${game.tokens.organizer}","after":99}`,
      '{"action":"ping"}',
      `{"action":"unsubscribe","gameId":"${game.gameId}"}`,
    ];
    for (const text of hostile) {
      const from = local.messages.length;
      local.send(text);
      await local.next(() => true, 3000, from);
      await socket(message('c-red', text));
    }
    expect(local.messages.length).toBeGreaterThan(12);
    expect(posted.get('c-red')).toEqual(local.messages);
    expect(local.messages.map((m) => m.type === 'commit' ? m.commit.seq : m.type === 'error' ? m.code : m.type)).toEqual([
      'subscribed', 2, 3, 4, 'unauthenticated',
      'invalid_request', 'invalid_request', 'invalid_request', 'payload_too_large', 'unauthenticated', 'not_found', 'invalid_request', 'pong', 'unsubscribed',
    ]);
    await local.close();
  });

  it('keep subscriptions in the connections table, and forget them on $disconnect', async () => {
    resetGateway();
    const socket = socketFunction();
    const game = await newGame();
    const other = await newGame();
    await socket(message('c-1', { action: 'subscribe', gameId: game.gameId, token: game.tokens.players.red, after: 1 }));
    await socket(message('c-1', { action: 'subscribe', gameId: other.gameId, token: other.tokens.organizer, after: 1 }));
    const stored = await subscriptions.forGame(game.gameId, 10, Math.floor(Date.now() / 1000));
    expect(stored).toEqual([{ connectionId: 'c-1', gameId: game.gameId, identity: 'role:red', rulesetId: 'dice', after: 1, authorizedAt: 1, expiresAt: expect.any(Number), slice: 0 }]);
    expect(stored[0].expiresAt * 1000 - Date.now()).toBeGreaterThan(2 * 3600_000);
    // The table holds no token, nor its hash.
    const text = JSON.stringify(await items(CONNECTIONS));
    for (const token of [game.tokens.players.red, other.tokens.organizer]) expect(text).not.toContain(token);
    expect(await subscriptions.gamesOf('c-1', 10)).toEqual(expect.arrayContaining([game.gameId, other.gameId]));

    expect(await socket({ requestContext: { routeKey: '$disconnect', connectionId: 'c-1' } })).toEqual({ statusCode: 200 });
    expect(await subscriptions.gamesOf('c-1', 10)).toEqual([]);
    expect(await subscriptions.forGame(game.gameId, 10, 0)).toEqual([]);
  });

  it('let in on $connect a page of an allowed origin, or a program without one, and refuse other pages', async () => {
    const socket = socketFunction();
    const connect = (headers: Record<string, string>) => socket({ requestContext: { routeKey: '$connect', connectionId: 'c-o' }, headers });
    expect(await connect({ Origin: 'https://app.invalid' })).toEqual({ statusCode: 200 });
    expect(await connect({})).toEqual({ statusCode: 200 });
    expect(await connect({ origin: 'https://elsewhere.invalid' })).toEqual({ statusCode: 403 });
  });

  it('catch a commit stored between the catch-up and the subscription being stored', async () => {
    resetGateway();
    const game = await newGame();
    const racing = new DynamoSubscriptions(dynamo.client, CONNECTIONS);
    const put = racing.put.bind(racing);
    racing.put = async (s) => {
      // Stored, and fanned out by the stream before this subscription existed: the stream sent it to nobody.
      await roll(game.gameId, game.tokens.players.blue, 'between');
      await put(s);
    };
    await socketFunction({ subscriptions: racing })(message('c-race', { action: 'subscribe', gameId: game.gameId, token: game.tokens.players.red, after: 0 }));
    expect(posted.get('c-race')!.map((m) => m.commit?.seq ?? m.type)).toEqual(['subscribed', 1, 2]);
  });

  it('forget a connection found gone, drop one that cannot be sent to, and end a revoked spectator link\'s subscription', async () => {
    resetGateway();
    const socket = socketFunction();
    const stream = streamFunction();
    const game = await newGame();
    const viewer = await service.addViewer(game.gameId, game.tokens.organizer, {});
    const kept = await service.addViewer(game.gameId, game.tokens.organizer, {});
    for (const [id, token] of [['c-gone', game.tokens.players.red], ['c-slow', game.tokens.players.blue], ['c-viewer', viewer.token], ['c-kept', kept.token]]) {
      await socket(message(id, { action: 'subscribe', gameId: game.gameId, token, after: 1 }));
    }
    expect((await subscriptions.forGame(game.gameId, 10, 0)).map((s) => s.identity).sort()).toEqual(['role:blue', 'role:red', `viewer:${kept.viewerId}`, `viewer:${viewer.viewerId}`].sort());
    gone.add('c-gone');
    failing.add('c-slow');
    await roll(game.gameId, game.tokens.players.red, 'r');
    await stream({ Records: inserts(game.gameId, 2) });
    expect(dropped).toEqual(['c-slow']);
    expect((await subscriptions.forGame(game.gameId, 10, 0)).map((s) => s.connectionId).sort()).toEqual(['c-kept', 'c-viewer']);
    expect(await subscriptions.gamesOf('c-gone', 10)).toEqual([]);

    // The revocation as the stream shows it: the key of the viewer's item, changed in place.
    await service.revokeViewer(game.gameId, game.tokens.organizer, viewer.viewerId);
    const viewerItems = (await items(dynamo.tableName)).filter((i) => i.pk.S === `${game.gameId}#viewers`);
    const revokedKey = viewerItems.find((i) => JSON.parse(i.viewer.S!).viewerId === viewer.viewerId)!;
    await stream({ Records: [{ eventName: 'MODIFY', dynamodb: { Keys: { pk: revokedKey.pk, sk: revokedKey.sk } } }] });
    expect(posted.get('c-viewer')!.at(-1)).toEqual({ type: 'error', code: 'unauthenticated', message: expect.stringMatching(/spectator link was revoked/), gameId: game.gameId });
    expect((await subscriptions.forGame(game.gameId, 10, 0)).map((s) => s.connectionId)).toEqual(['c-kept']);
    await roll(game.gameId, game.tokens.players.red, 'after');
    await stream({ Records: inserts(game.gameId, 3) });
    expect(posted.get('c-kept')!.map((m) => m.commit?.seq ?? m.type)).toEqual(['subscribed', 2, 3]);
    expect(posted.get('c-viewer')!.map((m) => m.commit?.seq ?? m.code ?? m.type)).toEqual(['subscribed', 2, 'unauthenticated']);
  });

  it('read only keys from the stream: commits are INSERTs under a game id, spectator revocations MODIFYs of its #viewers items', () => {
    const changes = changesOf([
      ...inserts('g-a', 4, 2, 3),
      { eventName: 'INSERT', dynamodb: { Keys: { pk: { S: 'g-a#secrets' }, sk: { N: '0' } } } },
      { eventName: 'INSERT', dynamodb: { Keys: { pk: { S: 'g-a#seed' }, sk: { N: '0' } } } },
      { eventName: 'INSERT', dynamodb: { Keys: { pk: { S: 'g-a#viewers' }, sk: { N: '35' } } } },
      { eventName: 'MODIFY', dynamodb: { Keys: { pk: { S: 'g-b#viewers' }, sk: { N: '35' } } } },
      { eventName: 'REMOVE', dynamodb: { Keys: { pk: { S: 'g-c' }, sk: { N: '2' } } } },
      { eventName: 'INSERT', dynamodb: { Keys: { pk: { S: '__proto__' }, sk: { N: 'x' } } } },
      { eventName: 'INSERT' },
      {},
    ]);
    expect([...changes.keys()]).toEqual(['g-a', 'g-b']);
    expect(changes.get('g-a')).toEqual({ from: 2, to: 4, revokedViewers: new Set() });
    expect(changes.get('g-b')).toEqual({ from: Number.MAX_SAFE_INTEGER, to: 0, revokedViewers: new Set(['v-z']) });
  });

  it('cap the games of a connection, refuse binary frames, and answer a failing store with unavailable (never a crash)', async () => {
    resetGateway();
    const socket = socketFunction({ limits: { maxSubscriptionsPerConnection: 1 } });
    const [a, b] = [await newGame(), await newGame()];
    await socket(message('c-cap', { action: 'subscribe', gameId: a.gameId, token: a.tokens.organizer, after: 1 }));
    await socket(message('c-cap', { action: 'subscribe', gameId: b.gameId, token: b.tokens.organizer, after: 1 }));
    await socket(message('c-cap', Buffer.from('{"action":"ping"}').toString('base64'), { isBase64Encoded: true }));
    expect(posted.get('c-cap')!.map((m) => m.code ?? m.type)).toEqual(['subscribed', 'too_many_subscriptions', 'invalid_request']);

    // The connections table throttling, as the SDK reports it.
    const faults: { route: string; reason: string }[] = [];
    const throttledClient = new DynamoDBClient({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    const throttling = mockClient(throttledClient);
    throttling.on(QueryCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } }));
    const broken = new DynamoSubscriptions(throttledClient, CONNECTIONS);
    await expect(broken.gamesOf('c-broken', 8)).rejects.toBeInstanceOf(StoreUnavailable);
    const failing = socketFunction({ subscriptions: broken, report: (f) => faults.push(f) });
    expect(await failing(message('c-broken', { action: 'subscribe', gameId: a.gameId, token: a.tokens.organizer, after: 1 }))).toEqual({ statusCode: 200 });
    expect(posted.get('c-broken')).toEqual([{ type: 'error', code: 'unavailable', message: expect.any(String) }]);
    expect(faults).toEqual([{ route: '$default', reason: 'StoreUnavailable' }]);
    expect(JSON.stringify(faults)).not.toContain(a.tokens.organizer);
    expect(await failing({ requestContext: { routeKey: '$default' } })).toEqual({ statusCode: 400 });
    // $disconnect on a throttled table: a 500 for the gateway (TTL removes the subscription later), no crash.
    expect(await failing({ requestContext: { routeKey: '$disconnect', connectionId: 'c-broken' } })).toEqual({ statusCode: 500 });
    throttling.restore();
  });
});
