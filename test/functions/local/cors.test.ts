import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../functions/local/localService';
import { TestClient } from '../../support/httpClient';

const allowed = 'http://league.test:3000';
let local: LocalService;
let client: TestClient;
beforeAll(async () => {
  local = await startLocalService({ corsOrigins: [allowed] });
  client = new TestClient(local.url);
});
afterAll(async () => {
  await local?.close();
});

const preflight = (path: string, origin: string, method = 'POST') =>
  client.request('OPTIONS', path, { headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' } });

describe('CORS on the local server (ARBITER_CORS_ORIGINS)', () => {
  it('answers a preflight from a listed origin with what a browser needs, for every route', async () => {
    for (const [path, method] of [['/games', 'POST'], ['/games/g-1/events', 'GET'], ['/games/g-1/viewers/v-1', 'DELETE']]) {
      const reply = await preflight(path, allowed, method);
      expect(reply.status, path).toBe(204);
      expect(reply.headers.get('access-control-allow-origin')).toBe(allowed);
      expect(reply.headers.get('access-control-allow-methods')).toContain(method);
      expect(reply.headers.get('access-control-allow-headers')).toContain('authorization');
      expect(reply.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('lets a listed origin read the answers, ETag and Retry-After included, and no other origin', async () => {
    const game = await client.createGame();
    const events = await client.get(`/games/${game.gameId}/events`, game.tokens.organizer, { origin: allowed });
    expect(events.headers.get('access-control-allow-origin')).toBe(allowed);
    expect(events.headers.get('access-control-expose-headers')).toBe('etag, retry-after');
    expect(events.headers.get('etag')).toBe('"1"');
    const elsewhere = await client.get(`/games/${game.gameId}/events`, game.tokens.organizer, { origin: 'http://elsewhere.test' });
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
    const denied = await preflight('/games', 'http://elsewhere.test');
    expect(denied.status).toBe(204);
    expect(denied.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('still answers 404 to a preflight for a path that does not exist', async () => {
    expect((await preflight('/nowhere', allowed)).status).toBe(404);
  });
});
