import { describe, expect, it } from 'vitest';
import { ProvisionedThroughputExceededException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { GameService } from '../../../functions/application/gameService';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { createHandlers } from '../../../functions/http/handlers';
import { gameHandlers } from '../../../functions/http/gameHandlers';
import { DynamoEventStore } from '../../../functions/store/dynamoStore';
import { StoreUnavailable } from '../../../functions/store/eventStore';
import type { HttpEvent } from '../../../functions/http/respond';
import type { RequestRecord } from '../../../functions/http/observe';
import { memoryService } from '../../support/memoryService';

const noAssets = async () => '';

/** A DynamoDB client that is always throttled. */
const throttled = {
  send: async () => {
    throw new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} });
  },
} as unknown as DynamoDBClient;

const event = (method: string, path: string, routeKey: string, body?: unknown, pathParameters?: Record<string, string>): HttpEvent =>
  ({
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: '',
    headers: { authorization: 'Bearer arb_x' },
    pathParameters,
    requestContext: { http: { method, path }, requestId: 'r' },
    body: body === undefined ? undefined : JSON.stringify(body),
    isBase64Encoded: false,
  }) as unknown as HttpEvent;

describe('a throttled store', () => {
  it('becomes StoreUnavailable in the adapter', async () => {
    const store = new DynamoEventStore(throttled, 't');
    await expect(store.read('g', 0)).rejects.toBeInstanceOf(StoreUnavailable);
  });

  it('is answered 503 unavailable with Retry-After, and nothing in the body but the error', async () => {
    const lines: string[] = [];
    const records: RequestRecord[] = [];
    const service = new GameService({ store: new DynamoEventStore(throttled, 't'), signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()) });
    const handlers = createHandlers(service, noAssets, { unexpected: (error) => lines.push(error.message), request: (r) => records.push(r) });
    const created = await handlers.createGame(event('POST', '/games', 'POST /games', { ruleset: 'dice' }));
    expect(created.statusCode).toBe(503);
    expect(created.headers['retry-after']).toBe('1');
    expect(JSON.parse(created.body!)).toEqual({ error: { code: 'unavailable', message: 'The service is briefly unavailable. Try again shortly with the same commandId: if the command was stored, you get it back; it is never applied twice.' } });
    const command = await handlers.postCommand(
      event('POST', '/games/g-1/commands', 'POST /games/{id}/commands', { commandId: 'a', type: 'Roll', payload: {} }, { id: 'g-1' }),
    );
    expect(command.statusCode).toBe(503);
    expect(lines).toEqual([]);
    expect(records.map(({ latencyMs: _, ...r }) => r)).toEqual([
      { route: 'POST /games', status: 503, outcome: 'error', errorCode: 'unavailable' },
      { route: 'POST /games/{id}/commands', status: 503, outcome: 'error', gameId: 'g-1', errorCode: 'unavailable' },
    ]);
  });

  it('logs an unexpected error once, without the request, and answers a plain 500', async () => {
    const lines: string[] = [];
    const broken = { send: async () => { throw new TypeError('boom'); } } as unknown as DynamoDBClient;
    const service = new GameService({ store: new DynamoEventStore(broken, 't'), signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()) });
    const observer = { unexpected: (error: Error, id: string) => lines.push(`[${id}] ${error.name}: ${error.message}\n${error.stack}`) };
    const reply = await createHandlers(service, noAssets, observer).getGame(event('GET', '/games/g-1', 'GET /games/{id}', undefined, { id: 'g-1' }));
    expect(reply.statusCode).toBe(500);
    expect(reply.body).not.toContain('boom');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('TypeError: boom');
    expect(lines[0]).not.toContain('arb_x');
  });
});

describe('the request record', () => {
  it('holds the route, status, game, seq and command type of an accepted command, and no token', async () => {
    const records: RequestRecord[] = [];
    const { service } = memoryService('records');
    const handlers = createHandlers(service, noAssets, { unexpected: () => {}, request: (r) => records.push(r) });
    const game = await service.createGame({ ruleset: 'dice' });
    const reply = await handlers.postCommand({
      ...event('POST', `/games/${game.gameId}/commands`, 'POST /games/{id}/commands', { commandId: 'a', type: 'Roll', payload: { dice: 'd6', purpose: 'p' } }, { id: game.gameId }),
      headers: { authorization: `Bearer ${game.tokens.players.player1}` },
    });
    expect(reply.statusCode).toBe(201);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ route: 'POST /games/{id}/commands', status: 201, outcome: 'ok', gameId: game.gameId, seq: 2, commandType: 'Roll' });
    expect(JSON.stringify(records)).not.toContain(game.tokens.players.player1);
  });
});

describe('long polls', () => {
  it('hold a request for at most the server\'s limit, whatever wait the client asks (at most 20)', async () => {
    const { service } = memoryService('long-poll');
    const game = await service.createGame({ ruleset: 'dice' });
    const waits: (number | undefined)[] = [];
    const events = service.events.bind(service);
    service.events = (gameId, token, after, limit, wait) => {
      waits.push(wait);
      return events(gameId, token, after, limit, 0);
    };
    const asking = (wait: string) => ({
      ...event('GET', `/games/${game.gameId}/events`, 'GET /games/{id}/events', undefined, { id: game.gameId }),
      headers: { authorization: `Bearer ${game.tokens.organizer}` },
      queryStringParameters: { after: '1', wait },
    });
    const limited = gameHandlers(service, undefined, undefined, 10);
    expect((await limited.listEvents(asking('20'))).statusCode).toBe(200);
    expect((await limited.listEvents(asking('4'))).statusCode).toBe(200);
    expect((await gameHandlers(service).listEvents(asking('20'))).statusCode).toBe(200);
    expect((await limited.listEvents(asking('21'))).statusCode).toBe(400);
    expect(waits).toEqual([10, 4, 20]);
  });
});
