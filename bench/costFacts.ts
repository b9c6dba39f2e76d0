// The stack as the bill sees it (bench/costModel.ts StackFacts), read from what the functions
// really emit and from the synthesized template, so that a new metric dimension, alarm, key
// or dashboard changes the cost figures and their test (test/infra/operationsCost.test.ts).
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { METRICS } from '../functions/http/observe';
import { OPERATIONS } from '../functions/http/operations';
import { ACCESS_LOG_FORMAT, ArbiterStack, type ArbiterStackProps } from '../infra/arbiterStack';
import type { StackFacts } from './costModel';

type Emf = { _aws?: { CloudWatchMetrics?: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] } } & Record<string, unknown>;

/** The metric series (namespace, name, dimension values) in EMF lines. */
export function seriesOf(lines: string[]): Set<string> {
  const series = new Set<string>();
  for (const line of lines) {
    let record: Emf;
    try {
      record = JSON.parse(line) as Emf;
    } catch {
      continue;
    }
    for (const directive of record._aws?.CloudWatchMetrics ?? []) {
      for (const dimensions of directive.Dimensions) {
        for (const metric of directive.Metrics) series.add(JSON.stringify([directive.Namespace, metric.Name, ...dimensions.map((d) => [d, record[d]])]));
      }
    }
  }
  return series;
}

/** What `run` writes to stdout and stderr (Powertools writes its EMF there), kept from the terminal. */
async function captured(run: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const originals = [process.stdout.write, process.stderr.write];
  const capture = ((chunk: string | Uint8Array) => {
    lines.push(...(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')).split('\n').filter((l) => l.trim()));
    return true;
  }) as typeof process.stdout.write;
  process.stdout.write = capture;
  process.stderr.write = capture;
  try {
    await run();
  } finally {
    [process.stdout.write, process.stderr.write] = originals;
  }
  return lines;
}

/**
 * The custom metric series the functions publish: every route answered with every ordinary
 * status (its series receive data in every hour of use), then every failure the functions
 * count (5xx, 429, each AWS dependency failing, a late beacon reveal).
 */
export async function emittedMetricSeries(): Promise<{ alwaysOn: Set<string>; failureOnly: Set<string>; requestLogKb: { command: number; read: number } }> {
  const { metrics, noteDependencyCall, powertoolsObserver } = await import('../functions/lambda/powertools');
  const request = (route: string, status: number, extra: { commandType?: string; errorCode?: string } = {}) => {
    powertoolsObserver.request!({ route, status, latencyMs: 30, outcome: status >= 500 ? 'error' : status >= 400 ? 'refused' : 'ok', gameId: 'g-cost', ...extra });
    metrics.publishStoredMetrics();
  };
  const ordinary = await captured(async () => {
    for (const op of OPERATIONS) {
      const route = `${op.method} ${op.path}`;
      for (const status of [200, 201, 202, 304, 400, 401, 403, 404, 409, 410, 412, 413, 422]) request(route, status, { commandType: 'Roll', errorCode: status === 409 ? 'version_conflict' : undefined });
    }
  });
  const failures = await captured(async () => {
    for (const op of OPERATIONS) for (const status of [429, 500, 502, 503, 504]) request(`${op.method} ${op.path}`, status, { errorCode: 'unavailable' });
    for (const dependency of ['DynamoDB', 'KMS', 'S3', 'ApiGatewayManagementApi', 'SQS', 'SES'] as const) {
      noteDependencyCall({ dependency, operation: 'Any', attempts: 3, failure: { kind: 'throttle', name: 'ThrottlingException' } });
    }
    // The reveal function's one metric (functions/lambda/revealBeacons.ts), as it publishes it.
    const single = metrics.singleMetric();
    single.addMetric(METRICS.beaconRevealLate, 'Count', 1);
  });
  // What one request writes itself (its log line and its EMF line), as the functions write it.
  const bytes = (lines: string[]) => lines.reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0) / 1024;
  const command = await captured(async () => request('POST /games/{id}/commands', 201, { commandType: 'Roll' }));
  const read = await captured(async () => request('GET /games/{id}', 200));
  const requestLogKb = { command: bytes(command), read: bytes(read) };
  const alwaysOn = seriesOf(ordinary);
  const failureOnly = new Set([...seriesOf(failures)].filter((s) => !alwaysOn.has(s)));
  return { alwaysOn, failureOnly, requestLogKb };
}

type Resource = { Properties: Record<string, any> };

/** The template's billed parts: alarms and the metrics they read, keys, dashboards, tracing, backups kept, WAF, CloudFront, metric filters. */
export function templateFacts(template: Template) {
  const all = (type: string) => Object.values(template.findResources(type)) as Resource[];
  const alarms = all('AWS::CloudWatch::Alarm');
  const alarmMetrics = alarms.reduce((sum, a) => sum + (a.Properties.Metrics ? (a.Properties.Metrics as { MetricStat?: unknown }[]).filter((m) => m.MetricStat).length : 1), 0);
  const rules = all('AWS::Backup::BackupPlan').flatMap((p) => p.Properties.BackupPlan.BackupPlanRule as { ScheduleExpression: string; Lifecycle?: { DeleteAfterDays?: number } }[]);
  // A daily rule keeps one copy a day for its DeleteAfterDays; a weekly one, one a week.
  const backupsKept = rules.reduce((sum, r) => sum + Math.ceil((r.Lifecycle?.DeleteAfterDays ?? 0) / (/\? \*\)$/.test(r.ScheduleExpression) ? 1 : 7)), 0);
  const webAcls = all('AWS::WAFv2::WebACL');
  return {
    alarms: alarms.length,
    alarmMetrics,
    kmsKeys: all('AWS::KMS::Key').length,
    dashboards: all('AWS::CloudWatch::Dashboard').length,
    tracing: all('AWS::Lambda::Function').some((fn) => fn.Properties.TracingConfig?.Mode === 'Active') ? ('Active' as const) : ('PassThrough' as const),
    backupsKept,
    wafWebAcls: webAcls.length,
    wafRules: webAcls.reduce((sum, acl) => sum + ((acl.Properties.Rules as unknown[] | undefined)?.length ?? 0), 0),
    cloudFrontDistributions: all('AWS::CloudFront::Distribution').length,
    minuteSchedules: all('AWS::Events::Rule').filter((r) => r.Properties.ScheduleExpression === 'rate(1 minute)').length,
    /** Each metric filter is a series that receives data only when its pattern matches (a 429, a forbidden key use). */
    metricFilters: all('AWS::Logs::MetricFilter').length,
  };
}

