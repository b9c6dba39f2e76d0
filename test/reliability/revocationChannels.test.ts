import { CreateTableCommand, ScanCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { GameService } from '../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../functions/application/signer';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../functions/local/embeddedDynamo';
import { startLocalService, type LocalService } from '../../functions/local/localService';
import { socketHandler } from '../../functions/push/awsSocket';
import { streamHandler, type StreamRecordLike } from '../../functions/push/awsStream';
import type { Gateway } from '../../functions/push/gateway';
import { CONNECTIONS_KEY_SCHEMA, DynamoSubscriptions } from '../../functions/push/subscriptionStore';
import { DynamoEventStore } from '../../functions/store/dynamoStore';
import type { EventStore } from '../../functions/store/eventStore';
import { TestClient } from '../support/httpClient';
import { PushClient, pushUrl, type Pushed } from '../support/pushClient';
import { figure } from './figures';

const SECTION = 'Revocation on every channel';
const ATTEMPTS = 20;

/** The three ways a token stops reading a game: a spectator link revoked, a role's token revoked, or reissued. */
type Revocation = 'viewer revoked' | 'token revoked' | 'token reissued';
const REVOCATIONS: readonly Revocation[] = ['viewer revoked', 'token revoked', 'token reissued'];

interface Game {
  gameId: string;
  tokens: { organizer: string; players: Record<string, string> };
}

/** The token a revocation takes away, minted for it, and how to revoke it through the service. */
async function doomedToken(service: GameService, game: Game, kind: Revocation): Promise<{ token: string; viewerId?: string; revoke: () => Promise<void> }> {
  if (kind === 'viewer revoked') {
    const viewer = await service.addViewer(game.gameId, game.tokens.organizer, {});
    return { token: viewer.token, viewerId: viewer.viewerId, revoke: () => service.revokeViewer(game.gameId, game.tokens.organizer, viewer.viewerId) };
  }
  const revoke = kind === 'token revoked' ? () => service.revokeToken(game.gameId, game.tokens.organizer, 'red') : () => service.reissueToken(game.gameId, game.tokens.organizer, 'red');
  return { token: game.tokens.players.red, revoke: async () => void (await revoke()) };
}

const roll = (service: GameService, game: Game, commandId: string) =>
  service.submit(game.gameId, game.tokens.players.blue, { commandId, type: 'Roll', payload: { dice: '2d6', purpose: commandId } });
const versionOf = async (service: GameService, game: Game) => (await service.view(game.gameId, game.tokens.organizer)).version;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a revocation reaches every channel that reads with the token: the local push server', () => {
  let local: LocalService;
  let client: TestClient;
  /** Set for a game: the next read of its commits (a subscribe's catch-up) first runs this revocation. */
  const duringCatchUp = new Map<string, () => Promise<void>>();

  beforeAll(async () => {
    local = await startLocalService({
      wrapStore: (store) =>
        new Proxy(store, {
          get(target, property, receiver) {
            if (property === 'read') {
              return async (gameId: string, ...rest: [number, number?]) => {
                const revocation = duringCatchUp.get(gameId);
                duringCatchUp.delete(gameId);
                if (revocation) await revocation();
                return target.read(gameId, ...rest);
              };
            }
            const value = Reflect.get(target, property, receiver);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        }) as EventStore,
    });
    client = new TestClient(local.url);
  });
  afterAll(async () => {
    await local?.close();
  });

  /**
   * One subscribe with a token that is revoked while the subscribe is in flight (during its
   * catch-up read, or a few milliseconds after it was sent), then a commit. Returns whether a
   * commit stored after the revocation reached the client, and whether it was told its subscription ended.
   */
  async function subscribeAcrossRevocation(kind: Revocation, attempt: number): Promise<{ leaked: boolean; ended: boolean }> {
    const service = local.service;
    const game = await service.createGame({ ruleset: 'dice', options: { sides: ['red', 'blue'] } });
    const { token, revoke } = await doomedToken(service, game, kind);
    let revokedAt = Number.POSITIVE_INFINITY;
    const revokeNow = async () => {
      await revoke();
      // For a role, the revoking commit is itself the first the old token may not read.
      revokedAt = kind === 'viewer revoked' ? await versionOf(service, game) : (await versionOf(service, game)) - 1;
    };
    const push = await PushClient.open(pushUrl(local.url));
    try {
      const byHook = attempt % 2 === 0;
      if (byHook) duringCatchUp.set(game.gameId, revokeNow);
      push.subscribe(game.gameId, token, 0);
      if (!byHook) {
        await pause(attempt % 7);
        await revokeNow();
      }
      for (let i = 0; i < 200 && revokedAt === Number.POSITIVE_INFINITY; i++) await pause(5);
      await roll(service, game, 'after-revocation');
      const ended = await push.next((m) => m.type === 'error' && m.gameId === game.gameId, 1500).then(
        () => true,
        () => false,
      );
      await pause(50);
      const leaked = push.commits(game.gameId).some((seq) => seq > revokedAt);
      return { leaked, ended };
    } finally {
      duringCatchUp.delete(game.gameId);
      await push.close();
    }
  }

  it('a spectator link revoked while a subscribe is in flight gets no commit stored after it (20 attempts)', async () => {
    let leaks = 0;
    let ended = 0;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const outcome = await subscribeAcrossRevocation('viewer revoked', attempt);
      leaks += outcome.leaked ? 1 : 0;
      ended += outcome.ended ? 1 : 0;
    }
    figure(SECTION, 'local push, spectator link revoked during subscribe: commits after the revocation delivered', `${leaks} of ${ATTEMPTS}`);
    figure(SECTION, 'local push, spectator link revoked during subscribe: subscriptions ended with unauthenticated', `${ended} of ${ATTEMPTS}`);
    expect(leaks).toBe(0);
    expect(ended).toBe(ATTEMPTS);
  });

  it('a side token revoked or reissued while a subscribe is in flight gets no commit stored after it (20 attempts)', async () => {
    let leaks = 0;
    let ended = 0;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const outcome = await subscribeAcrossRevocation(attempt % 4 < 2 ? 'token revoked' : 'token reissued', attempt);
      leaks += outcome.leaked ? 1 : 0;
      ended += outcome.ended ? 1 : 0;
    }
    figure(SECTION, 'local push, side token revoked/reissued during subscribe: commits after the revocation delivered', `${leaks} of ${ATTEMPTS}`);
    expect(leaks).toBe(0);
    expect(ended).toBe(ATTEMPTS);
  });

  it('a long poll waiting when its token is revoked answers 401, never the commits stored after (20 attempts)', async () => {
    const service = local.service;
    let leaks = 0;
    let refused = 0;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const kind = REVOCATIONS[attempt % REVOCATIONS.length];
      const game = await service.createGame({ ruleset: 'dice', options: { sides: ['red', 'blue'] } });
      const { token, revoke } = await doomedToken(service, game, kind);
      const before = await versionOf(service, game);
      const poll = client.get(`/games/${game.gameId}/events?after=${before}&wait=5`, token);
      await pause(30 + (attempt % 5) * 10);
      await revoke();
      await roll(service, game, 'after-revocation');
      const answer = await poll;
      refused += answer.status === 401 ? 1 : 0;
      if (answer.status === 200 && (answer.body.commits as { seq: number }[]).some((c) => c.seq > before)) leaks += 1;
    }
    figure(SECTION, 'local long polls across a revocation: commits after it returned', `${leaks} of ${ATTEMPTS}`);
    figure(SECTION, 'local long polls across a revocation: answered 401', `${refused} of ${ATTEMPTS}`);
    expect(leaks).toBe(0);
    expect(refused).toBe(ATTEMPTS);
  });
});

