import { ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { noteDependencyCall, type Dependency, type FailureKind } from './powertools';
import { traceWhenSampled } from './sampledTracing';

/**
 * Every AWS SDK client of the Lambda functions is built here, with limits: a call that gets
 * no connection or no answer in time fails with a `TimeoutError` (retried by the SDK up to
 * `maxAttempts`, then mapped to a 503 with Retry-After by the service) instead of running to
 * the Lambda timeout. Each client also reports every call to powertools.ts, for the request's
 * outcome, the `DependencyErrors` metric and a log line naming the cause of each failure.
 *
 * Region, credentials and endpoints come from the environment as usual (AWS_REGION,
 * AWS_ENDPOINT_URL_<SERVICE> in tests).
 */
export interface ClientLimits {
  /** Milliseconds to open the TCP connection. */
  connectionTimeoutMs: number;
  /** Milliseconds from sending a request to its answer's headers; also the longest a socket may stay idle. */
  requestTimeoutMs: number;
  /** Attempts per call, the first included (standard retry mode: exponential backoff with jitter). */
  maxAttempts: number;
}

/**
 * The limits per service. A connection inside a region opens in milliseconds, and DynamoDB
 * and KMS answer in tens. A call's worst case is maxAttempts × (connectionTimeoutMs +
 * requestTimeoutMs) plus the backoff between attempts (a few hundred ms): 6 s for DynamoDB,
 * 4.5 s for KMS, within the 10 s of `commands` and the 25 s of `reads`.
 * S3 answers a PUT of a sealed export only once it has read the whole body: more time.
 */
export const CLIENT_LIMITS: Record<Dependency, ClientLimits> = {
  DynamoDB: { connectionTimeoutMs: 500, requestTimeoutMs: 1500, maxAttempts: 3 },
  KMS: { connectionTimeoutMs: 500, requestTimeoutMs: 1000, maxAttempts: 3 },
  S3: { connectionTimeoutMs: 500, requestTimeoutMs: 8000, maxAttempts: 3 },
  ApiGatewayManagementApi: { connectionTimeoutMs: 500, requestTimeoutMs: 1000, maxAttempts: 2 },
  // Handing a game to the notification queue: a failure fails the stream batch, which Lambda retries.
  SQS: { connectionTimeoutMs: 500, requestTimeoutMs: 1000, maxAttempts: 3 },
  // One mail with its MIME body, within the delivery function's minute.
  SES: { connectionTimeoutMs: 500, requestTimeoutMs: 5000, maxAttempts: 3 },
};

/** Answers a caller handles itself, per service: neither logged as failures nor counted. */
const EXPECTED: Record<Dependency, readonly string[]> = {
  DynamoDB: [],
  KMS: [],
  // HeadObject of an export not written yet.
  S3: ['NotFound', 'NoSuchKey'],
  // A WebSocket connection that closed: the pusher forgets it.
  ApiGatewayManagementApi: ['GoneException'],
  SQS: [],
  SES: [],
};

export interface ClientOptions {
  /** Other limits than CLIENT_LIMITS (a test's shorter ones). */
  limits?: Partial<ClientLimits>;
  /** More error names the caller handles (see EXPECTED). */
  expectedErrors?: readonly string[];
}

/** One client per service and container, reused across requests (its connections stay open). */
const shared = new Map<string, unknown>();

function sharedClient<T>(key: string, options: ClientOptions | undefined, make: () => T): T {
  if (options) return make();
  let client = shared.get(key) as T | undefined;
  if (!client) {
    client = make();
    shared.set(key, client);
  }
  return client;
}

/** The configuration every client is built with: limits on connections, answers and attempts. */
export function clientConfig(dependency: Dependency, limits?: Partial<ClientLimits>) {
  const { connectionTimeoutMs, requestTimeoutMs, maxAttempts } = { ...CLIENT_LIMITS[dependency], ...limits };
  return {
    maxAttempts,
    retryMode: 'standard',
    requestHandler: {
      connectionTimeout: connectionTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // Without it, a request past requestTimeout only logs a warning and goes on waiting.
      throwOnRequestTimeout: true,
      socketTimeout: requestTimeoutMs,
    },
  } as const;
}

export const dynamoClient = (options?: ClientOptions): DynamoDBClient =>
  sharedClient('DynamoDB', options, () => observed(new DynamoDBClient(clientConfig('DynamoDB', options?.limits)), 'DynamoDB', options));

export const kmsClient = (options?: ClientOptions): KMSClient =>
  sharedClient('KMS', options, () => observed(new KMSClient(clientConfig('KMS', options?.limits)), 'KMS', options));

/** `forcePathStyle`: bucket names in the path, as a local S3 stand-in on a loopback address needs. */
export const s3Client = (options?: ClientOptions & { forcePathStyle?: boolean }): S3Client =>
  sharedClient('S3', options, () => observed(new S3Client({ ...clientConfig('S3', options?.limits), forcePathStyle: options?.forcePathStyle }), 'S3', options));

/** `endpoint`: the WebSocket API's callback URL, https://<api id>.execute-api.<region>.amazonaws.com/<stage>. */
export const apiGatewayManagementClient = (endpoint: string, options?: ClientOptions): ApiGatewayManagementApiClient =>
  sharedClient(`ApiGatewayManagementApi ${endpoint}`, options, () =>
    observed(new ApiGatewayManagementApiClient({ ...clientConfig('ApiGatewayManagementApi', options?.limits), endpoint }), 'ApiGatewayManagementApi', options),
  );

export const sqsClient = (options?: ClientOptions): SQSClient =>
  sharedClient('SQS', options, () => observed(new SQSClient(clientConfig('SQS', options?.limits)), 'SQS', options));

export const sesClient = (options?: ClientOptions): SESv2Client =>
  sharedClient('SES', options, () => observed(new SESv2Client(clientConfig('SES', options?.limits)), 'SES', options));

// ---- what each call met ----

type Next = (args: unknown) => Promise<{ output?: { $metadata?: { attempts?: number } } }>;
interface Stack {
  add(middleware: (next: Next, context: { commandName?: string }) => Next, options: { step: 'initialize'; name: string; override: boolean }): void;
}

function observed<T extends { middlewareStack: unknown; config: unknown; send: unknown }>(client: T, dependency: Dependency, options: ClientOptions | undefined): T {
  const expected = new Set([...EXPECTED[dependency], ...(options?.expectedErrors ?? [])]);
  // `initialize` wraps the whole call, the SDK's retries included.
  (client.middlewareStack as Stack).add(
    (next, context) => async (args) => {
      const operation = (context.commandName ?? 'unknown').replace(/Command$/, '');
      try {
        const result = await next(args);
        noteDependencyCall({ dependency, operation, attempts: result.output?.$metadata?.attempts ?? 1 });
        return result;
      } catch (error) {
        const failure = describeFailure(error, expected);
        noteDependencyCall({ dependency, operation, attempts: attemptsOf(error), failure });
        throw error;
      }
    },
    { step: 'initialize', name: 'arbiterDependencyObserver', override: true },
  );
  return traceWhenSampled(client);
}

interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $fault?: 'client' | 'server';
  $retryable?: { throttling?: boolean };
  $metadata?: { httpStatusCode?: number; attempts?: number };
  CancellationReasons?: { Code?: string }[];
}

