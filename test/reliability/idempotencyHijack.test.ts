import { DeleteItemCommand, DynamoDBClient, PutItemCommand, ScanCommand, TransactionCanceledException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameService } from '../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../functions/application/signer';
import { hmacTokenMinter } from '../../functions/application/tokenMinter';
import { gameHandlers } from '../../functions/http/gameHandlers';
import type { HttpEvent } from '../../functions/http/respond';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../functions/local/embeddedDynamo';
import { startLocalService, type LocalService } from '../../functions/local/localService';
import { DynamoEventStore } from '../../functions/store/dynamoStore';
import { TestClient } from '../support/httpClient';
import { figure } from './figures';

const SECTION = 'Idempotency keys and the creation quota';
const HOUR = 60 * 60 * 1000;
const freshKey = () => randomBytes(24).toString('base64url');
const allTokens = (created: { tokens: { organizer: string; players: Record<string, string> } }) => [created.tokens.organizer, ...Object.values(created.tokens.players)];
const silent = { unexpected: (error: Error) => console.error(`unexpected: ${error.stack}`) };

/** A local server whose clock the test moves. */
async function serverWithClock(start: number, options: { quotaPerHour?: number } = {}) {
  const clock = { at: start };
  const local = await startLocalService({ now: () => new Date(clock.at).toISOString(), observer: silent, ...(options.quotaPerHour ? { creationQuota: { perHour: options.quotaPerHour } } : {}) });
  return { local, client: new TestClient(local.url), clock };
}

/** POST from a chosen loopback source address (127.0.0.0/8 is all this machine's), with any headers. */
function postFrom(local: LocalService, localAddress: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: '127.0.0.1', port: local.port, localAddress, method: 'POST', path, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }, timeout: 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') }));
      },
    );
    sent.on('timeout', () => sent.destroy(new Error('timed out')));
    sent.on('error', reject);
    sent.end(text);
  });
}

