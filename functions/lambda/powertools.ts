import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Observer } from '../http/observe';

export const logger = new Logger({ serviceName: 'arbiter' });
export const metrics = new Metrics({ namespace: 'Arbiter', serviceName: 'arbiter' });

/** Structured JSON logs and EMF metrics: route, status, latency, game, seq, command type. */
export const powertoolsObserver: Observer = {
  unexpected: (error, requestId) => logger.error('unexpected error', { requestId, error }),
  request: (record) => {
    logger.info('request', { ...record });
    metrics.addMetric('Requests', MetricUnit.Count, 1);
    metrics.addMetric(record.outcome === 'ok' ? 'Accepted' : record.outcome === 'refused' ? 'Refused' : 'Failed', MetricUnit.Count, 1);
    metrics.addMetric('Latency', MetricUnit.Milliseconds, record.latencyMs);
    if (record.commandType && record.outcome === 'ok') metrics.addMetric('Commits', MetricUnit.Count, 1);
  },
};