describe('a revocation reaches every channel that reads with the token: the AWS push functions and reads', () => {
  const CONNECTIONS = 'revocation-connections';
  let dynamo: EmbeddedDynamo;
  let store: DynamoEventStore;
  /** The commands function: it writes. */
  let writer: GameService;
  /** The push and reads functions' service: another process, which reads the table as it is now. */
  let reader: GameService;
  let subscriptions: DynamoSubscriptions;
  const posted = new Map<string, Pushed[]>();
  let onPost: ((connectionId: string, message: Pushed) => Promise<void>) | undefined;
  const gateway: Gateway = {
    async post(connectionId, text) {
      const message = JSON.parse(text) as Pushed;
      posted.set(connectionId, [...(posted.get(connectionId) ?? []), message]);
      await onPost?.(connectionId, message);
      return 'sent';
    },
    async drop() {},
  };

  beforeAll(async () => {
    dynamo = await startEmbeddedDynamo({ tableName: 'revocation-games' });
    await dynamo.client.send(new CreateTableCommand({ TableName: CONNECTIONS, BillingMode: 'PAY_PER_REQUEST', ...CONNECTIONS_KEY_SCHEMA }));
    await waitUntilTableExists({ client: dynamo.client, maxWaitTime: 10, minDelay: 0.05, maxDelay: 0.2 }, { TableName: CONNECTIONS });
    store = new DynamoEventStore(dynamo.client, dynamo.tableName);
    writer = new GameService({ store, signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()) });
    reader = new GameService({ store, signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()) });
    subscriptions = new DynamoSubscriptions(dynamo.client, CONNECTIONS);
  });
  afterAll(async () => {
    await dynamo?.close();
  });

  const stream = () => streamHandler({ readCommits: (gameId, after, limit) => store.read(gameId, after, limit), subscriptions, gateway });

  /** What the game table's stream carries for a revocation: the new commit's key, or the viewer item's key changed in place. */
  async function streamRecordsOf(game: Game, viewerId: string | undefined): Promise<StreamRecordLike[]> {
    if (viewerId === undefined) {
      return [{ eventName: 'INSERT', dynamodb: { Keys: { pk: { S: game.gameId }, sk: { N: String(await versionOf(writer, game)) } } } }];
    }
    const items = (await dynamo.client.send(new ScanCommand({ TableName: dynamo.tableName }))).Items ?? [];
    return items
      .filter((item) => item.pk.S === `${game.gameId}#viewers` && JSON.parse(item.viewer.S!).viewerId === viewerId)
      .map((item) => ({ eventName: 'MODIFY', dynamodb: { Keys: { pk: item.pk, sk: item.sk } } }));
  }

  it('a subscribe on the AWS socket function in flight across a revocation gets no commit stored after it (20 attempts)', async () => {
    const points = ['when subscribed is sent', 'before the subscription is stored', 'after the subscription is stored'] as const;
    let leaks = 0;
    let left = 0;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const kind = REVOCATIONS[attempt % REVOCATIONS.length];
      const point = points[Math.floor(attempt / REVOCATIONS.length) % points.length];
      const game = await writer.createGame({ ruleset: 'dice', options: { sides: ['red', 'blue'] } });
      const { token, viewerId, revoke } = await doomedToken(writer, game, kind);
      let revokedAt = Number.POSITIVE_INFINITY;
      // The revocation lands, and the stream function runs on it at once, as it would on AWS.
      const revokeAndStream = async () => {
        await revoke();
        const version = await versionOf(writer, game);
        revokedAt = kind === 'viewer revoked' ? version : version - 1;
        await stream()({ Records: await streamRecordsOf(game, viewerId) });
      };
      const connectionId = `c-${attempt}`;
      const racing = new DynamoSubscriptions(dynamo.client, CONNECTIONS);
      racing.put = async (s) => {
        if (point === 'before the subscription is stored') await revokeAndStream();
        await subscriptions.put(s);
        if (point === 'after the subscription is stored') await revokeAndStream();
      };
      onPost =
        point === 'when subscribed is sent'
          ? async (id, message) => {
              if (id === connectionId && message.type === 'subscribed') await revokeAndStream();
            }
          : undefined;
      const socket = socketHandler({ service: async () => reader, viewers: async () => store, subscriptions: racing, gateway, allowedOrigins: [], report: () => {} });
      await socket({ requestContext: { routeKey: '$default', connectionId }, body: JSON.stringify({ action: 'subscribe', gameId: game.gameId, token, after: 0 }) });
      onPost = undefined;
      await roll(writer, game, 'after-revocation');
      await stream()({ Records: [{ eventName: 'INSERT', dynamodb: { Keys: { pk: { S: game.gameId }, sk: { N: String(await versionOf(writer, game)) } } } }] });
      const received = (posted.get(connectionId) ?? []).filter((m) => m.type === 'commit').map((m) => m.commit.seq as number);
      if (received.some((seq) => seq > revokedAt)) leaks += 1;
      if ((await subscriptions.forGame(game.gameId, 10, 0)).some((s) => s.connectionId === connectionId)) left += 1;
    }
    figure(SECTION, 'AWS push subscribe across a revocation (3 kinds x 3 moments): commits after it delivered', `${leaks} of ${ATTEMPTS}`);
    figure(SECTION, 'AWS push subscribe across a revocation: subscriptions left stored', `${left} of ${ATTEMPTS}`);
    expect(leaks).toBe(0);
    expect(left).toBe(0);
  });

  it('a long poll of the reads function (not the writer) waiting when its token is revoked answers 401 (6 attempts)', async () => {
    let leaks = 0;
    let refused = 0;
    const attempts = 6;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const kind = REVOCATIONS[attempt % REVOCATIONS.length];
      const game = await writer.createGame({ ruleset: 'dice', options: { sides: ['red', 'blue'] } });
      const { token, revoke } = await doomedToken(writer, game, kind);
      const before = await versionOf(writer, game);
      const poll = reader.events(game.gameId, token, before, 50, 5).then(
        (page) => ({ status: 200, commits: page.commits }),
        (error: { status?: number }) => ({ status: error.status ?? 500, commits: [] }),
      );
      await pause(50);
      await revoke();
      await roll(writer, game, 'after-revocation');
      const answer = await poll;
      refused += answer.status === 401 ? 1 : 0;
      if (answer.commits.some((c) => c.seq > before)) leaks += 1;
    }
    figure(SECTION, 'AWS long polls (reads function) across a revocation: commits after it returned', `${leaks} of ${attempts}`);
    expect(leaks).toBe(0);
    expect(refused).toBe(attempts);
  });
});