describe('Idempotency-Key on POST /games cannot be turned against its owner', () => {
  let server: Awaited<ReturnType<typeof serverWithClock>>;
  beforeAll(async () => {
    server = await serverWithClock(Date.now());
  });
  afterAll(async () => {
    await server?.local.close();
  });

  it('refuses keys a stranger could guess, so a game pre-created under one is never handed to the victim', async () => {
    const body = { ruleset: 'dice', title: 'Club night' };
    const guessable = ['a', '1', 'game-1', 'table-3', 'club-night', '2026-11-27', 'x'.repeat(21), 'has space in it but is long enough'];
    let refused = 0;
    for (const key of guessable) {
      // The attacker goes first, the victim's client second with the same key and body.
      for (const who of ['attacker', 'victim']) {
        const reply = await server.client.post('/games', body, undefined, { 'idempotency-key': key });
        expect([reply.status, reply.body.error?.code, reply.body.error?.details?.issues?.[0]?.field], `${who} with ${JSON.stringify(key)}`).toEqual([400, 'invalid_request', 'Idempotency-Key']);
        expect(reply.body.tokens).toBeUndefined();
        refused++;
      }
    }
    // The documented forms are taken: a UUID and 22 or more base64url characters.
    for (const key of [randomUUID(), freshKey(), randomBytes(16).toString('base64url')]) {
      expect((await server.client.post('/games', body, undefined, { 'idempotency-key': key })).status, key).toBe(201);
    }
    figure(SECTION, 'guessable keys refused (attacker and victim each)', `${refused} of ${guessable.length * 2}`);
  });

  it('scopes a key to the tournament token it comes with: the same key without it, or under another tournament, is another record', async () => {
    const { client } = server;
    const body = { ruleset: 'dice', title: 'Round 1' };
    const [cup, league] = [(await client.post('/tournaments', { name: 'Cup' })).body, (await client.post('/tournaments', { name: 'League' })).body];
    const key = { 'idempotency-key': freshKey() };
    // Someone who learned the key creates first, without the organizer's token.
    const stranger = await client.post('/games', body, undefined, key);
    const organizer = await client.post('/games', body, cup.token, key);
    const other = await client.post('/games', body, league.token, key);
    expect([stranger.status, organizer.status, other.status]).toEqual([201, 201, 201]);
    expect([organizer.body.tournamentId, other.body.tournamentId]).toEqual([cup.tournamentId, league.tournamentId]);
    expect(new Set([stranger.body.gameId, organizer.body.gameId, other.body.gameId]).size).toBe(3);
    const strangerTokens = new Set(allTokens(stranger.body));
    expect(allTokens(organizer.body).filter((t) => strangerTokens.has(t))).toEqual([]);
    // Each replay answers its own game, and the stranger's replay names nothing of the organizer's.
    expect((await client.post('/games', body, cup.token, key)).body).toEqual(organizer.body);
    const strangerAgain = await client.post('/games', body, undefined, key);
    expect(strangerAgain.body).toEqual(stranger.body);
    expect(strangerAgain.text).not.toContain(organizer.body.gameId);
    expect((await client.get(`/tournaments/${cup.tournamentId}`, cup.token)).body.games.map((g: { gameId: string }) => g.gameId)).toEqual([organizer.body.gameId]);
  });

  it('answers a replay with another body 422 idempotency_key_reused, and creates nothing', async () => {
    const key = { 'idempotency-key': freshKey() };
    const first = await server.client.post('/games', { ruleset: 'dice' }, undefined, key);
    const changed = await server.client.post('/games', { ruleset: 'dice', title: 'changed' }, undefined, key);
    expect([first.status, changed.status, changed.body.error.code]).toEqual([201, 422, 'idempotency_key_reused']);
    expect(changed.body.tokens).toBeUndefined();
  });

  it('after its day, a key creates a new game sharing no token with the old one; the local server never answers 503 for it', async () => {
    const { client, clock } = server;
    const body = { ruleset: 'dice', title: 'Weekly' };
    const key = { 'idempotency-key': freshKey() };
    clock.at = Date.now() - 25 * HOUR;
    const old = await client.post('/games', body, undefined, key);
    clock.at = Date.now();
    const fresh = await client.post('/games', body, undefined, key);
    expect([old.status, fresh.status]).toEqual([201, 201]);
    expect(fresh.body.gameId).not.toBe(old.body.gameId);
    const oldTokens = new Set(allTokens(old.body));
    expect(allTokens(fresh.body).filter((t) => oldTokens.has(t))).toEqual([]);
    expect((await client.get(`/games/${fresh.body.gameId}`, old.body.tokens.organizer)).status).toBe(401);
    // The old game is untouched, and the key now answers the new game.
    expect((await client.get(`/games/${old.body.gameId}`, old.body.tokens.organizer)).body.role).toBe('organizer');
    expect((await client.post('/games', body, undefined, key)).body).toEqual(fresh.body);
  });
});

