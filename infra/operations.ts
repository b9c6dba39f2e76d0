import { Aspects, CfnDeletionPolicy, Duration, Fn, RemovalPolicy, Stack, Validations, type IAspect } from 'aws-cdk-lib';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault } from 'aws-cdk-lib/aws-backup';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Dashboard, GraphWidget, MathExpression, Metric, TextWidget, type Alarm, type HorizontalAnnotation, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { Table, type CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Function as LambdaFunction, type CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, LogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import { METRICS } from '../functions/http/observe';
import type { Dependency } from '../functions/lambda/powertools';
import { PUSH_STAGE, type ArbiterPush } from './push';

/** X-Ray tracing of the stack's functions (`-c tracing=`): see TRACING_MODES. */
export type TracingSetting = 'active' | 'passthrough';

/**
 * `passthrough` (the default): a function records a trace only when its caller asks for one,
 * which API Gateway's HTTP API, DynamoDB streams and schedules never do, so no trace is billed.
 * `active`: Lambda's own sampling, the first request each second and 5% of the rest, per
 * function. Lambda applies no X-Ray sampling rule of the account to it, so at a few requests a
 * second that is nearly every request: turn it on while you look into something.
 */
export const TRACING_MODES: Record<TracingSetting, 'Active' | 'PassThrough'> = { active: 'Active', passthrough: 'PassThrough' };

export interface OperationsProps {
  /** X-Ray tracing of every function (default `passthrough`): see TRACING_MODES. */
  tracing?: TracingSetting;
  /** The latency objective of accepted commands: their p99, in milliseconds (OPERATIONS_DEFAULTS.commandP99Ms). */
  commandP99Ms?: number;
}

export const OPERATIONS_DEFAULTS = {
  tracing: 'passthrough' as TracingSetting,
  /** 99 accepted commands in 100 answered within 2 s, measured by the function (cold starts included). */
  commandP99Ms: 2_000,
  /** A function whose p99 duration over 15 minutes reaches this share of its timeout is near it. */
  durationShareOfTimeout: 0.8,
  /** HTTP answers 429 (the stage's throttle) in 5 minutes that raise HttpThrottled. */
  throttled429Per5Minutes: 10,
  /** WebSocket execution and integration errors in 5 minutes that raise WebSocketErrors. */
  webSocketErrorsPer5Minutes: 5,
  /**
   * Weekly backups of the retained tables, kept this long: point-in-time recovery already
   * restores any second of the last 35 days; these copies, in a vault of their own, outlive a
   * deleted table or a broken recovery window. Five full copies a month (bench/costModel.ts).
   */
  backupRetention: Duration.days(35),
} as const;

/** The metric the access logs feed: HTTP answers 429, which never reach a function. */
export const HTTP_THROTTLED_METRIC = 'HttpThrottled';

/** What this module needs of the Arbiter stack (infra/arbiterStack.ts), named here so the two do not import each other. */
export interface OperatedStack extends Stack {
  readonly table: Table;
  readonly api: HttpApi;
  addAlarm(id: string, options: { metric: IMetric; threshold: number; description: string; evaluationPeriods?: number }): Alarm;
}

const DEPENDENCIES: Dependency[] = ['DynamoDB', 'KMS', 'S3', 'ApiGatewayManagementApi', 'SQS', 'SES'];

/**
 * What running the stack needs beyond its first alarms (arbiterStack.ts): the X-Ray setting,
 * alarms on the gaps (WebSocket errors, HTTP 429s, durations near the timeout, the latency
 * objective of commands), one dashboard, and weekly backups of the retained tables. Called
 * once, last, from the stack's constructor: the tables and queues it looks for exist by then;
 * the functions are found by an aspect, those added later too.
 */
export function addOperations(stack: OperatedStack, props: OperationsProps = {}): void {
  const tracing = props.tracing ?? OPERATIONS_DEFAULTS.tracing;
  if (!(tracing in TRACING_MODES)) throw new Error(`tracing must be one of ${Object.keys(TRACING_MODES).join(', ')}: got ${JSON.stringify(tracing)}`);
  const commandP99Ms = props.commandP99Ms ?? OPERATIONS_DEFAULTS.commandP99Ms;
  if (!Number.isInteger(commandP99Ms) || commandP99Ms < 1) throw new Error(`commandP99Ms must be a whole number of milliseconds: got ${commandP99Ms}`);
  Aspects.of(stack).add(new FunctionOperations(stack, TRACING_MODES[tracing]));

  const fiveMinutes = Duration.minutes(5);
  const arbiterMetric = (metricName: string, statistic: string, dimensionsMap: Record<string, string> = {}, period = fiveMinutes) =>
    new Metric({ namespace: METRICS.namespace, metricName, dimensionsMap: { service: METRICS.service, ...dimensionsMap }, statistic, period });

  // ---- HTTP 429: the stage's throttle answers before any function runs; only its access log sees it ----
  // A 429 a function answers itself (long_poll_full, creation_quota) went through Lambda (integrationStatus 200): not the throttle.
  const accessLogs = stack.node.findChild('ApiAccessLogs') as LogGroup;
  new MetricFilter(stack, 'HttpThrottledFilter', {
    logGroup: accessLogs,
    filterPattern: FilterPattern.all(FilterPattern.stringValue('$.status', '=', '429'), FilterPattern.stringValue('$.integrationStatus', '!=', '200')),
    metricNamespace: METRICS.namespace,
    metricName: HTTP_THROTTLED_METRIC,
    metricValue: '1',
  });
  const throttled = new Metric({ namespace: METRICS.namespace, metricName: HTTP_THROTTLED_METRIC, statistic: 'Sum', period: fiveMinutes });
  stack.addAlarm('HttpThrottled', {
    metric: throttled,
    threshold: OPERATIONS_DEFAULTS.throttled429Per5Minutes,
    description: `The HTTP API answered 429 (its stage throttle) at least ${OPERATIONS_DEFAULTS.throttled429Per5Minutes} times in 5 minutes: clients wait and retry. docs/deploy.md#httpthrottled`,
  });

  // ---- WebSocket errors: the push API's own failures (its 4xx, throttles included, are ClientError) ----
  const push = stack.node.findChild('Push') as ArbiterPush;
  const webSocket = (metricName: string, statistic = 'Sum') =>
    new Metric({ namespace: 'AWS/ApiGateway', metricName, dimensionsMap: { ApiId: push.api.apiId, Stage: PUSH_STAGE }, statistic, period: fiveMinutes });
  stack.addAlarm('WebSocketErrors', {
    metric: new MathExpression({
      expression: 'execution + integration',
      usingMetrics: { execution: webSocket('ExecutionError'), integration: webSocket('IntegrationError') },
      period: fiveMinutes,
      label: 'WebSocket execution and integration errors',
    }),
    threshold: OPERATIONS_DEFAULTS.webSocketErrorsPer5Minutes,
    description: `The push WebSocket API failed at least ${OPERATIONS_DEFAULTS.webSocketErrorsPer5Minutes} times in 5 minutes (its socket function failing or timing out); pages fall back to polling. docs/deploy.md#websocketerrors`,
  });

  // ---- the latency objective of commands ----
  const commandLatency = (statistic: string, period = fiveMinutes) => arbiterMetric(METRICS.commandLatency, statistic, { outcome: 'ok' }, period);
  stack.addAlarm('CommandLatency', {
    metric: commandLatency('p99'),
    threshold: commandP99Ms,
    evaluationPeriods: 3,
    description: `The p99 latency of accepted commands was ${commandP99Ms} ms or more for 15 minutes (the objective is below it). docs/deploy.md#commandlatency`,
  });

  // ---- backups: the retained tables (the game record), every week, beside point-in-time recovery ----
  const retainedTables = stack.node
    .findAll()
    .filter((c): c is Table => c instanceof Table && Stack.of(c) === stack && (c.node.defaultChild as CfnTable).cfnOptions.deletionPolicy === CfnDeletionPolicy.RETAIN);
  // Kept when the stack goes (its copies outlive it), so its name is new for each creation of the stack: a retry after a failed first deploy never meets the old one.
  const creation = Fn.select(0, Fn.split('-', Fn.select(2, Fn.split('/', stack.stackId))));
  const vault = new BackupVault(stack, 'BackupVault', { backupVaultName: Fn.join('-', ['arbiter-backups', creation]), removalPolicy: RemovalPolicy.RETAIN });
  const plan = new BackupPlan(stack, 'BackupPlan', {
    backupVault: vault,
    backupPlanRules: [new BackupPlanRule({ ruleName: 'Weekly', scheduleExpression: Schedule.cron({ weekDay: 'SUN', hour: '3', minute: '0' }), deleteAfter: OPERATIONS_DEFAULTS.backupRetention })],
  });
  const backupRole = new Role(stack, 'BackupRole', {
    assumedBy: new ServicePrincipal('backup.amazonaws.com'),
    description: 'Arbiter: AWS Backup takes the weekly backups of the tables',
    managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSBackupServiceRolePolicyForBackup')],
  });
  Validations.of(backupRole).acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
    reason: "AWS Backup's own service-role policy, maintained by AWS as Backup's needs change; this role is assumable by backup.amazonaws.com alone and is given to no function. It takes backups only: no restore.",
  });
  plan.addSelection('RetainedTables', { resources: retainedTables.map((t) => BackupResource.fromDynamoDbTable(t)), role: backupRole, allowRestores: false });

  // ---- the dashboard ----
  const functions = stack.node.findAll().filter((c): c is LambdaFunction => c instanceof LambdaFunction && Stack.of(c) === stack);
  const deadLetterQueues = stack.node
    .findAll()
    .filter((c): c is Queue => c instanceof Queue && Stack.of(c) === stack)
    .filter((q, _, all) => /dead|failure|dlq/i.test(q.node.id) || all.some((other) => other.deadLetterQueue?.queue === q));
  const perFunction = (title: string, metric: (fn: LambdaFunction) => IMetric, extra: Partial<ConstructorParameters<typeof GraphWidget>[0]> = {}) =>
    new GraphWidget({ title, left: functions.map(metric), width: 12, height: 6, ...extra });
  const label = (fn: LambdaFunction) => fn.node.path.slice(stack.node.path.length + 1).replace(/\/Resource$/, '');
  const dashboard = new Dashboard(stack, 'Dashboard', { defaultInterval: Duration.hours(6) });
  dashboard.addWidgets(
    new TextWidget({ markdown: '# Arbiter\nWhat each alarm means and what to do: docs/deploy.md, "Reading the alarms" and "The dashboard and the operations alarms".', width: 24, height: 2 }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: 'Commands accepted per minute',
      left: [commandLatency('SampleCount', Duration.minutes(1)).with({ label: 'commits' })],
      width: 8,
      height: 6,
    }),
    new GraphWidget({
      title: 'Requests by outcome (per 5 minutes)',
      left: (['ok', 'refused', 'failed'] as const).map((outcome) => arbiterMetric(METRICS.requests, 'Sum', { outcome }).with({ label: outcome })),
      width: 8,
      height: 6,
    }),
    new GraphWidget({
      title: 'Command latency (ms)',
      left: [commandLatency('p50').with({ label: 'p50' }), commandLatency('p99').with({ label: 'p99' })],
      leftAnnotations: [{ value: commandP99Ms, label: 'p99 objective' } satisfies HorizontalAnnotation],
      width: 8,
      height: 6,
    }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: 'HTTP API answers',
      left: [stack.api.metricCount({ period: fiveMinutes }).with({ label: 'requests' })],
      right: [stack.api.metricClientError({ period: fiveMinutes }).with({ label: '4xx' }), stack.api.metricServerError({ period: fiveMinutes }).with({ label: '5xx' }), throttled.with({ label: '429 (throttled)' })],
      width: 12,
      height: 6,
    }),
    new GraphWidget({
      title: 'Failed AWS calls by service',
      left: DEPENDENCIES.map((dependency) => arbiterMetric(METRICS.dependencyErrors, 'Sum', { dependency }).with({ label: dependency })),
      width: 12,
      height: 6,
    }),
  );
  dashboard.addWidgets(
    perFunction('Function errors', (fn) => fn.metricErrors({ period: fiveMinutes }).with({ label: label(fn) })),
    perFunction('Function throttles', (fn) => fn.metricThrottles({ period: fiveMinutes }).with({ label: label(fn) })),
  );
  dashboard.addWidgets(
    perFunction('Function duration p99 (ms)', (fn) => fn.metricDuration({ period: fiveMinutes, statistic: 'p99' }).with({ label: label(fn) })),
    new GraphWidget({
      title: 'Table throttles',
      left: [stack.table.metric('ReadThrottleEvents', { statistic: 'Sum', period: fiveMinutes }).with({ label: 'reads' }), stack.table.metric('WriteThrottleEvents', { statistic: 'Sum', period: fiveMinutes }).with({ label: 'writes' })],
      width: 12,
      height: 6,
    }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: 'Push: messages delivered, connections, errors',
      left: [webSocket('MessageCount').with({ label: 'messages' }), webSocket('ConnectCount').with({ label: 'connections opened' })],
      right: [webSocket('ExecutionError').with({ label: 'execution errors' }), webSocket('IntegrationError').with({ label: 'integration errors' }), webSocket('ClientError').with({ label: 'client errors (429 included)' })],
      width: 12,
      height: 6,
    }),
    new GraphWidget({
      title: 'Dead-letter queues (messages waiting)',
      left: deadLetterQueues.map((q) => q.metricApproximateNumberOfMessagesVisible({ period: fiveMinutes, statistic: 'Maximum' }).with({ label: q.node.path.slice(stack.node.path.length + 1) })),
      right: [push.streamFunction.metric('IteratorAge', { period: fiveMinutes, statistic: 'Maximum' }).with({ label: 'push stream iterator age (ms)' })],
      width: 12,
      height: 6,
    }),
  );
}

