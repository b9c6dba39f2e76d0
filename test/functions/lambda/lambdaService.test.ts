import { KMSClient } from '@aws-sdk/client-kms';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rotateKmsKey } from '../../../functions/application/rotateKmsKey';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { KeyRingStore } from '../../../functions/store/keyRingStore';
import { startFakeKms } from '../../support/fakeKms';

const FIRST = 'arn:aws:kms:eu-west-1:000000000000:key/first';
const SECOND = 'arn:aws:kms:eu-west-1:000000000000:key/second';
let dynamo: EmbeddedDynamo;
let kms: Awaited<ReturnType<typeof startFakeKms>>;

beforeAll(async () => {
  dynamo = await startEmbeddedDynamo();
  kms = await startFakeKms({ signing: [FIRST, SECOND], symmetric: [] });
});
afterAll(async () => {
  await dynamo?.close();
  await kms?.close();
});

describe('the Lambda service', () => {
  it('signs with the key the key ring names, and a warm container takes up a rotation within a minute', async () => {
    vi.resetModules();
    // The Lambda service builds its own DynamoDB client: its calls go to the embedded store.
    const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
    const send = DynamoDBClient.prototype.send;
    const sent = vi.spyOn(DynamoDBClient.prototype, 'send').mockImplementation(function (this: unknown, command: never) {
      return (send as (this: unknown, command: never) => unknown).call(dynamo.client, command);
    } as never);
    const env = { TABLE_NAME: dynamo.tableName, SIGNING_KEY_ID: FIRST, ARBITER_SIGNS: 'true', AWS_REGION: 'eu-west-1', AWS_ENDPOINT_URL_KMS: kms.endpoint, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' };
    const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
    Object.assign(process.env, env);
    try {
      const { lambdaService, KEY_RING_REFRESH_MS } = await import('../../../functions/lambda/lambdaService');
      const start = Date.now();
      const before = await lambdaService(start);
      const kmsClient = new KMSClient({ region: 'eu-west-1', endpoint: kms.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
      const rotated = await rotateKmsKey(kmsClient, new KeyRingStore(dynamo.client, dynamo.tableName), { initialKeyId: FIRST, to: SECOND, at: new Date(start).toISOString() });
      // Within the minute the warm container keeps its service; after it, it reads the ring again.
      expect(await lambdaService(start + KEY_RING_REFRESH_MS - 1)).toBe(before);
      const after = await lambdaService(Date.now() + KEY_RING_REFRESH_MS + 1);
      expect(before.signer.fingerprint).toBe(rotated.previous);
      expect(after.signer.fingerprint).toBe(rotated.next);
      expect(after.signer.keysDocument().log).toHaveLength(1);
      // Read again and unchanged: the same service, its cache kept.
      expect(await lambdaService(Date.now() + 2 * KEY_RING_REFRESH_MS + 2)).toBe(after);
    } finally {
      sent.mockRestore();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