describe('Idempotency-Key on DynamoDB (the deployed store)', () => {
  let dynamo: EmbeddedDynamo;
  beforeAll(async () => {
    dynamo = await startEmbeddedDynamo();
  });
  afterAll(async () => {
    await dynamo?.close();
  });

  const sharedKeys = () => ({ signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()), tokenMinter: hmacTokenMinter(newSeedKey()) });
  const createEvent = (key: string, body: unknown): HttpEvent =>
    ({
      version: '2.0',
      routeKey: 'POST /games',
      rawPath: '/games',
      rawQueryString: '',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      requestContext: { http: { method: 'POST', path: '/games', protocol: 'HTTP/1.1', sourceIp: '198.51.100.20', userAgent: 'test' }, requestId: 'r', routeKey: 'POST /games', stage: '$default', timeEpoch: Date.now() },
      body: JSON.stringify(body),
      isBase64Encoded: false,
    }) as unknown as HttpEvent;

  it('once DynamoDB\'s TTL has deleted the record, the key creates a game whose tokens share nothing with the old game\'s', async () => {
    const service = new GameService({ store: new DynamoEventStore(dynamo.client, dynamo.tableName), ...sharedKeys() });
    const key = freshKey();
    const old = await service.createGame({ ruleset: 'dice' }, undefined, key);
    // As the table's TTL does some time after expiresAt: every idempotency record goes.
    const records = (await dynamo.client.send(new ScanCommand({ TableName: dynamo.tableName, FilterExpression: 'begins_with(pk, :p)', ExpressionAttributeValues: { ':p': { S: 'idempotency#' } } }))).Items ?? [];
    expect(records.length).toBeGreaterThan(0);
    for (const item of records) await dynamo.client.send(new DeleteItemCommand({ TableName: dynamo.tableName, Key: { pk: item.pk, sk: item.sk } }));
    const fresh = await service.createGame({ ruleset: 'dice' }, undefined, key);
    expect(fresh.gameId).not.toBe(old.gameId);
    const oldTokens = new Set(allTokens(old));
    expect(allTokens(fresh).filter((t) => oldTokens.has(t))).toEqual([]);
    await expect(service.view(fresh.gameId, old.tokens.organizer)).rejects.toMatchObject({ status: 401 });
  });

  it('a pair sent at once to two processes, one transaction canceled by TransactionConflict: one game, a replay or a retryable 409, never a 500', async () => {
    const keys = sharedKeys();
    const inFlight = new Set<string>();
    let arrived = 0;
    let letFirstGo: () => void = () => {};
    const secondArrived = new Promise<void>((resolve) => (letFirstGo = resolve));
    let conflicts = 0;
    /** TransactWriteItems as DynamoDB answers two at once on one item: the later is canceled with TransactionConflict while the earlier is in flight. */
    const transacting = {
      send: async (command: { constructor: { name: string }; input: any }) => {
        if (command.constructor.name !== 'TransactWriteItemsCommand') return dynamo.client.send(command as never);
        const puts: { TableName: string; Item: Record<string, AttributeValue>; ConditionExpression?: string; ExpressionAttributeValues?: Record<string, AttributeValue> }[] = command.input.TransactItems.map((item: { Put: unknown }) => item.Put);
        const itemKeys = puts.map((put) => `${put.Item.pk.S}|${put.Item.sk.N}`);
        arrived++;
        if (itemKeys.some((k) => inFlight.has(k))) {
          conflicts++;
          letFirstGo();
          throw new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: itemKeys.map((k) => ({ Code: inFlight.has(k) ? 'TransactionConflict' : 'None' })) });
        }
        for (const k of itemKeys) inFlight.add(k);
        try {
          if (arrived === 1) await Promise.race([secondArrived, new Promise((resolve) => setTimeout(resolve, 10_000))]);
          const done: typeof puts = [];
          for (const [index, put] of puts.entries()) {
            try {
              await dynamo.client.send(new PutItemCommand(put));
              done.push(put);
            } catch (error) {
              if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
              for (const landed of done) await dynamo.client.send(new DeleteItemCommand({ TableName: landed.TableName, Key: { pk: landed.Item.pk, sk: landed.Item.sk } }));
              throw new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: puts.map((_, i) => ({ Code: i === index ? 'ConditionalCheckFailed' : 'None' })) });
            }
          }
          return {};
        } finally {
          for (const k of itemKeys) inFlight.delete(k);
        }
      },
    } as unknown as DynamoDBClient;
    const processes = [0, 1].map(() => gameHandlers(new GameService({ store: new DynamoEventStore(transacting, dynamo.tableName, { transactions: true }), ...keys }), silent));
    const key = freshKey();
    const body = { ruleset: 'dice', title: 'at once' };
    const answers = await Promise.all(processes.map((handlers) => handlers.createGame(createEvent(key, body))));
    expect(conflicts).toBe(1);
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.every((s) => s === 201 || s === 409), String(statuses)).toBe(true);
    expect(statuses).toContain(201);
    const winner = JSON.parse(answers.find((a) => a.statusCode === 201)!.body!);
    for (const [i, answer] of answers.entries()) {
      if (answer.statusCode === 201) {
        expect(JSON.parse(answer.body!)).toEqual(winner);
        continue;
      }
      expect(JSON.parse(answer.body!).error.code).toBe('idempotency_key_in_use');
      expect(Number(answer.headers?.['retry-after'])).toBeGreaterThan(0);
      const retried = await processes[i].createGame(createEvent(key, body));
      expect([retried.statusCode, JSON.parse(retried.body!)]).toEqual([201, winner]);
    }
    figure(SECTION, 'concurrent pair with a TransactionConflict: answers', statuses.join(' and '));
  });
});

