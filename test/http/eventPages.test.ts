import { beforeAll, describe, expect, it } from 'vitest';
import type { Commit } from '../../domain/fairness/hashChain';
import { cappedEvents, MAX_PAGE_BYTES, type EventPage } from '../../functions/application/eventPages';
import type { GameService } from '../../functions/application/gameService';
import { gameHandlers } from '../../functions/http/gameHandlers';
import type { HttpEvent } from '../../functions/http/respond';
import { memoryService } from '../support/memoryService';

const eventsEvent = (gameId: string, token: string, query: Record<string, string>, headers: Record<string, string> = {}): HttpEvent =>
  ({
    version: '2.0',
    routeKey: 'GET /games/{id}/events',
    rawPath: `/games/${gameId}/events`,
    rawQueryString: new URLSearchParams(query).toString(),
    headers: { authorization: `Bearer ${token}`, ...headers },
    queryStringParameters: query,
    pathParameters: { id: gameId },
    requestContext: { http: { method: 'GET', path: `/games/${gameId}/events` }, requestId: 'r' },
    isBase64Encoded: false,
  }) as unknown as HttpEvent;

/** 700 rolls of 100 dice with long purposes: about 3 KB a commit, 2 MB in all, twice a page's cap. */
const ROLLS = 700;
let service: GameService;
let gameId: string;
let token: string;
let handlers: ReturnType<typeof gameHandlers>;

beforeAll(async () => {
  ({ service } = memoryService('pages'));
  const created = await service.createGame({ ruleset: 'dice' });
  ({ gameId } = created);
  token = created.tokens.players.player1;
  for (let i = 0; i < ROLLS; i++) await service.submit(gameId, token, { commandId: `r${i}`, type: 'Roll', payload: { dice: '100d6', purpose: `${i} ${'x'.repeat(190)}` } });
  handlers = gameHandlers(service);
}, 30_000);

describe('GET /games/{id}/events is capped by bytes as well as by count', () => {
  it(`stops before the body passes ${MAX_PAGE_BYTES} bytes, whatever the limit; the pages together hold every commit once`, async () => {
    const seqs: number[] = [];
    let after = 0;
    const sizes: number[] = [];
    for (let pages = 0; pages < 10 && after < ROLLS + 1; pages++) {
      const answer = await handlers.listEvents(eventsEvent(gameId, token, { after: String(after), limit: '1000' }));
      expect(answer.statusCode).toBe(200);
      expect(answer.headers.etag).toBe(`"${ROLLS + 1}"`);
      sizes.push(Buffer.byteLength(answer.body!));
      const page = JSON.parse(answer.body!) as { version: number; commits: Commit[] };
      expect(page.version).toBe(ROLLS + 1);
      seqs.push(...page.commits.map((c) => c.seq));
      after = page.commits.at(-1)!.seq;
    }
    expect(seqs).toEqual(Array.from({ length: ROLLS + 1 }, (_, i) => i + 1));
    expect(sizes.length).toBeGreaterThan(1);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(MAX_PAGE_BYTES);
    // Full pages are nearly full: the cap is the only thing that cut them.
    for (const size of sizes.slice(0, -1)) expect(size).toBeGreaterThan(MAX_PAGE_BYTES - 4 * 1024);
  });

  it('keeps count limits below the cap, and the text/plain lines follow the same commits', async () => {
    const json = JSON.parse((await handlers.listEvents(eventsEvent(gameId, token, { after: '5', limit: '7' }))).body!);
    expect(json.commits.map((c: Commit) => c.seq)).toEqual([6, 7, 8, 9, 10, 11, 12]);
    const capped = JSON.parse((await handlers.listEvents(eventsEvent(gameId, token, { after: '0', limit: '1000' }))).body!);
    const lines = (await handlers.listEvents(eventsEvent(gameId, token, { after: '0', limit: '1000' }, { accept: 'text/plain' }))).body!.trim().split('\n');
    expect(lines).toHaveLength(capped.commits.length);
    expect(lines.at(-1)).toMatch(new RegExp(`^#${capped.commits.at(-1).seq} `));
  });

  it('always holds at least one commit, even one larger than the cap', async () => {
    const page = await cappedEvents(service, gameId, token, 10, 1000, 0, 100);
    expect(page.commits.map((c) => c.seq)).toEqual([11]);
    expect(Buffer.byteLength(JSON.stringify(page.commits[0]))).toBeGreaterThan(100);
    const empty = await cappedEvents(service, gameId, token, ROLLS + 1, 1000, 0, 100);
    expect(empty.commits).toEqual([]);
  });

  it('keeps the version of its first read: commits stored while it reads on are left for the next page', async () => {
    const { service: small } = memoryService('pages-race');
    const created = await small.createGame({ ruleset: 'dice' });
    const player = created.tokens.players.player1;
    for (let i = 0; i < 150; i++) await small.submit(created.gameId, player, { commandId: `s${i}`, type: 'Roll', payload: { dice: 'd6', purpose: 'p' } });
    const calls: number[] = [];
    const racing = {
      events: async (...args: Parameters<GameService['events']>): Promise<EventPage> => {
        calls.push(args[3]);
        // Another command lands between the page's reads.
        if (calls.length === 2) await small.submit(created.gameId, player, { commandId: 'late', type: 'Roll', payload: { dice: 'd6', purpose: 'late' } });
        return small.events(...args);
      },
    } as unknown as GameService;
    const page = await cappedEvents(racing, created.gameId, player, 0, 1000, 0);
    expect(page.version).toBe(151);
    expect(page.commits.map((c) => c.seq)).toEqual(Array.from({ length: 151 }, (_, i) => i + 1));
    // Small commits: the first read of 100, then one more sized from them.
    expect(calls).toEqual([100, 900]);
  });

  it('reads a page of large commits in a few reads, never many', async () => {
    let reads = 0;
    const counting = { events: (...args: Parameters<GameService['events']>) => (reads++, service.events(...args)) } as unknown as GameService;
    const page = await cappedEvents(counting, gameId, token, 0, 1000, 0);
    expect(page.commits.length).toBeGreaterThan(100);
    expect(reads).toBeLessThanOrEqual(3);
  });
});