const THROTTLING = new Set(['ThrottlingException', 'Throttling', 'ThrottledException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded', 'TooManyRequestsException', 'SlowDown', 'LimitExceededException']);
const DENIED = new Set(['AccessDeniedException', 'AccessDenied', 'UnrecognizedClientException', 'InvalidSignatureException', 'IncompleteSignature', 'ExpiredTokenException', 'InvalidClientTokenId', 'KMSInvalidStateException', 'DisabledException']);
const NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

function attemptsOf(error: unknown): number {
  return (error as SdkError | undefined)?.$metadata?.attempts ?? 1;
}

/** Sorts a failed call: see FailureKind. Exported for its tests. */
export function describeFailure(error: unknown, expected: ReadonlySet<string> = new Set()): NonNullable<Parameters<typeof noteDependencyCall>[0]['failure']> {
  const e = (error ?? {}) as SdkError;
  const name = typeof e.name === 'string' ? e.name : 'Error';
  const statusCode = e.$metadata?.httpStatusCode;
  const base = { name, ...(statusCode ? { statusCode } : {}), ...(typeof e.message === 'string' ? { message: e.message } : {}) };
  return { kind: kindOf(e, name, expected), ...base };
}

function kindOf(e: SdkError, name: string, expected: ReadonlySet<string>): FailureKind {
  if (name === 'ConditionalCheckFailedException') return 'lost-write';
  // A transaction refused only by its conditions: the game (or its idempotency key) exists already.
  if (name === 'TransactionCanceledException' && e.CancellationReasons?.length && e.CancellationReasons.every((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'None')) return 'lost-write';
  if (expected.has(name)) return 'expected';
  if (THROTTLING.has(name) || e.$retryable?.throttling) return 'throttle';
  if (name === 'TimeoutError' || name === 'RequestTimeout' || name === 'AbortError') return 'timeout';
  if (typeof e.code === 'string' && NETWORK.has(e.code)) return 'network';
  if (DENIED.has(name)) return 'denied';
  if (e.$fault === 'server' || (statusCode(e) ?? 0) >= 500) return 'fault';
  return 'client';
}

const statusCode = (e: SdkError) => e.$metadata?.httpStatusCode;
