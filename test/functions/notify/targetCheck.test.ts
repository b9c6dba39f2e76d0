import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryError } from '../../../functions/notify/channel';
import { postJson, refusedAddress, refusedUrl } from '../../../functions/notify/targetCheck';
import { startReceiver } from '../../support/webhookReceiver';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function receiver(...args: Parameters<typeof startReceiver>) {
  const started = await startReceiver(...args);
  closers.push(started.close);
  return started;
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as DeliveryError,
  );

describe('addresses a notification may go to', () => {
  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::7f00:1', 'IPv4-compatible 127.0.0.1'],
    ['::a00:1', 'IPv4-compatible 10.0.0.1'],
    ['::8.8.8.8', 'IPv4-compatible'],
    ['::ffff:0:a00:1', 'IPv4-translated 10.0.0.1'],
    ['::ffff:0:a9fe:a9fe', 'IPv4-translated 169.254.169.254'],
  ])('refuses %s (%s)', (address, kind) => {
    expect(refusedAddress(address, false)).toBeDefined();
    if (kind !== 'loopback') expect(refusedAddress(address, true)).toBeDefined();
  });

  it.each(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '172.32.0.1', '1.1.1.1'])('allows the public address %s', (address) => {
    expect(refusedAddress(address, false)).toBeUndefined();
  });

  it('refuses loopback unless ARBITER_NOTIFY_ALLOW_LOOPBACK allows it', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1']) {
      expect(refusedAddress(address, false)).toMatch(/loopback/);
      expect(refusedAddress(address, true)).toBeUndefined();
    }
  });
});

describe('target URLs', () => {
  it('must be https; http only to this machine and only when loopback is allowed', () => {
    expect(refusedUrl('https://hooks.example.org/x', false)).toBeUndefined();
    expect(refusedUrl('http://hooks.example.org/x', true)).toBe('must be https');
    expect(refusedUrl('http://127.0.0.1:9/x', false)).toMatch(/ARBITER_NOTIFY_ALLOW_LOOPBACK/);
    expect(refusedUrl('http://127.0.0.1:9/x', true)).toBeUndefined();
    expect(refusedUrl('http://[::1]:9/x', true)).toBeUndefined();
    expect(refusedUrl('ftp://example.org/', true)).toBe('must be https');
    expect(refusedUrl('https://user:pw@example.org/', true)).toMatch(/password/);
    expect(refusedUrl('not a url', true)).toBe('is not a URL');
  });

  it('refuses an IPv4-compatible literal for loopback, even when loopback is allowed', () => {
    expect(refusedUrl('http://[::127.0.0.1]:9/x', true)).toMatch(/reserved/);
    expect(refusedUrl('https://[::7f00:1]/x', true)).toMatch(/reserved/);
  });
});

describe('posting to a target', () => {
  it('refuses a name that resolves to a private address, before connecting, and names no path', async () => {
    const error = await failure(postJson('https://hooks.example.org/secret-path', '{}', {}, { allowLoopback: false, resolve: async () => ['93.184.215.14', '10.0.0.7'] }));
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ retryable: false });
    expect(error!.reason).toMatch(/private/);
    expect(error!.reason).not.toMatch(/secret-path/);
  });

  it('connects to the address it checked, not to a second lookup', async () => {
    const target = await receiver();
    const port = new URL(target.url).port;
    let lookups = 0;
    await postJson(`http://localhost:${port}/hook`, '{"a":1}', {}, {
      allowLoopback: true,
      resolve: async () => {
        lookups++;
        return ['127.0.0.1'];
      },
    });
    expect(lookups).toBe(1);
    expect(target.received.map((r) => [r.path, r.body])).toEqual([['/hook', '{"a":1}']]);
  });

  it('follows up to 3 redirects, each checked, and refuses a fourth', async () => {
    const target = await receiver(({ path }, response) => {
      const hop = Number(/\/hop(\d+)/.exec(path)?.[1] ?? '0');
      if (path.startsWith('/hop') && hop < Number(/to(\d+)/.exec(path)![1])) response.writeHead(307, { location: `/hop${hop + 1}to${/to(\d+)/.exec(path)![1]}` }).end();
    });
    await expect(postJson(`${target.url}/hop0to3`, '{}', {}, { allowLoopback: true })).resolves.toMatchObject({ status: 200 });
    const error = await failure(postJson(`${target.url}/hop0to4`, '{}', {}, { allowLoopback: true }));
    expect(error).toMatchObject({ retryable: false });
    expect(error!.reason).toMatch(/more than 3 redirects/);
  });

  it('refuses a redirect to a link-local address', async () => {
    const target = await receiver((_, response) => void response.writeHead(302, { location: 'https://169.254.169.254/latest/meta-data' }).end());
    const error = await failure(postJson(`${target.url}/hook`, '{}', {}, { allowLoopback: true }));
    expect(error).toMatchObject({ retryable: false });
    expect(error!.reason).toMatch(/link-local/);
  });

  it('refuses a body over 64 KB without sending it', async () => {
    const target = await receiver();
    const error = await failure(postJson(`${target.url}/hook`, JSON.stringify({ pad: 'x'.repeat(64 * 1024) }), {}, { allowLoopback: true }));
    expect(error).toMatchObject({ retryable: false });
    expect(target.received).toHaveLength(0);
  });

  it('reads at most 16 KB of an answer', async () => {
    const target = await receiver((_, response) => void response.writeHead(200).end('y'.repeat(1024 * 1024)));
    const answer = await postJson(`${target.url}/hook`, '{}', {}, { allowLoopback: true });
    expect(answer.body.length).toBe(16 * 1024);
  });

  it('gives up on a receiver that does not answer in time (retryable)', async () => {
    const target = await receiver(() => 'hold');
    const error = await failure(postJson(`${target.url}/hook`, '{}', {}, { allowLoopback: true, timeoutMs: 300 }));
    expect(error).toMatchObject({ retryable: true });
    expect(error!.reason).toMatch(/in time|within/);
  });

  it('gives up within the deadline on a name server that never answers (retryable)', async () => {
    const error = await failure(postJson('https://hooks.example.org/x', '{}', {}, { allowLoopback: false, timeoutMs: 300, resolve: () => new Promise<string[]>(() => undefined) }));
    expect(error).toMatchObject({ retryable: true, reason: 'https://hooks.example.org: its name did not resolve in time' });
  });

  it('tells retryable answers (429, 5xx) from final ones (404)', async () => {
    const target = await receiver(({ path }, response) => void response.writeHead(Number(path.slice(1))).end());
    expect(await failure(postJson(`${target.url}/503`, '{}', {}, { allowLoopback: true }))).toMatchObject({ retryable: true, reason: `${target.url} answered 503` });
    expect(await failure(postJson(`${target.url}/429`, '{}', {}, { allowLoopback: true }))).toMatchObject({ retryable: true });
    expect(await failure(postJson(`${target.url}/404`, '{}', {}, { allowLoopback: true }))).toMatchObject({ retryable: false });
  });
});