describe('push connections are bounded per client', () => {
  let local: LocalService;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    // Time enough to subscribe that none of the connections opened here is closed for not having done so.
    local = await startLocalService({ pushLimits: { subscribeWithinMs: 60_000 } });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.terminate();
    await local?.close();
  });

  /** Opens a socket from a given loopback address; resolves with it, or with the HTTP status that refused it. */
  const open = (localAddress: string) =>
    new Promise<WebSocket | number>((resolve) => {
      const socket = new WebSocket(pushUrl(local.url), { localAddress, perMessageDeflate: false });
      socket.once('open', () => {
        sockets.push(socket);
        resolve(socket);
      });
      socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.once('error', () => resolve(0));
    });

  it('one client address gets at most its documented share of the connections; another address still connects', async () => {
    const tries = 60;
    let accepted = 0;
    const refusals = new Map<number, number>();
    for (let i = 0; i < tries; i++) {
      const outcome = await open('127.0.0.1');
      if (typeof outcome === 'number') refusals.set(outcome, (refusals.get(outcome) ?? 0) + 1);
      else {
        accepted += 1;
        outcome.send(JSON.stringify({ action: 'ping' }));
      }
    }
    const other = await open('127.0.0.2');
    figure(SECTION, 'push connections one address without a token could open (of 60 tried)', accepted);
    expect(accepted).toBe(20);
    expect(refusals.get(429)).toBe(tries - 20);
    expect(other).toBeInstanceOf(WebSocket);
  });

});

