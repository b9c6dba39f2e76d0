import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Commit } from '../../../domain/fairness/hashChain';
import { signedGateway } from '../../../functions/lambda/pushSignedGateway';
import { FAN_OUT_SLICES, fanOutDelivery, fanOutHandler, fanOutMessages, readFanOutMessage, type FanOutMessage } from '../../../functions/push/fanOut';
import type { Gateway, PostOutcome } from '../../../functions/push/gateway';
import { withPollPool, type PollPool } from '../../../functions/push/pollPool';
import type { StoredSubscription, SubscriptionStore } from '../../../functions/push/subscriptionStore';
import type { HttpEvent } from '../../../functions/http/respond';

/** SHA-256 as the SDK's signer asks for it, from node:crypto. */
class Sha256 {
  private readonly hash;
  constructor(secret?: string | Uint8Array) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', secret);
  }
  update(data: string | Uint8Array) {
    this.hash.update(data);
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
}

const sub = (i: number, over: Partial<StoredSubscription> = {}): StoredSubscription => ({
  connectionId: `c-${i}`,
  gameId: 'g-1',
  identity: 'role:blue',
  rulesetId: 'dice',
  after: 0,
  authorizedAt: 0,
  expiresAt: 0,
  slice: i % FAN_OUT_SLICES,
  ...over,
});
const commit = (seq: number): Commit => ({ gameId: 'g-1', seq, actor: 'red', command: { type: 'Roll' }, events: [], hash: `h${seq}` }) as unknown as Commit;

describe('fanOutMessages: a game\'s subscribers split into slices, one FIFO group each', () => {
  it('puts 1,000 subscribers into 64 groups of at most 16, each message naming the commits', () => {
    const messages = fanOutMessages('g-1', { from: 3, to: 7, revokedViewers: new Set() }, Array.from({ length: 1000 }, (_, i) => sub(i)));
    expect(messages).toHaveLength(FAN_OUT_SLICES);
    expect(new Set(messages.map((m) => m.groupId)).size).toBe(FAN_OUT_SLICES);
    const bodies = messages.map((m) => readFanOutMessage(m.body)!);
    expect(bodies.every((b) => b.from === 3 && b.to === 7 && b.targets.length <= 16)).toBe(true);
    expect(bodies.flatMap((b) => b.targets.map((t) => t.connectionId)).sort()).toEqual(Array.from({ length: 1000 }, (_, i) => `c-${i}`).sort());
    // The same batch given again: the same ids, which SQS drops as duplicates.
    expect(fanOutMessages('g-1', { from: 3, to: 7, revokedViewers: new Set() }, Array.from({ length: 1000 }, (_, i) => sub(i))).map((m) => m.deduplicationId)).toEqual(messages.map((m) => m.deduplicationId));
  });

  it('keeps a connection in the same group from one batch to the next (its commits stay in order), and splits a crowded slice into messages of one group', () => {
    const crowded = Array.from({ length: 120 }, (_, i) => sub(i, { slice: 5 }));
    const messages = fanOutMessages('g-1', { from: 1, to: 1, revokedViewers: new Set() }, crowded);
    expect(messages.map((m) => m.groupId)).toEqual(['g-1.5', 'g-1.5', 'g-1.5']);
    // A subscription stored before slices: its group comes from its id, the same every time.
    const legacy = sub(1, { slice: undefined });
    expect(fanOutMessages('g-1', { from: 1, to: 1, revokedViewers: new Set() }, [legacy])[0].groupId).toBe(fanOutMessages('g-1', { from: 9, to: 9, revokedViewers: new Set() }, [legacy])[0].groupId);
  });

  it('sends a slice with no new commit only when a revocation ends one of its subscriptions', () => {
    const subs = [sub(1, { identity: 'viewer:v-abc' }), sub(2)];
    const messages = fanOutMessages('g-1', { from: Number.MAX_SAFE_INTEGER, to: 0, revokedViewers: new Set(['v-abc']) }, subs);
    expect(messages.map((m) => readFanOutMessage(m.body)!.targets.map((t) => t.connectionId))).toEqual([['c-1']]);
  });

  it('refuses a body it never writes', () => {
    for (const body of ['', '{}', '[]', JSON.stringify({ gameId: 'g 1', from: 1, to: 1, revokedViewers: [], targets: [] }), JSON.stringify({ gameId: 'g', from: 1, to: 1, revokedViewers: [], targets: [{ connectionId: 'x', identity: 'admin' }] })]) {
      expect(readFanOutMessage(body), body).toBeUndefined();
    }
  });
});

