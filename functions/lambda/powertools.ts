import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRICS, outcomeClassOf, outcomeOf, type DependencyTally, type Observer } from '../http/observe';

export const logger = new Logger({ serviceName: METRICS.service });
export const metrics = new Metrics({ namespace: METRICS.namespace, serviceName: METRICS.service });

/** The AWS services the functions call (functions/lambda/awsClients.ts). */
export type Dependency = 'DynamoDB' | 'KMS' | 'S3' | 'ApiGatewayManagementApi' | 'SQS' | 'SES';

/**
 * Why an AWS call failed: `lost-write` (a conditional write another writer beat: the
 * service catches up and decides again), `throttle`, `timeout` (no connection or no answer
 * within the client's limits), `network`, `denied` (credentials or permissions), `fault`
 * (the service's 5xx), `client` (any other 4xx), `expected` (an answer the caller handles,
 * such as S3's NotFound).
 */
export type FailureKind = 'lost-write' | 'throttle' | 'timeout' | 'network' | 'denied' | 'fault' | 'client' | 'expected';

export interface DependencyCall {
  dependency: Dependency;
  operation: string;
  /** Attempts the SDK made, the first included. */
  attempts: number;
  failure?: { kind: FailureKind; name: string; statusCode?: number; message?: string };
}

// One request at a time runs in a Lambda container: what its AWS calls met is tallied here
// and taken by the request's record.
let tally: DependencyTally = { retries: 0, lostWrites: 0, throttles: 0 };
let coldStart = true;

/**
 * Every AWS call of the clients of awsClients.ts ends here: its retries and failures are
 * tallied for the request's outcome, and a failure other than a lost conditional write or
 * an expected answer is logged with its cause and counted in `DependencyErrors` by
 * dependency (the KMS errors alarm reads it).
 */
export function noteDependencyCall(call: DependencyCall): void {
  tally.retries += Math.max(0, call.attempts - 1);
  const failure = call.failure;
  if (!failure || failure.kind === 'expected') return;
  if (failure.kind === 'lost-write') {
    tally.lostWrites += 1;
    return;
  }
  if (failure.kind === 'throttle') tally.throttles += 1;
  logger.warn('AWS call failed', {
    dependency: call.dependency,
    operation: call.operation,
    attempts: call.attempts,
    failure: failure.kind,
    errorName: failure.name,
    ...(failure.statusCode ? { statusCode: failure.statusCode } : {}),
    ...(failure.message ? { errorMessage: failure.message.slice(0, 300) } : {}),
  });
  // Its own EMF record, so that its dimensions are `service` and `dependency` alone, as the alarm reads them.
  const single = metrics.singleMetric();
  single.addDimension('dependency', call.dependency);
  single.addMetric(METRICS.dependencyErrors, MetricUnit.Count, 1);
}

/**
 * Structured JSON logs and EMF metrics. The log line carries the detail: route, status,
 * outcome, latency, game, seq, command type, retries, cold start. The metrics carry only
 * what alarms and the dashboard read, under one dimension of three values (the outcome
 * class), so that their number, and so their cost, does not grow with routes or games:
 * `Requests` by outcome class, and `CommandLatency` of each accepted command.
 */
export const powertoolsObserver: Observer = {
  unexpected: (error, requestId) => logger.error('unexpected error', { requestId, error }),
  request: (record) => {
    const met = tally;
    tally = { retries: 0, lostWrites: 0, throttles: 0 };
    const first = coldStart;
    coldStart = false;
    const outcome = outcomeOf(record, met);
    const retries = met.retries + met.lostWrites;
    logger.info('request', {
      ...record,
      outcome,
      ...(first ? { coldStart: true } : {}),
      ...(retries || met.throttles ? { dependencies: met } : {}),
    });
    metrics.addDimensions({ outcome: outcomeClassOf(outcome) });
    metrics.addMetric(METRICS.requests, MetricUnit.Count, 1);
    if (record.commandType && record.status === 201) metrics.addMetric(METRICS.commandLatency, MetricUnit.Milliseconds, record.latencyMs);
  },
};