describe('push connections must subscribe', () => {
  let local: LocalService;

  beforeAll(async () => {
    local = await startLocalService({ pushLimits: { subscribeWithinMs: 400, idleMs: 5000 } });
  });
  afterAll(async () => {
    await local?.close();
  });

  it('closes a connection that has not subscribed in time, even if it pings or keeps failing to subscribe', async () => {
    const game = await local.service.createGame({ ruleset: 'dice', options: { sides: ['red', 'blue'] } });
    const url = pushUrl(local.url);
    const pinging = await PushClient.open(url);
    const failing = await PushClient.open(url);
    const following = await PushClient.open(url);
    following.subscribe(game.gameId, game.tokens.players.red, 0);
    await following.next((m) => m.type === 'subscribed');
    // Bounded: 12 rounds of 100 ms, three times the 400 ms allowed.
    for (let round = 0; round < 12; round++) {
      if (!pinging.closed) pinging.send({ action: 'ping' });
      if (!failing.closed) failing.subscribe(game.gameId, 'arb_not-a-token', 0);
      await pause(100);
    }
    const unsubscribedClosed = [pinging, failing].filter((c) => c.closed?.code === 1008).length;
    figure(SECTION, 'connections with no accepted subscribe after 1.2 s (400 ms allowed) closed', `${unsubscribedClosed} of 2`);
    expect(pinging.closed?.code).toBe(1008);
    expect(failing.closed?.code).toBe(1008);
    expect(following.closed).toBeUndefined();
    expect(JSON.stringify(failing.messages)).not.toContain('arb_not-a-token');
    await following.close();
  });
});
