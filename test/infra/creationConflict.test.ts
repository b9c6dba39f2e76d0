import { build } from 'esbuild';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingName } from '../../functions/config/settingNames';
import { BUNDLE, esbuildOptions, LAMBDA_ENTRIES } from '../../infra/bundling';
import { startFakeKms } from '../support/fakeKms';
import { startLoopbackDynamo } from '../support/loopbackDynamo';
import { invokeBundle } from '../support/runCli';
import { startTransactingProxy } from './transactingDynamo';

const REGION = 'eu-west-1';
const SIGNING_KEY = `arn:aws:kms:${REGION}:000000000000:key/signing-1`;
const SEED_KEY = `arn:aws:kms:${REGION}:000000000000:key/seeds`;
const TOKEN_KEY = `arn:aws:kms:${REGION}:000000000000:key/tokens`;

/** The two creations read the key's record together, whenever their processes started. */
const BARRIER = { keyPrefix: 'idempotency#', parties: 2 };

const creation = (idempotencyKey: string) => ({
  version: '2.0',
  routeKey: 'POST /games',
  rawPath: '/games',
  rawQueryString: '',
  headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
  requestContext: { http: { method: 'POST', path: '/games', protocol: 'HTTP/1.1', sourceIp: '192.0.2.7', userAgent: 'test' }, requestId: 'r', routeKey: 'POST /games', stage: '$default', timeEpoch: Date.now() },
  body: JSON.stringify({ ruleset: 'dice', title: 'one key, two requests' }),
  isBase64Encoded: false,
});

/**
 * Two creations with one Idempotency-Key at once, on the commands bundle, against a DynamoDB
 * stand-in that holds a transaction's items while it is in flight (transactingDynamo.ts): the
 * second transaction is cancelled with TransactionConflict, as DynamoDB cancels it.
 */
describe('one Idempotency-Key sent twice at once to the commands function on DynamoDB', () => {
  let bundle: string;
  let dynalite: Awaited<ReturnType<typeof startLoopbackDynamo>>;
  let dynamo: Awaited<ReturnType<typeof startTransactingProxy>>;
  let kms: Awaited<ReturnType<typeof startFakeKms>>;

  beforeAll(async () => {
    bundle = join(mkdtempSync(join(tmpdir(), 'arbiter-i35-sweep-conflict-')), 'commands', BUNDLE.outFile);
    await build(esbuildOptions(LAMBDA_ENTRIES.commands, bundle));
    dynalite = await startLoopbackDynamo('conflict-games');
    // Both processes read the key's record at once (the barrier), then the first transaction waits for the second (within
    // the SDK's 1.5 s request timeout) and lands 200 ms after the second is cancelled.
    dynamo = await startTransactingProxy(dynalite, { barrier: BARRIER, overlap: { waitMs: 1_000, holdMs: 200 } });
    kms = await startFakeKms({ signing: [SIGNING_KEY], symmetric: [SEED_KEY, TOKEN_KEY] });
  });
  afterAll(async () => {
    await dynamo?.close();
    await dynalite?.close();
    await kms?.close();
  });

  const create = (key: string, endpoint = dynamo.endpoint) =>
    invokeBundle(bundle, [creation(key)], {
      [settingName('tableName')]: dynalite.tableName,
      [settingName('signingKeyId')]: SIGNING_KEY,
      [settingName('signs')]: 'true',
      [settingName('seedKeyId')]: SEED_KEY,
      [settingName('tokenKeyId')]: TOKEN_KEY,
      AWS_REGION: REGION,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: endpoint,
      AWS_ENDPOINT_URL_KMS: kms.endpoint,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      POWERTOOLS_DEV: 'false',
    });

  it('answers both with the one game and its tokens once the first creation lands: the conflict is waited out, never a 500', async () => {
    const key = randomUUID();
    const runs = await Promise.all([create(key), create(key)]);
    const replies = runs.map((run) => run.results[0] as { statusCode: number; body: string });
    expect(dynamo.conflicts.filter((c) => c.startsWith('TransactWriteItems'))).toHaveLength(1);
    expect(replies.map((r) => r.statusCode), runs.map((r) => r.logs).join('\n')).toEqual([201, 201]);
    const [a, b] = replies.map((r) => JSON.parse(r.body) as { gameId: string; tokens: unknown });
    expect(b.gameId).toBe(a.gameId);
    expect(b.tokens).toEqual(a.tokens);
  });

  it('answers 409 with Retry-After, never a 500, when DynamoDB cancels both; the same request again creates the game, and again answers it', async () => {
    const both = await startTransactingProxy(dynalite, { barrier: BARRIER, overlap: { waitMs: 1_000, holdMs: 100, bothCancelled: true } });
    try {
      const key = randomUUID();
      const runs = await Promise.all([create(key, both.endpoint), create(key, both.endpoint)]);
      const replies = runs.map((run) => run.results[0] as { statusCode: number; headers: Record<string, string>; body: string });
      expect(both.conflicts.filter((c) => c.startsWith('TransactWriteItems'))).toHaveLength(1);
      expect(replies.map((r) => r.statusCode), runs.map((r) => r.logs).join('\n')).toEqual([409, 409]);
      for (const refused of replies) {
        expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'idempotency_key_in_use' } });
        expect(refused.headers['retry-after']).toBe('1');
      }
      // The client asks again, alone this time (the same table, no transaction held for another).
      const alone = await startTransactingProxy(dynalite);
      const again = (await create(key, alone.endpoint)).results[0] as { statusCode: number; body: string };
      const once = (await create(key, alone.endpoint)).results[0] as { statusCode: number; body: string };
      await alone.close();
      expect([again.statusCode, once.statusCode]).toEqual([201, 201]);
      expect(JSON.parse(once.body).gameId).toBe(JSON.parse(again.body).gameId);
    } finally {
      await both.close();
    }
  });
});
