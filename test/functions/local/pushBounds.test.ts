import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../functions/local/localService';
import { PushClient, pushUrl } from '../../support/pushClient';

let local: LocalService;
beforeAll(async () => {
  local = await startLocalService({ pushLimits: { maxConnectionsPerClient: 2 } });
});
afterAll(async () => {
  await local?.close();
});

/** The raw answer to a WebSocket upgrade, as a client that does not speak WebSocket would read it. */
const upgrade = () =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${local.url}/push`, { headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' } });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '' });
    });
    req.on('error', reject);
    req.end();
  });

describe('push connections per client address', () => {
  it('refuses an address past its connections with 429 rate_limited in JSON, and takes it again once one closes', async () => {
    const first = await PushClient.open(pushUrl(local.url));
    const second = await PushClient.open(pushUrl(local.url));
    const refused = await upgrade();
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({ error: { code: 'rate_limited', message: expect.stringMatching(/at most 2 push connections/) } });
    await first.close();
    // The count drops when the server sees the close: bounded retries.
    let again = 0;
    for (let i = 0; i < 20 && again !== 101; i++) {
      again = (await upgrade()).status;
      if (again !== 101) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(again).toBe(101);
    await second.close();
  });
});
