import { request } from 'node:http';
import { connect as connectTcp, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../functions/local/localService';
import { TestClient } from '../../support/httpClient';
import { PushClient, pushUrl, type Pushed } from '../../support/pushClient';

/** Plain bodies: what is under test here is the push channel, not response compression. */
class PlainClient extends TestClient {
  override request(method: string, path: string, options: Parameters<TestClient['request']>[2] = {}) {
    return super.request(method, path, { ...options, headers: { 'accept-encoding': 'identity', ...options.headers } });
  }
}

let local: LocalService;
let client: TestClient;
let url: string;
const opened: PushClient[] = [];

beforeAll(async () => {
  local = await startLocalService({ observer: { unexpected: (error) => console.error(`unexpected in test server: ${error.stack}`) } });
  client = new PlainClient(local.url);
  url = pushUrl(local.url);
});
afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  await local?.close();
});

const connect = async (headers?: Record<string, string>) => {
  const c = await PushClient.open(url, headers);
  opened.push(c);
  return c;
};
const roll = (gameId: string, token: string, commandId: string, purpose = 'push test') =>
  client.command(gameId, token, { commandId, type: 'Roll', payload: { dice: '2d6', purpose } });
const newGame = (body: Record<string, unknown> = {}) => client.createGame({ ruleset: 'dice', title: 'pushed', options: { sides: ['red', 'blue'] }, ...body });
const isCommit = (seq: number) => (m: Pushed) => m.type === 'commit' && m.commit.seq === seq;
const isError = (m: Pushed) => m.type === 'error';
const quiet = (ms = 150) => new Promise((resolve) => setTimeout(resolve, ms));

