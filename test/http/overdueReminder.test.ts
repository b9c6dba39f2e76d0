import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../functions/local/localService';
import { TestClient } from '../support/httpClient';
import { startReceiver } from '../support/webhookReceiver';

describe('the local server reminds an overdue side', () => {
  const clock = { ms: Date.parse('2026-11-27T10:00:00.000Z') };
  let local: LocalService;
  let client: TestClient;
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    hook = await startReceiver();
    local = await startLocalService({
      now: () => new Date(clock.ms).toISOString(),
      notifyTickEveryMs: 50,
      notifications: { allowLoopback: true, engine: { nowMs: () => clock.ms } },
      observer: { unexpected: (error) => console.error(`unexpected in test server: ${error.stack}`) },
    });
    client = new TestClient(local.url);
  });
  afterAll(async () => {
    await local?.close();
    await hook?.close();
  });

  it('from its own timer, once its move is past the time control', async () => {
    const created = clock.ms;
    const { gameId, tokens } = await client.createGame({ ruleset: 'dice', title: 'Clocked', options: { sides: ['north', 'south'] }, timeControl: { perMoveSeconds: 60 } });
    expect((await client.post(`/games/${gameId}/subscriptions`, { kind: 'webhook', url: `${hook.url}/arbiter` }, tokens.organizer)).status).toBe(201);
    clock.ms += 61_000;
    await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const body = JSON.parse(hook.received[0]!.body);
    expect(body).toMatchObject({ type: 'arbiter.reminder', data: { gameId, side: 'north', since: new Date(created).toISOString(), timeControl: { perMoveSeconds: 60 } } });
  });
});
