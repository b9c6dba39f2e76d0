import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { SignCommand } from '@aws-sdk/client-kms';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { outcomeOf, METRICS, type DependencyTally } from '../../functions/http/observe';

/**
 * The AWS clients of the Lambda functions against a loopback server that answers as told:
 * never (a hung call), with a service error, or with a success. What the functions write
 * to its log (Powertools' JSON logs and EMF metrics) is read back and checked.
 */
type Answer = 'hang' | { status: number; body?: unknown; headers?: Record<string, string> };
let answers: Answer[] = [];
let seen: { method: string; target?: string }[] = [];
let server: Server;
let endpoint: string;
const hung: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', target: req.headers['x-amz-target'] as string | undefined });
      // The last answer repeats: a service that keeps failing.
      const answer = answers.length > 1 ? answers.shift()! : answers[0];
      if (!answer || answer === 'hang') {
        hung.push(res);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.0', ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of hung) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const ENV = ['AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_ENDPOINT_URL_DYNAMODB', 'AWS_ENDPOINT_URL_KMS', 'AWS_ENDPOINT_URL_S3', 'POWERTOOLS_DEV'] as const;
let saved: Record<string, string | undefined>;
let lines: string[];
beforeEach(() => {
  saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
  Object.assign(process.env, {
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    AWS_ENDPOINT_URL_KMS: endpoint,
    AWS_ENDPOINT_URL_S3: endpoint,
  });
  delete process.env.POWERTOOLS_DEV;
  answers = [];
  seen = [];
  lines = [];
  // Powertools writes info and metrics to stdout, warnings and errors to stderr: Lambda sends both to the log group.
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    vi.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      if (text.trimStart().startsWith('{')) {
        lines.push(...text.split('\n').filter((l) => l.trim()));
        return true;
      }
      return write(chunk as string, ...(rest as []));
    }) as typeof stream.write);
  }
});
afterEach(() => {
  vi.restoreAllMocks();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** Fresh modules: a new container, its tallies and cold start its own. */
async function container() {
  vi.resetModules();
  const clients = await import('../../functions/lambda/awsClients');
  const powertools = await import('../../functions/lambda/powertools');
  return { ...clients, ...powertools };
}
const json = () => lines.map((l) => JSON.parse(l) as Record<string, any>);
const emf = (metric: string) => json().filter((l) => l._aws?.CloudWatchMetrics?.[0]?.Metrics?.some((m: { Name: string }) => m.Name === metric));
const logs = (message: string) => json().filter((l) => l.message === message);
const ddbError = (type: string, status = 400) => ({ status, body: { __type: `com.amazonaws.dynamodb.v20120810#${type}`, message: `${type} here` } });

describe('the AWS clients of the functions', () => {
  it('are built with connection and answer timeouts that throw, and a bounded number of attempts', async () => {
    const { clientConfig, CLIENT_LIMITS, dynamoClient, kmsClient, s3Client, apiGatewayManagementClient, sqsClient, sesClient } = await container();
    for (const dependency of Object.keys(CLIENT_LIMITS) as (keyof typeof CLIENT_LIMITS)[]) {
      const config = clientConfig(dependency);
      const limits = CLIENT_LIMITS[dependency];
      expect(config).toEqual({
        maxAttempts: limits.maxAttempts,
        retryMode: 'standard',
        requestHandler: { connectionTimeout: limits.connectionTimeoutMs, requestTimeout: limits.requestTimeoutMs, socketTimeout: limits.requestTimeoutMs, throwOnRequestTimeout: true },
      });
      expect(limits.maxAttempts).toBeGreaterThanOrEqual(1);
      expect(limits.maxAttempts).toBeLessThanOrEqual(3);
    }
    // A call's worst case stays inside the 10 s of the commands function.
    for (const dependency of ['DynamoDB', 'KMS'] as const) {
      const { connectionTimeoutMs, requestTimeoutMs, maxAttempts } = CLIENT_LIMITS[dependency];
      expect(maxAttempts * (connectionTimeoutMs + requestTimeoutMs)).toBeLessThanOrEqual(6000);
    }
    for (const client of [dynamoClient(), kmsClient(), s3Client(), apiGatewayManagementClient('https://example.invalid/prod'), sqsClient(), sesClient()]) {
      expect(await client.config.maxAttempts()).toBeLessThanOrEqual(3);
    }
    // One client per service and container, unless a caller asks for other settings.
    expect(dynamoClient()).toBe(dynamoClient());
    expect(dynamoClient({ limits: { maxAttempts: 1 } })).not.toBe(dynamoClient());
  });

  it('give up on a hung call after its timeout and attempts, and log it with its cause', async () => {
    const { dynamoClient } = await container();
    answers = ['hang'];
    const client = dynamoClient({ limits: { connectionTimeoutMs: 200, requestTimeoutMs: 300, maxAttempts: 2 } });
    const started = Date.now();
    const error = await client.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'g' }, sk: { N: '0' } } })).catch((e: Error) => e);
    const elapsed = Date.now() - started;
    expect((error as Error).name).toBe('TimeoutError');
    expect(seen).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(600);
    expect(elapsed).toBeLessThan(3000);
    expect(logs('AWS call failed')).toEqual([expect.objectContaining({ level: 'WARN', dependency: 'DynamoDB', operation: 'GetItem', failure: 'timeout', errorName: 'TimeoutError', attempts: 2 })]);
    const [metric] = emf(METRICS.dependencyErrors);
    expect(metric._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: METRICS.namespace, Dimensions: [['service', 'dependency']] });
    expect(metric).toMatchObject({ service: METRICS.service, dependency: 'DynamoDB', [METRICS.dependencyErrors]: 1 });
    client.destroy();
  });

  it('count KMS failures for the KMS alarm, and a request that ends in 503 after a throttle is a throttle', async () => {
    const { kmsClient, powertoolsObserver } = await container();
    answers = [{ status: 400, body: { __type: 'ThrottlingException', message: 'Rate exceeded' } }];
    const client = kmsClient({ limits: { maxAttempts: 2 } });
    const error = await client.send(new SignCommand({ KeyId: 'k', Message: new Uint8Array(32), MessageType: 'RAW', SigningAlgorithm: 'ED25519_SHA_512' })).catch((e: Error) => e);
    expect((error as Error).name).toBe('ThrottlingException');
    expect(seen.map((s) => s.target)).toEqual(['TrentService.Sign', 'TrentService.Sign']);
    expect(emf(METRICS.dependencyErrors).map((m) => [m.dependency, m[METRICS.dependencyErrors]])).toEqual([['KMS', 1]]);
    expect(logs('AWS call failed')[0]).toMatchObject({ dependency: 'KMS', operation: 'Sign', failure: 'throttle', attempts: 2 });

    powertoolsObserver.request!({ route: 'POST /games/{id}/commands', status: 503, latencyMs: 12, outcome: 'error', errorCode: 'unavailable' });
    const [request] = logs('request');
    expect(request).toMatchObject({ outcome: 'throttle', status: 503, coldStart: true, dependencies: { retries: 1, lostWrites: 0, throttles: 1 } });
    client.destroy();
  });

  it('count neither a lost conditional write nor an expected answer as a failure; the request they served is a retry', async () => {
    const { dynamoClient, s3Client, powertoolsObserver, metrics } = await container();
    answers = [ddbError('ConditionalCheckFailedException')];
    const ddb = dynamoClient({ limits: { maxAttempts: 3 } });
    const lost = await ddb.send(new PutItemCommand({ TableName: 't', Item: { pk: { S: 'g' }, sk: { N: '2' } }, ConditionExpression: 'attribute_not_exists(pk)' })).catch((e: Error) => e);
    expect((lost as Error).name).toBe('ConditionalCheckFailedException');
    // Not retried by the SDK: a lost race is for the service to decide again.
    expect(seen).toHaveLength(1);
    answers = [{ status: 404, headers: { 'content-type': 'application/xml' } }];
    const s3 = s3Client({ forcePathStyle: true });
    const missing = await s3.send(new HeadObjectCommand({ Bucket: 'exports', Key: 'g.json' })).catch((e: Error) => e);
    expect((missing as Error).name).toBe('NotFound');
    expect(emf(METRICS.dependencyErrors)).toEqual([]);
    expect(logs('AWS call failed')).toEqual([]);

    powertoolsObserver.request!({ route: 'POST /games/{id}/commands', status: 201, latencyMs: 40, outcome: 'ok', gameId: 'g', seq: 2, commandType: 'Roll' });
    metrics.publishStoredMetrics();
    const [request] = logs('request');
    expect(request).toMatchObject({ outcome: 'retry', dependencies: { retries: 0, lostWrites: 1, throttles: 0 } });
    const [published] = emf(METRICS.requests);
    // Few billed series: the outcome's class is the one dimension; the route and the retry are in the log line.
    expect(published._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service', 'outcome']]);
    expect(published).toMatchObject({ service: METRICS.service, outcome: 'ok', Requests: 1, CommandLatency: 40 });
    expect(published._aws.CloudWatchMetrics[0].Metrics.map((m: { Name: string }) => m.Name).sort()).toEqual(['CommandLatency', 'Requests']);
    ddb.destroy();
    s3.destroy();
  });

  it('tally retries the SDK made, per request; the cold start is the first request only', async () => {
    const { dynamoClient, powertoolsObserver, metrics } = await container();
    const ddb = dynamoClient({ limits: { maxAttempts: 3 } });
    powertoolsObserver.request!({ route: 'GET /games/{id}', status: 200, latencyMs: 5, outcome: 'ok', gameId: 'g' });
    metrics.publishStoredMetrics();
    answers = [ddbError('InternalServerError', 500), { status: 200, body: { Item: { pk: { S: 'g' } } } }];
    await ddb.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'g' }, sk: { N: '0' } } }));
    expect(seen).toHaveLength(2);
    powertoolsObserver.request!({ route: 'GET /games/{id}', status: 200, latencyMs: 7, outcome: 'ok', gameId: 'g' });
    metrics.publishStoredMetrics();
    // Answered after a retry: no dependency error (the call succeeded), a Retries count, and no second cold start.
    expect(emf(METRICS.dependencyErrors)).toEqual([]);
    const [first, second] = emf(METRICS.requests);
    expect(first).toMatchObject({ outcome: 'ok', Requests: 1 });
    expect(second).toMatchObject({ outcome: 'ok', Requests: 1 });
    // The retry and the cold start are in the request's log line (metrics stay a handful of series).
    expect(logs('request').map((r) => [r.outcome, r.coldStart, r.dependencies?.retries])).toEqual([
      ['ok', true, undefined],
      ['retry', undefined, 1],
    ]);
    ddb.destroy();
  });

  it('sort failures by cause', async () => {
    const { describeFailure } = await container();
    const sdk = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(`${name} message`), { name, ...extra });
    const kinds = {
      lost: describeFailure(sdk('ConditionalCheckFailedException')).kind,
      lostTransaction: describeFailure(sdk('TransactionCanceledException', { CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }] })).kind,
      conflictingTransaction: describeFailure(sdk('TransactionCanceledException', { CancellationReasons: [{ Code: 'TransactionConflict' }] })).kind,
      throttled: describeFailure(sdk('ProvisionedThroughputExceededException')).kind,
      throttledByFlag: describeFailure(sdk('SomethingNew', { $retryable: { throttling: true } })).kind,
      timeout: describeFailure(sdk('TimeoutError')).kind,
      network: describeFailure(sdk('Error', { code: 'ECONNRESET' })).kind,
      denied: describeFailure(sdk('AccessDeniedException', { $metadata: { httpStatusCode: 400 } })).kind,
      disabledKey: describeFailure(sdk('DisabledException')).kind,
      fault: describeFailure(sdk('KMSInternalException', { $fault: 'server', $metadata: { httpStatusCode: 500 } })).kind,
      client: describeFailure(sdk('ValidationException', { $fault: 'client', $metadata: { httpStatusCode: 400 } })).kind,
      expected: describeFailure(sdk('GoneException'), new Set(['GoneException'])).kind,
      notAnError: describeFailure(undefined).kind,
    };
    expect(kinds).toEqual({
      lost: 'lost-write',
      lostTransaction: 'lost-write',
      conflictingTransaction: 'client',
      throttled: 'throttle',
      throttledByFlag: 'throttle',
      timeout: 'timeout',
      network: 'network',
      denied: 'denied',
      disabledKey: 'denied',
      fault: 'fault',
      client: 'client',
      expected: 'expected',
      notAnError: 'client',
    });
    expect(describeFailure(sdk('AccessDeniedException', { $metadata: { httpStatusCode: 400 } }))).toEqual({ kind: 'denied', name: 'AccessDeniedException', statusCode: 400, message: 'AccessDeniedException message' });
  });
});

describe('the outcome dimension of a request', () => {
  const none: DependencyTally = { retries: 0, lostWrites: 0, throttles: 0 };
  it('tells conflicts, retries, throttles and failures apart', () => {
    const cases: [number, string | undefined, DependencyTally, string][] = [
      [200, undefined, none, 'ok'],
      [201, undefined, { ...none, lostWrites: 1 }, 'retry'],
      [200, undefined, { ...none, retries: 2 }, 'retry'],
      [304, undefined, none, 'ok'],
      [400, 'invalid_request', none, 'refused'],
      [409, 'version_conflict', { ...none, lostWrites: 1 }, 'conflict'],
      [409, 'game_sealed', none, 'refused'],
      [429, 'rate_limited', none, 'throttle'],
      [503, 'unavailable', { ...none, throttles: 1 }, 'throttle'],
      [503, 'unavailable', { ...none, retries: 2 }, 'unavailable'],
      [500, 'internal_error', none, 'error'],
      [504, undefined, none, 'error'],
    ];
    for (const [status, errorCode, tally, outcome] of cases) expect(outcomeOf({ status, errorCode }, tally), `${status} ${errorCode}`).toBe(outcome);
  });
});
