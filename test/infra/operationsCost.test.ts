import { beforeAll, describe, expect, it } from 'vitest';
import { emittedMetricSeries, stackFacts, synthesizedTemplate } from '../../bench/costFacts';
import { costTable, monthlyCost, PBEM_200, summarize, type StackFacts } from '../../bench/costModel';
import { OPERATIONS } from '../../functions/http/operations';

/**
 * The month's bill for 200 play-by-e-mail games (bench/costModel.ts), from the stack as it is:
 * the metric series the functions really publish, and the alarms, keys, dashboards, tracing
 * and backups of the synthesized template. A new metric dimension, trace setting or resource
 * that costs changes these figures.
 */
let facts: StackFacts;
beforeAll(async () => {
  facts = await stackFacts(synthesizedTemplate());
}, 120_000);

describe('the cost of 200 PBEM games a month', () => {
  it('is at most $0.05 per 1,000 commands for everything the use adds (KMS, DynamoDB, Lambda, API Gateway, metrics, logs, X-Ray, S3, backups)', () => {
    const bill = monthlyCost(PBEM_200, facts);
    const summary = summarize(bill);
    expect(summary.commands).toBe(300_000);
    expect(summary.usagePer1000).toBeLessThanOrEqual(0.05);
    for (const item of ['KMS Sign', 'DynamoDB writes', 'Lambda duration', 'HTTP API requests', 'CloudWatch Logs ingested', 'CloudWatch custom metrics, every hour', 'X-Ray traces', 'S3 exports', 'AWS Backup']) {
      expect(bill.usage.map((l) => l.item).join('\n')).toContain(item);
    }
    // The standing costs are reported beside it, never hidden: keys, alarms, the dashboard.
    expect(bill.standing.map((l) => l.item)).toEqual(['KMS keys', 'CloudWatch alarms', 'CloudWatch dashboard', 'Functions run every minute']);
    expect(facts.minuteSchedules).toBeGreaterThanOrEqual(2);
    const table = costTable(PBEM_200, facts);
    expect(table).toContain(`${facts.alarms} alarms, ${facts.alarmMetrics} alarm metrics`);
    expect(table).toMatch(/All in, standing costs included: \$[0-9.]+ a month, \$0\.[0-9]{4} per 1,000 commands\./);
  });

  it('publishes a handful of metric series whatever the routes: Requests by outcome class and the latency of accepted commands', async () => {
    const { alwaysOn, failureOnly } = await emittedMetricSeries();
    const names = [...alwaysOn].map((s) => JSON.parse(s) as unknown[]);
    expect(names.map(([, name, ...dims]) => [name, ...dims.map((d) => (d as string[]).join('='))]).sort()).toEqual([
      ['CommandLatency', 'service=arbiter', 'outcome=ok'],
      ['Requests', 'service=arbiter', 'outcome=ok'],
      ['Requests', 'service=arbiter', 'outcome=refused'],
    ]);
    expect(facts.alwaysOnMetricSeries).toBe(3);
    // Failures: Requests of failed ones, each AWS dependency's errors, late beacon reveals.
    expect(failureOnly.size).toBe(1 + 6 + 1);
    expect([...alwaysOn, ...failureOnly].join()).not.toContain('route');
  });

  it('would miss the target with a route dimension on the metrics, or with every request traced', () => {
    const routeDimension = { ...facts, alwaysOnMetricSeries: OPERATIONS.length * 2 * 2 };
    expect(summarize(monthlyCost(PBEM_200, routeDimension)).usagePer1000).toBeGreaterThan(0.05);
    expect(summarize(monthlyCost(PBEM_200, { ...facts, tracing: 'Active' })).usagePer1000).toBeGreaterThan(0.05);
    expect(facts.tracing).toBe('PassThrough');
  });
});