describe('the fan-out function', () => {
  const store = (): SubscriptionStore & { removed: string[] } => {
    const removed: string[] = [];
    return {
      removed,
      put: async () => {},
      remove: async (connectionId, gameId) => void removed.push(`${connectionId} ${gameId}`),
      gamesOf: async () => ['g-1'],
      countForGame: async () => 0,
      forGame: async () => [],
      addClientConnection: async () => {},
      removeClientConnection: async () => {},
      countClientConnections: async () => 0,
    };
  };
  const message = (targets: number, over: Partial<FanOutMessage> = {}): string =>
    JSON.stringify({ gameId: 'g-1', from: 1, to: 3, revokedViewers: [], targets: Array.from({ length: targets }, (_, i) => ({ connectionId: `c-${i}`, identity: 'role:blue', rulesetId: 'dice', after: 0, authorizedAt: 0 })), ...over });

  it('posts each connection its commits in order, many connections at once but at most the bound in flight, and forgets a gone one', async () => {
    let inFlight = 0;
    let most = 0;
    const sent = new Map<string, number[]>();
    const gateway: Gateway = {
      async post(connectionId, text): Promise<PostOutcome> {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 2));
        inFlight--;
        if (connectionId === 'c-7') return 'gone';
        sent.set(connectionId, [...(sent.get(connectionId) ?? []), JSON.parse(text).commit.seq]);
        return 'sent';
      },
      drop: async () => {},
    };
    const subscriptions = store();
    const handler = fanOutHandler(fanOutDelivery({ readCommits: async (_g, after, limit) => [1, 2, 3].filter((s) => s > after).slice(0, limit).map(commit), subscriptions, gateway, limits: { maxFrameBytes: 128 * 1024, maxSubscriptionsPerConnection: 8 } }), { postsInFlight: 8 });
    const answer = await handler({ Records: [{ messageId: 'm1', body: message(40), attributes: { MessageGroupId: 'g-1.0' } }] });
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(sent.size).toBe(39);
    for (const seqs of sent.values()) expect(seqs).toEqual([1, 2, 3]);
    expect(most).toBe(8);
    expect(subscriptions.removed).toEqual(['c-7 g-1']);
  });

  it('reports a message whose commits cannot be read, and every later message of its group; other groups go on', async () => {
    const posted: string[] = [];
    const gateway: Gateway = { post: async (connectionId) => (posted.push(connectionId), 'sent'), drop: async () => {} };
    const failing = new Set(['g-1']);
    const handler = fanOutHandler(
      fanOutDelivery({
        readCommits: async (gameId) => {
          // Once: the next message of the group would pass, but must wait for the failed one.
          if (failing.delete(gameId)) throw Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException' });
          return [commit(1)].map((c) => ({ ...c, gameId }));
        },
        subscriptions: store(),
        gateway,
        limits: { maxFrameBytes: 128 * 1024, maxSubscriptionsPerConnection: 8 },
      }),
      { report: () => {} },
    );
    const answer = await handler({
      Records: [
        { messageId: 'a1', body: message(1, { from: 1, to: 1 }), attributes: { MessageGroupId: 'g-1.0' } },
        { messageId: 'b1', body: message(1, { gameId: 'g-2', from: 1, to: 1 }), attributes: { MessageGroupId: 'g-2.0' } },
        { messageId: 'a2', body: message(1, { from: 2, to: 2 }), attributes: { MessageGroupId: 'g-1.0' } },
      ],
    });
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: 'a1' }, { itemIdentifier: 'a2' }]);
    expect(posted).toEqual(['c-0']);
  });
});

describe('signedGateway: PostToConnection as one SigV4-signed request', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  it('signs as the SDK\'s own signer does, and reads 410 as gone', async () => {
    const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(String(req.url).endsWith('gone%3D') ? 410 : 200).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    close = () => server.close();
    const port = (server.address() as AddressInfo).port;
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', AWS_SESSION_TOKEN: 'session-token' });
    const gateway = signedGateway(`http://127.0.0.1:${port}/live`, 'eu-west-1');
    expect(await gateway.post('L0SM9cOFvHcCIhw=', '{"type":"pong"}')).toBe('sent');
    expect(await gateway.post('gone=', '{"type":"pong"}')).toBe('gone');
    const [request] = seen;
    expect(request.url).toBe('/live/@connections/L0SM9cOFvHcCIhw%3D');
    const date = String(request.headers['x-amz-date']);
    const signer = new SignatureV4({ service: 'execute-api', region: 'eu-west-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token' }, sha256: Sha256 as never, applyChecksum: false });
    const reference = await signer.sign(
      { method: 'POST', protocol: 'http:', hostname: '127.0.0.1', port, path: request.url, query: {}, headers: { host: `127.0.0.1:${port}` }, body: request.body },
      { signingDate: new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`) },
    );
    const signatureOf = (authorization: string) => authorization.slice(authorization.indexOf('Signature='));
    expect(signatureOf(String(request.headers.authorization))).toBe(signatureOf(String(reference.headers.authorization)));
    expect(request.headers['x-amz-security-token']).toBe('session-token');
  });
});

describe('withPollPool: long polls in a pool of their own', () => {
  const event = (wait?: string) => ({ routeKey: 'GET /games/{id}/events', headers: {}, queryStringParameters: wait === undefined ? {} : { wait } }) as unknown as HttpEvent;
  const answered: HttpEvent[] = [];
  const handler = async (e: HttpEvent) => (answered.push(e), { statusCode: 200, headers: {}, body: '{}' });

  it('lets a poll wait only with a slot, answers 429 long_poll_full with Retry-After when none is free, and never counts a read that does not wait', async () => {
    let free = 1;
    let released = 0;
    const pool: PollPool = { acquire: async () => (free > 0 ? (free--, { release: async () => void (free++, released++) }) : undefined) };
    const wrapped = withPollPool(handler, pool, 10);
    expect(await wrapped(event('10'), {})).toMatchObject({ statusCode: 200 });
    expect([free, released]).toEqual([1, 1]);
    free = 0;
    const refused = await wrapped(event('5'), {});
    expect(refused).toMatchObject({ statusCode: 429, headers: expect.objectContaining({ 'retry-after': '5' }) });
    expect(JSON.parse((refused as { body: string }).body).error).toMatchObject({ code: 'long_poll_full', details: { retryAfterSeconds: 5 } });
    expect(await wrapped(event('0'), {})).toMatchObject({ statusCode: 200 });
    expect(await wrapped(event(), {})).toMatchObject({ statusCode: 200 });
  });

  it('answers as a read that does not wait when the pool cannot be read', async () => {
    const wrapped = withPollPool(handler, { acquire: async () => Promise.reject(new Error('down')) }, 10);
    answered.length = 0;
    expect(await wrapped(event('10'), {})).toMatchObject({ statusCode: 200 });
    expect(answered[0].queryStringParameters?.wait).toBe('0');
  });
});