describe('the creation quota counts each client once, and only creations', () => {
  const PER_HOUR = 3;
  let server: Awaited<ReturnType<typeof serverWithClock>>;
  // A fixed hour, so that no test straddles the end of a quota window; each test moves on an hour.
  const start = Date.parse('2026-11-27T08:00:00.000Z');
  beforeAll(async () => {
    server = await serverWithClock(start, { quotaPerHour: PER_HOUR });
  });
  afterAll(async () => {
    await server?.local.close();
  });

  it('counts a tournament\'s games against the client that created the tournament; a refused one lists nothing', async () => {
    const { client, clock } = server;
    clock.at = start + 1 * HOUR;
    const cup = (await client.post('/tournaments', { name: 'Cup' })).body;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await client.post('/games', { ruleset: 'dice', title: `Table ${i}` }, cup.token)).status);
    expect(statuses).toEqual([201, 201, 429, 429, 429, 429]);
    expect((await client.get(`/tournaments/${cup.tournamentId}`, cup.token)).body.games).toHaveLength(2);
    figure(SECTION, `tournament games created with one token, quota ${PER_HOUR}/hour (tournament included)`, `${statuses.filter((s) => s === 201).length} of 6`);
  });

  it('counts every loopback address as one client, whatever X-Forwarded-For says', async () => {
    const { local, clock } = server;
    clock.at = start + 2 * HOUR;
    const statuses: number[] = [];
    for (const from of ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.1.2.3']) {
      for (let i = 0; i < 2; i++) {
        const reply = await postFrom(local, from, '/games', { ruleset: 'dice' }, { 'x-forwarded-for': `203.0.113.${statuses.length + 1}`, 'x-real-ip': `198.51.100.${statuses.length + 1}` });
        statuses.push(reply.status);
      }
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8 - PER_HOUR);
    figure(SECTION, `creations from 4 loopback addresses with spoofed forwarding headers, quota ${PER_HOUR}/hour`, `${statuses.filter((s) => s === 201).length} of 8 created`);
  });

  it('spends no quota on refused creations', async () => {
    const { client, clock } = server;
    clock.at = start + 3 * HOUR;
    const key = { 'idempotency-key': freshKey() };
    const refusals = [
      await client.post('/games', { ruleset: 'dice', options: { sides: ['only one'] } }),
      await client.post('/games', { ruleset: 'dice', options: { sides: 'not a list' } }),
      await client.post('/games', { ruleset: 'france44', options: { nonsense: true } }),
      await client.post('/games', { ruleset: 'no-such-ruleset' }),
      await client.post('/games', { ruleset: 'dice', surplus: 1 }),
      await client.post('/games', { ruleset: 'dice' }, undefined, { 'idempotency-key': 'short' }),
      await client.post('/games', { ruleset: 'dice' }, 'not-a-tournament-token'),
      await client.post('/tournaments', { name: 7 }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 400, 401, 400]);
    const created = [];
    for (let i = 0; i < PER_HOUR; i++) created.push((await client.post('/games', { ruleset: 'dice' }, undefined, i === 0 ? key : undefined)).status);
    // A replay of the first is not counted again; a replay with another body is refused and not counted either.
    expect((await client.post('/games', { ruleset: 'dice' }, undefined, key)).status).toBe(201);
    expect((await client.post('/games', { ruleset: 'dice', title: 'other' }, undefined, key)).status).toBe(422);
    expect(created).toEqual(Array(PER_HOUR).fill(201));
    expect((await client.post('/games', { ruleset: 'dice' })).status).toBe(429);
    figure(SECTION, `refused creations before the quota (${PER_HOUR}/hour) / creations still allowed`, `${refusals.length} / ${created.length}`);
  });
});
