import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SWEEP_GRACE_MS } from '../../../functions/application/gameExpiry';
import { startLocalService, type LocalService } from '../../../functions/local/localService';
import { TestClient } from '../../support/httpClient';

const DAY = 24 * 60 * 60 * 1000;
let clock = Date.parse('2026-11-23T10:30:00.000Z');
let local: LocalService;
let client: TestClient;

beforeAll(async () => {
  local = await startLocalService({ expiry: { afterDays: 7 }, creationQuota: { perHour: 3 }, now: () => new Date(clock).toISOString() });
  client = new TestClient(local.url);
});
afterAll(async () => {
  await local?.close();
});

describe('the local server with ARBITER_ABANDONED_GAME_DAYS and ARBITER_CREATION_QUOTA_PER_HOUR', () => {
  it('answers the creation past the quota with 429, Retry-After and the reason, and creates again the next hour', async () => {
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await client.post('/games', { ruleset: 'dice' }));
    expect(created.map((r) => r.status)).toEqual([201, 201, 201]);
    const refused = await client.post('/games', { ruleset: 'dice' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(30 * 60));
    expect(refused.body.error).toMatchObject({ code: 'creation_quota', details: { perHour: 3, retryAfterSeconds: 1800 } });
    expect((await client.post('/tournaments', { name: 'Cup' })).status).toBe(429);
    clock += 30 * 60 * 1000;
    expect((await client.post('/games', { ruleset: 'dice' })).status).toBe(201);
  });

  it('refuses commands to an abandoned game with 410, then deletes it on the sweep; a sealed game stays', async () => {
    clock += 60 * 60 * 1000;
    const game = await client.createGame();
    const sealed = await client.createGame();
    expect((await client.command(sealed.gameId, sealed.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} })).status).toBe(201);
    const view = await client.get(`/games/${game.gameId}`, game.tokens.organizer);
    expect(view.body.abandonedAt).toBe(new Date(clock + 7 * DAY).toISOString());
    clock += 7 * DAY;
    const refused = await client.command(game.gameId, game.tokens.players.player1, { commandId: 'late', type: 'Roll', payload: { dice: 'd6', purpose: 'late' } });
    expect(refused.status).toBe(410);
    expect(refused.body.error.code).toBe('game_abandoned');
    // Not yet due: the lease ends with the day's end, the policy's days, the grace and the game's spread (up to a day).
    expect((await local.sweeper!.sweep()).deleted).toBe(0);
    clock += 2 * DAY + SWEEP_GRACE_MS;
    const swept = await local.sweeper!.sweep();
    expect(swept.deleted).toBeGreaterThanOrEqual(1);
    expect((await client.get(`/games/${game.gameId}`, game.tokens.organizer)).status).toBe(404);
    expect((await client.get(`/games/${game.gameId}/export`, game.tokens.organizer)).status).toBe(404);
    expect((await client.get(`/games/${sealed.gameId}/export`, sealed.tokens.organizer)).status).toBe(200);
  });
});
