import type { MiddlewareObj } from '@middy/core';
import type { ParsedEvent } from './middleware';
import type { HttpResult } from './respond';
import { errorCodeOf } from './errorAnswer';

/** What one request leaves in the logs and metrics: never a body, token, seed or key. */
export interface RequestRecord {
  route: string;
  status: number;
  latencyMs: number;
  outcome: 'ok' | 'refused' | 'error';
  gameId?: string;
  seq?: number;
  commandType?: string;
  errorCode?: string;
}

export interface Observer {
  /** An error no route expected: logged with its stack, once. */
  unexpected(error: Error, requestId: string): void;
  request?(record: RequestRecord): void;
}

/**
 * The names the deployed functions publish their metrics under (CloudWatch embedded metric
 * format), shared by the functions and the stack's alarms so the two cannot drift apart.
 */
export const METRICS = {
  namespace: 'Arbiter',
  /** The `service` dimension every metric carries. */
  service: 'arbiter',
  /** One per request; one dimension besides `service`: `outcome`, its class (OUTCOME_CLASSES). The route is in the log line. */
  requests: 'Requests',
  /** The latency of each accepted command (201), dimension `outcome` (always `ok`): its sample count is the commits per minute. */
  commandLatency: 'CommandLatency',
  /** AWS calls that failed for another reason than a lost conditional write; dimension `dependency`. */
  dependencyErrors: 'DependencyErrors',
  /** A beacon game's pending commit still not revealed long after its round (beacon.md §7); the reveal function counts it once. */
  beaconRevealLate: 'BeaconRevealLate',
} as const;

/**
 * The `outcome` dimension of a request: `ok`; `retry` (answered, after the SDK retried a call
 * or a conditional write lost a race); `refused` (4xx); `conflict` (409 version_conflict);
 * `throttle` (429, or 503 after a dependency throttled); `unavailable` (any other 503);
 * `error` (any other 5xx).
 */
export const OUTCOMES = ['ok', 'retry', 'refused', 'conflict', 'throttle', 'unavailable', 'error'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/**
 * The `outcome` dimension of the metrics: three classes, so that the metrics stay a handful of
 * billed series whatever the routes (each name × dimension value is one custom metric). The
 * outcome itself and the route are in each request's log line.
 */
export const OUTCOME_CLASSES = ['ok', 'refused', 'failed'] as const;
export type OutcomeClass = (typeof OUTCOME_CLASSES)[number];

export function outcomeClassOf(outcome: Outcome): OutcomeClass {
  if (outcome === 'ok' || outcome === 'retry') return 'ok';
  if (outcome === 'refused' || outcome === 'conflict') return 'refused';
  return 'failed';
}

/** What the AWS calls of one request met. */
export interface DependencyTally {
  /** Attempts beyond the first, summed over the calls. */
  retries: number;
  /** Conditional writes refused because another writer got there first. */
  lostWrites: number;
  /** Calls that failed because the service throttled them. */
  throttles: number;
}

export function outcomeOf(record: Pick<RequestRecord, 'status' | 'errorCode'>, tally: DependencyTally): Outcome {
  const { status } = record;
  if (status === 429) return 'throttle';
  if (status === 503) return tally.throttles > 0 ? 'throttle' : 'unavailable';
  if (status >= 500) return 'error';
  if (status === 409 && record.errorCode === 'version_conflict') return 'conflict';
  if (status >= 400) return 'refused';
  return tally.retries + tally.lostWrites > 0 ? 'retry' : 'ok';
}

export const consoleObserver: Observer = {
  unexpected: (error, requestId) => console.error(`[${requestId}] unexpected ${error.name}: ${error.message}\n${error.stack ?? ''}`),
};

/** Notes what a handler learned (the seq it stored, the command type) for the request record. */
export function observe(event: ParsedEvent, fields: Pick<RequestRecord, 'seq' | 'commandType'>): void {
  event.observed = { ...event.observed, ...fields };
}

/** Times every request and hands its record to the observer, after the error mapping. */
export function requestRecorder(observer: Observer): MiddlewareObj<ParsedEvent, HttpResult> {
  const started = new WeakMap<object, number>();
  const record = (request: { event: ParsedEvent; response: HttpResult | null }) => {
    if (!observer.request) return;
    const { event, response } = request;
    const status = response?.statusCode ?? 500;
    let errorCode: string | undefined;
    if (status >= 400) errorCode = errorCodeOf(response);
    observer.request({
      route: event.routeKey,
      status,
      latencyMs: Date.now() - (started.get(event) ?? Date.now()),
      outcome: status >= 500 ? 'error' : status >= 400 ? 'refused' : 'ok',
      ...(event.pathParameters?.id ? { gameId: event.pathParameters.id.slice(0, 64) } : {}),
      ...event.observed,
      ...(typeof errorCode === 'string' ? { errorCode: errorCode.slice(0, 64) } : {}),
    });
  };
  return {
    name: 'requestRecorder',
    before: (request) => {
      started.set(request.event, Date.now());
    },
    after: record,
    onError: record,
  };
}