describe('push over WebSocket on the local server (docs/push.md)', () => {
  it('sends each commit another client makes, in order, with the chat-log line GET events gives', async () => {
    const game = await newGame();
    const red = await connect();
    red.subscribe(game.gameId, game.tokens.players.red, 1);
    expect(await red.next((m) => m.type === 'subscribed')).toEqual({ type: 'subscribed', gameId: game.gameId, version: 1, after: 1 });
    for (let i = 1; i <= 5; i++) expect((await roll(game.gameId, game.tokens.players.blue, `b${i}`, `volley ${i}`)).status).toBe(201);
    await red.next(isCommit(6));
    expect(red.commits(game.gameId)).toEqual([2, 3, 4, 5, 6]);

    const page = await client.get(`/games/${game.gameId}/events?after=1`, game.tokens.players.red);
    const lines = await client.get(`/games/${game.gameId}/events?after=1`, game.tokens.players.red, { accept: 'text/plain' });
    const pushed = red.messages.filter((m) => m.type === 'commit');
    expect(pushed.map((m) => m.commit)).toEqual(page.body.commits);
    expect(pushed.map((m) => `${m.line}\n`).join('')).toBe(lines.text);
    expect(pushed.every((m) => m.gameId === game.gameId && Object.keys(m).join() === 'type,gameId,commit,line,result')).toBe(true);
    // The result text beside the line: each roll's total.
    expect(pushed.map((m) => m.result)).toEqual(page.body.commits.map((c: { events: { data: { total: number } }[] }) => `total ${c.events[0].data.total}`));
    // No token ever comes back.
    for (const token of [game.tokens.organizer, game.tokens.players.red, game.tokens.players.blue]) expect(red.texts.join('\n')).not.toContain(token);
  });

  it('catches up the commits after N, then goes on live without a gap or a repeat', async () => {
    const game = await newGame();
    for (let i = 1; i <= 4; i++) await roll(game.gameId, game.tokens.players.blue, `c${i}`);
    const blue = await connect();
    blue.subscribe(game.gameId, game.tokens.players.blue, 2);
    await blue.next(isCommit(5));
    expect(blue.messages[0]).toEqual({ type: 'subscribed', gameId: game.gameId, version: 5, after: 2 });
    await roll(game.gameId, game.tokens.players.red, 'live');
    await blue.next(isCommit(6));
    expect(blue.commits()).toEqual([3, 4, 5, 6]);

    // From 0: the whole game; and a subscribe at the current version sends nothing old.
    const whole = await connect();
    whole.subscribe(game.gameId, game.tokens.organizer, 0);
    await whole.next(isCommit(6));
    expect(whole.commits()).toEqual([1, 2, 3, 4, 5, 6]);
    const now = await connect();
    now.subscribe(game.gameId, game.tokens.organizer, 6);
    await now.next((m) => m.type === 'subscribed');
    await quiet();
    expect(now.commits()).toEqual([]);

    // Past the version, or too far behind: refused, with words that say what to do.
    now.subscribe(game.gameId, game.tokens.organizer, 7);
    expect(await now.next(isError)).toMatchObject({ code: 'invalid_request', gameId: game.gameId, message: expect.stringMatching(/past this game's version/) });
  });

  it('refuses whom a read refuses: no token, a wrong or another game\'s token, an unknown game; revoked and reissued-away tokens', async () => {
    const game = await newGame();
    const other = await newGame();
    const c = await connect();
    const refusal = async (gameId: string, token: string | undefined) => {
      const from = c.messages.length;
      c.subscribe(gameId, token, 0);
      return c.next(isError, 3000, from);
    };
    expect(await refusal(game.gameId, undefined)).toMatchObject({ type: 'error', code: 'unauthenticated', gameId: game.gameId });
    expect(await refusal(game.gameId, 'arb_not-a-token')).toMatchObject({ code: 'unauthenticated' });
    expect(await refusal(game.gameId, other.tokens.organizer)).toMatchObject({ code: 'unauthenticated' });
    expect(await refusal('g-no-such-game', game.tokens.organizer)).toMatchObject({ code: 'not_found', gameId: 'g-no-such-game' });

    expect((await client.request('DELETE', `/games/${game.gameId}/tokens/red`, { token: game.tokens.organizer })).status).toBe(200);
    expect(await refusal(game.gameId, game.tokens.players.red)).toMatchObject({ code: 'unauthenticated' });
    const reissued = await client.post(`/games/${game.gameId}/tokens/blue`, {}, game.tokens.organizer);
    expect(reissued.status).toBe(201);
    expect(await refusal(game.gameId, game.tokens.players.blue)).toMatchObject({ code: 'unauthenticated' });
    const from = c.messages.length;
    c.subscribe(game.gameId, reissued.body.token, 0);
    await c.next((m) => m.type === 'subscribed', 3000, from);
    expect(c.texts.join('\n')).not.toContain(reissued.body.token);
    expect(local.push.stats().subscriptions).toBeGreaterThanOrEqual(1);
  });

  it('ends a live subscription at the commit that revokes or reissues its token, and keeps the others', async () => {
    const game = await newGame();
    const red = await connect();
    const blue = await connect();
    red.subscribe(game.gameId, game.tokens.players.red, 1);
    blue.subscribe(game.gameId, game.tokens.players.blue, 1);
    await red.next((m) => m.type === 'subscribed');
    await blue.next((m) => m.type === 'subscribed');
    await roll(game.gameId, game.tokens.players.blue, 'before');
    await red.next(isCommit(2));
    expect((await client.request('DELETE', `/games/${game.gameId}/tokens/red`, { token: game.tokens.organizer })).status).toBe(200);
    expect(await red.next(isError)).toMatchObject({ code: 'unauthenticated', gameId: game.gameId, message: expect.stringMatching(/no longer reads this game/) });
    await blue.next(isCommit(3));
    await roll(game.gameId, game.tokens.players.blue, 'after');
    await blue.next(isCommit(4));
    await quiet();
    expect(red.commits()).toEqual([2]);
    expect(red.closed).toBeUndefined(); // the connection stays: it may subscribe again with a current token

    const reissued = await client.post(`/games/${game.gameId}/tokens/blue`, {}, game.tokens.organizer);
    expect(await blue.next(isError)).toMatchObject({ code: 'unauthenticated', gameId: game.gameId });
    expect(blue.commits()).toEqual([2, 3, 4]);
    blue.subscribe(game.gameId, reissued.body.token, 4);
    await blue.next(isCommit(5));
  });

  it('lets a spectator link follow, until the link is revoked', async () => {
    const game = await newGame();
    const minted = (await client.post(`/games/${game.gameId}/viewers`, { label: 'stream' }, game.tokens.organizer)).body;
    const kept = (await client.post(`/games/${game.gameId}/viewers`, {}, game.tokens.organizer)).body;
    const viewer = await connect();
    const other = await connect();
    viewer.subscribe(game.gameId, minted.token, 0);
    other.subscribe(game.gameId, kept.token, 0);
    await viewer.next(isCommit(1));
    await other.next(isCommit(1));
    await roll(game.gameId, game.tokens.players.red, 'seen');
    await viewer.next(isCommit(2));
    expect((await client.request('DELETE', `/games/${game.gameId}/viewers/${minted.viewerId}`, { token: game.tokens.organizer })).status).toBe(204);
    expect(await viewer.next(isError)).toMatchObject({ code: 'unauthenticated', gameId: game.gameId, message: expect.stringMatching(/spectator link was revoked/) });
    await roll(game.gameId, game.tokens.players.red, 'unseen');
    await other.next(isCommit(3));
    await quiet();
    expect(viewer.commits()).toEqual([1, 2]);
    const from = viewer.messages.length;
    viewer.subscribe(game.gameId, minted.token, 2);
    expect(await viewer.next(isError, 3000, from)).toMatchObject({ code: 'unauthenticated' });
  });

  it('tells a side named "spectator" from a spectator link', async () => {
    const game = await client.createGame({ ruleset: 'dice', options: { sides: ['spectator', 'player'] } });
    const side = await connect();
    side.subscribe(game.gameId, game.tokens.players.spectator, 0);
    await side.next(isCommit(1));
    expect((await client.request('DELETE', `/games/${game.gameId}/tokens/spectator`, { token: game.tokens.organizer })).status).toBe(200);
    expect(await side.next(isError)).toMatchObject({ code: 'unauthenticated' });
  });

  it('follows a public game without a token, and a tournament\'s game with the tournament\'s token', async () => {
    const open = await newGame({ public: true });
    const anyone = await connect();
    anyone.subscribe(open.gameId, undefined, 0);
    await anyone.next(isCommit(1));
    await roll(open.gameId, open.tokens.players.red, 'public');
    await anyone.next(isCommit(2));

    const tournament = (await client.post('/tournaments', { name: 'Cup' })).body;
    const created = await client.post('/games', { ruleset: 'dice', options: { sides: ['red', 'blue'] } }, tournament.token);
    expect(created.status).toBe(201);
    const organizer = await connect();
    organizer.subscribe(created.body.gameId, tournament.token, 0);
    await organizer.next(isCommit(1));
  });

  it('stops sending after unsubscribe, and leaves nothing behind after 100 connect/close cycles', async () => {
    const game = await newGame();
    const c = await connect();
    c.subscribe(game.gameId, game.tokens.players.red, 1);
    await c.next((m) => m.type === 'subscribed');
    c.send({ action: 'unsubscribe', gameId: game.gameId });
    expect(await c.next((m) => m.type === 'unsubscribed')).toEqual({ type: 'unsubscribed', gameId: game.gameId });
    await roll(game.gameId, game.tokens.players.red, 'unheard');
    await quiet();
    expect(c.commits()).toEqual([]);
    await c.close();

    await expect.poll(() => local.push.stats().connections).toBe(opened.filter((o) => !o.closed).length);
    const before = local.push.stats();
    for (let i = 0; i < 100; i++) {
      const cycle = await PushClient.open(url);
      cycle.subscribe(game.gameId, game.tokens.players.blue, 2);
      await cycle.next((m) => m.type === 'subscribed');
      if (i % 2) await cycle.close();
      else cycle.socket.terminate(); // half of them vanish without a close frame
    }
    await expect.poll(() => local.push.stats()).toEqual(before);
    // Still serving, and the game's commits still reach a new subscriber.
    const after = await connect();
    after.subscribe(game.gameId, game.tokens.players.blue, 2);
    await after.next((m) => m.type === 'subscribed');
    await roll(game.gameId, game.tokens.players.red, 'still');
    await after.next(isCommit(3));
  });

  it('answers hostile messages with an error, never crashes, and keeps serving', async () => {
    const game = await newGame();
    const c = await connect();
    const answer = async (message: string | Buffer, binary = false) => {
      const from = c.messages.length;
      c.socket.send(message, { binary });
      return c.next(() => true, 3000, from);
    };
    const hostile: [string | Buffer, string, RegExp?][] = [
      ['not json', 'invalid_request', /JSON object/],
      ['', 'invalid_request'],
      ['[1,2,3]', 'invalid_request'],
      ['null', 'invalid_request'],
      ['"subscribe"', 'invalid_request'],
      ['{"action":"subscribe"}', 'invalid_request', /gameId/],
      ['{"action":"launch","gameId":"x"}', 'invalid_request', /one of subscribe, unsubscribe, ping/],
      ['{"action":"toString"}', 'invalid_request'],
      ['{"action":"__proto__"}', 'invalid_request'],
      [`{"action":"subscribe","gameId":"${game.gameId}","after":0,"__proto__":{"admin":true}}`, 'invalid_request', /Unknown field "__proto__"/],
      [`{"action":"subscribe","gameId":"${game.gameId}","after":0,"constructor":{"prototype":{"x":1}}}`, 'invalid_request', /constructor/],
      [`{"action":"subscribe","gameId":"${game.gameId}","after":-1}`, 'invalid_request', /after/],
      [`{"action":"subscribe","gameId":"${game.gameId}","after":1.5}`, 'invalid_request'],
      [`{"action":"subscribe","gameId":"${game.gameId}","after":"0"}`, 'invalid_request'],
      [`{"action":"subscribe","gameId":"${game.gameId}","after":1e300}`, 'invalid_request'],
      [`{"action":"subscribe","gameId":"${game.gameId}","after":0,"token":{"$ne":null}}`, 'invalid_request', /token/],
      [`{"action":"subscribe","gameId":{"S":"x"},"after":0}`, 'invalid_request'],
      ['{"action":"subscribe","gameId":"__proto__","after":0}', 'not_found'],
      ['{"action":"subscribe","gameId":"../../etc","after":0}', 'not_found'],
      [`{"action":"subscribe","gameId":"${'g'.repeat(129)}","after":0}`, 'invalid_request'],
      ['{"action":"ping","extra":1}', 'invalid_request'],
      [`{"action":"subscribe","gameId":"${game.gameId}","after":0,"pad":"${'x'.repeat(5000)}"}`, 'payload_too_large', /at most 4096 bytes/],
      [Buffer.from([0xff, 0xfe, 0x00]), 'invalid_request', /text frames/],
      ['{"action":"ping"'.repeat(200), 'invalid_request'],
      [`${'['.repeat(3000)}`, 'invalid_request'],
    ];
    for (const [message, code, words] of hostile) {
      const reply = await answer(message, Buffer.isBuffer(message));
      expect(reply, String(message).slice(0, 60)).toMatchObject({ type: 'error', code });
      if (words) expect(reply.message).toMatch(words);
      expect(reply.message).not.toMatch(/at .*\.ts|Error:|stack/);
    }
    // A gameId that could be anything is never repeated back.
    const odd = await answer('{"action":"launch","gameId":"<script>alert(1)</script>"}');
    expect(odd.gameId).toBeUndefined();
    expect(await answer('{"action":"ping"}')).toEqual({ type: 'pong' });

    // Past what the transport takes (128 KB): the socket is closed as too big (1009), and only it.
    const huge = await connect();
    huge.socket.send('x'.repeat(200 * 1024));
    expect((await huge.untilClosed()).code).toBe(1009);
    expect(c.closed).toBeUndefined();
    expect((await client.get('/health')).status).toBe(200);
    c.subscribe(game.gameId, game.tokens.organizer, 0);
    await c.next(isCommit(1));
  });

  it('takes upgrades at /push only, as WebSocket only, from its own origin or one CORS allows', async () => {
    const upgrade = (path: string, headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${local.url}${path}`, { headers: { connection: 'Upgrade', ...headers } });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('upgrade', (res, socket) => {
          socket.destroy();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end();
      });
    const ws = { upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' };
    expect(await upgrade('/push', ws)).toBe(101);
    expect(await upgrade('/push?token=x', ws)).toBe(101);
    expect(await upgrade('/games', ws)).toBe(400);
    expect(await upgrade('/health', { upgrade: 'h2c' })).toBe(400);
    expect(await upgrade('/push', { upgrade: 'websocket' })).toBe(400); // no key: ws refuses the handshake
    const { host } = new URL(local.url);
    expect(await upgrade('/push', { ...ws, origin: `http://${host}` })).toBe(101);
    expect(await upgrade('/push', { ...ws, origin: 'http://elsewhere.invalid' })).toBe(403);
    await expect(connect({ origin: 'http://elsewhere.invalid' })).rejects.toMatchObject({ status: 403 });
  });
});

describe('the push channel\'s bounds', () => {
  let small: LocalService;
  let smallClient: TestClient;
  beforeAll(async () => {
    small = await startLocalService({
      corsOrigins: ['http://allowed.invalid'],
      pushLimits: { idleMs: 400, maxSubscriptionsPerConnection: 2, maxSubscribersPerGame: 3, maxCatchUp: 5, maxQueuedMessages: 4, maxBufferedBytes: 256 * 1024, maxConnections: 20 },
    });
    smallClient = new PlainClient(small.url);
  });
  afterAll(async () => {
    await small?.close();
  });
  const open = async () => {
    const c = await PushClient.open(pushUrl(small.url));
    opened.push(c);
    return c;
  };
  const game = () => smallClient.createGame({ ruleset: 'dice', options: { sides: ['red', 'blue'] } });

  it('caps the games per connection, the followers per game and the catch-up', async () => {
    const [a, b, x] = [await game(), await game(), await game()];
    const c = await open();
    c.subscribe(a.gameId, a.tokens.organizer, 1);
    c.subscribe(b.gameId, b.tokens.organizer, 1);
    c.subscribe(x.gameId, x.tokens.organizer, 1);
    expect(await c.next(isError)).toMatchObject({ code: 'too_many_subscriptions', gameId: x.gameId });
    // Subscribing again to a followed game replaces it, within the cap.
    c.subscribe(a.gameId, a.tokens.organizer, 0);
    await c.next(isCommit(1));

    for (let i = 0; i < 2; i++) (await open()).subscribe(a.gameId, a.tokens.organizer, 1);
    await expect.poll(() => small.push.stats().subscriptions).toBe(4);
    const fourth = await open();
    fourth.subscribe(a.gameId, a.tokens.organizer, 1);
    expect(await fourth.next(isError)).toMatchObject({ code: 'too_many_subscribers' });

    for (let i = 0; i < 6; i++) await smallClient.command(x.gameId, x.tokens.players.red, { commandId: `x${i}`, type: 'Roll', payload: { dice: '1d6', purpose: 'p' } });
    const late = await open();
    late.subscribe(x.gameId, x.tokens.organizer, 1);
    expect(await late.next(isError)).toMatchObject({ code: 'too_far_behind', message: expect.stringMatching(/GET \/games\/\{id\}\/events\?after=1/) });
    late.subscribe(x.gameId, x.tokens.organizer, 2);
    await late.next(isCommit(7));
  });

  it('closes an idle connection, and answers a flood with rate_limited', async () => {
    const idle = await open();
    expect(await idle.untilClosed(3000)).toEqual({ code: 1001, reason: expect.stringMatching(/idle/) });
    const g = await game();
    const flood = await open();
    for (let i = 0; i < 30; i++) flood.subscribe(g.gameId, g.tokens.organizer, 0);
    await flood.next((m) => m.type === 'error' && m.code === 'rate_limited');
    await flood.next((m) => m.type === 'subscribed');
  });

  it('drops a client that does not read, instead of buffering for it', async () => {
    const g = await game();
    // A client that subscribes, then never reads a byte again.
    const { port } = new URL(small.url);
    const others = small.push.stats().subscriptions;
    const raw = connectRaw(Number(port));
    await raw.ready;
    raw.sendText(JSON.stringify({ action: 'subscribe', gameId: g.gameId, token: g.tokens.organizer, after: 1 }));
    await expect.poll(() => small.push.stats().subscriptions).toBe(others + 1);
    raw.socket.pause();
    const purpose = 'p'.repeat(200);
    let commits = 0;
    for (let i = 0; i < 300 && small.push.stats().subscriptions > others; i++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, j) => smallClient.command(g.gameId, g.tokens.players.red, { commandId: `s${i}-${j}`, type: 'Roll', payload: { dice: '100d6', purpose } })),
      );
      expect(answers.every((a) => a.status === 201)).toBe(true);
      commits += 10;
    }
    // Dropped once about a megabyte of socket buffers and the 256 KB allowed are full: far fewer than 3000 commits.
    expect(small.push.stats().subscriptions).toBe(others);
    expect(commits).toBeLessThan(3000);
    raw.socket.destroy();
  });

  it('lets in a page of an origin CORS allows', async () => {
    const c = await PushClient.open(pushUrl(small.url), { origin: 'http://allowed.invalid' });
    opened.push(c);
    c.send({ action: 'ping' });
    expect(await c.next(() => true)).toEqual({ type: 'pong' });
  });
});

/** A WebSocket client written by hand on a TCP socket, so that nothing reads for it once paused. */
function connectRaw(port: number): { socket: Socket; ready: Promise<void>; sendText(text: string): void } {
  const socket = connectTcp(port, '127.0.0.1');
  socket.on('error', () => {});
  const ready = new Promise<void>((resolve, reject) => {
    socket.once('connect', () =>
      socket.write('GET /push HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n'),
    );
    socket.once('data', (data) => (data.toString().startsWith('HTTP/1.1 101') ? resolve() : reject(new Error(data.toString()))));
  });
  const sendText = (text: string) => {
    const payload = Buffer.from(text);
    const mask = Buffer.from([1, 2, 3, 4]);
    const header = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
    socket.write(Buffer.concat([header, mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]))]));
  };
  return { socket, ready, sendText };
}
