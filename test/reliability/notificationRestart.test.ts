import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '../support/httpClient';
import { useNpmStart } from '../support/npmStart';
import { startReceiver } from '../support/webhookReceiver';

const { start } = useNpmStart();
const receivers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((close) => close()));
});

describe('a server killed between a commit and its notification', () => {
  it('delivers it after the restart, once, with the same webhook-id', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'arbiter-i33-notify-')), 'data');
    let answering = false;
    const hook = await startReceiver(() => (answering ? undefined : 'hold'));
    receivers.push(hook.close);
    const env = { ARBITER_NOTIFY_ALLOW_LOOPBACK: '1' };

    const first = await start(dataDir, env);
    const client = new TestClient(first.url);
    const game = await client.createGame({ ruleset: 'dice', title: 'restart' });
    const subscribed = await client.post(`/games/${game.gameId}/subscriptions`, { kind: 'webhook', url: `${hook.url}/hook` }, game.tokens.organizer);
    expect(subscribed.status).toBe(201);
    const roll = { commandId: 'r1', type: 'Roll', payload: { dice: '2d6', purpose: 'before the crash' } };
    expect((await client.command(game.gameId, game.tokens.players.player1!, roll)).status).toBe(201);
    // The delivery is under way and unanswered when the process dies.
    await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBe(1);
    const messageId = `msg_${subscribed.body.subscriptionId}_2_2`;
    expect(hook.received[0]!.headers['webhook-id']).toBe(messageId);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;

    answering = true;
    const second = await start(dataDir, env);
    await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBe(2);
    expect(hook.received[1]!.headers['webhook-id']).toBe(messageId);
    expect(JSON.parse(hook.received[1]!.body).data.notices[0].purposes).toEqual(['before the crash']);
    // The next commit comes after it: the cursor moved past the first, which is not sent again.
    const next = new TestClient(second.url);
    expect((await next.command(game.gameId, game.tokens.players.player2!, { ...roll, commandId: 'r2', payload: { dice: '1d6', purpose: 'after' } })).status).toBe(201);
    await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBe(3);
    expect(hook.received.map((r) => r.headers['webhook-id'])).toEqual([messageId, messageId, `msg_${subscribed.body.subscriptionId}_3_3`]);
  });
});