export function synthesizedTemplate(props?: ArbiterStackProps): Template {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  return Template.fromStack(new ArbiterStack(app, 'Arbiter', props));
}

/** Everything the cost model needs about the stack as built. */
export async function stackFacts(template = synthesizedTemplate()): Promise<StackFacts> {
  const { alwaysOn, failureOnly, requestLogKb } = await emittedMetricSeries();
  const { metricFilters, ...facts } = templateFacts(template);
  return { ...facts, alwaysOnMetricSeries: alwaysOn.size, failureOnlyMetricSeries: failureOnly.size + metricFilters, requestLogKb, accessLogKb: accessLogLineKb() };
}

/** One access log line of the HTTP API (ACCESS_LOG_FORMAT) with the values of an ordinary command. */
export function accessLogLineKb(): number {
  const sample: Record<string, string> = {
    requestId: 'Yx8kQhKJIAMEbNw=',
    time: '27/Nov/2026:12:00:00 +0000',
    ip: '203.0.113.10',
    method: 'POST',
    routeKey: 'POST /games/{id}/commands',
    path: '/games/g-7KQ2mX9p4LtrB3/commands',
    protocol: 'HTTP/1.1',
    status: '201',
    responseLength: '1834',
    latencyMs: '64',
    integrationLatencyMs: '61',
    integrationStatus: '201',
    integrationError: '-',
    error: '-',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  };
  const line = JSON.stringify(Object.fromEntries(Object.keys(ACCESS_LOG_FORMAT).map((k) => [k, sample[k] ?? '-'])));
  return (Buffer.byteLength(line) + 1) / 1024;
}