/** Each function of the stack, wherever it was added: its tracing mode, and its alarm on a duration near its timeout. */
class FunctionOperations implements IAspect {
  private readonly seen = new WeakSet<LambdaFunction>();
  constructor(
    private readonly stack: OperatedStack,
    private readonly tracingMode: 'Active' | 'PassThrough',
  ) {}

  visit(node: IConstruct): void {
    if (!(node instanceof LambdaFunction) || Stack.of(node) !== this.stack || this.seen.has(node)) return;
    this.seen.add(node);
    (node.node.defaultChild as CfnFunction).tracingConfig = { mode: this.tracingMode };
    const timeout = node.timeout ?? Duration.seconds(3);
    const path = node.node.path.slice(this.stack.node.path.length + 1);
    const near = Math.floor(timeout.toMilliseconds() * OPERATIONS_DEFAULTS.durationShareOfTimeout);
    this.stack.addAlarm(`${path.replace(/[^A-Za-z0-9]/g, '')}Duration`, {
      metric: node.metricDuration({ statistic: 'p99', period: Duration.minutes(15) }),
      threshold: near,
      description: `${path}: its p99 duration over 15 minutes reached ${near} ms, ${OPERATIONS_DEFAULTS.durationShareOfTimeout * 100}% of its ${timeout.toSeconds()} s timeout. docs/deploy.md#function-duration`,
    });
  }
}
