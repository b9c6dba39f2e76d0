import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { METRICS } from '../../functions/http/observe';
import { ACCESS_LOG_FORMAT, ArbiterStack, type ArbiterStackProps } from '../../infra/arbiterStack';
import { HTTP_THROTTLED_METRIC, OPERATIONS_DEFAULTS } from '../../infra/operations';

const synth = (props?: ArbiterStackProps) => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  return Template.fromStack(new ArbiterStack(app, 'Arbiter', props));
};
type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };
const named = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');
const ofType = (t: Template, type: string) => t.findResources(type) as Record<string, Resource>;
const alarm = (t: Template, id: string) => {
  const found = Object.entries(ofType(t, 'AWS::CloudWatch::Alarm')).filter(([logicalId]) => named(logicalId) === `Alarms${id}`);
  expect(found, id).toHaveLength(1);
  return found[0][1].Properties;
};
const logicalIdOf = (t: Template, type: string, name: string) => {
  const found = Object.keys(ofType(t, type)).filter((id) => named(id) === name);
  expect(found, name).toHaveLength(1);
  return found[0];
};

let template: Template;
beforeAll(() => {
  template = synth();
});

describe('operations: tracing', () => {
  it('bills no traces by default (pass-through), and traces with Lambda’s own sampling when asked; refuses another setting', () => {
    const functions = Object.values(ofType(template, 'AWS::Lambda::Function'));
    expect(functions.length).toBeGreaterThanOrEqual(11);
    for (const fn of functions) expect(fn.Properties.TracingConfig).toEqual({ Mode: 'PassThrough' });
    for (const fn of Object.values(ofType(synth({ tracing: 'active' }), 'AWS::Lambda::Function'))) expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    expect(() => synth({ tracing: 'always' as never })).toThrow(/tracing must be one of active, passthrough/);
  });
});

describe('operations: the alarms on the gaps', () => {
  it('counts the HTTP API’s 429 answers from its access log (they never reach a function) and alarms on them', () => {
    const [filter] = Object.values(ofType(template, 'AWS::Logs::MetricFilter')).filter((f) => f.Properties.MetricTransformations[0].MetricName === HTTP_THROTTLED_METRIC);
    expect(filter.Properties.LogGroupName).toEqual({ Ref: logicalIdOf(template, 'AWS::Logs::LogGroup', 'ApiAccessLogs') });
    // Only the stage's own 429s: one that a function answered (long_poll_full, creation_quota) has the Lambda call's integrationStatus 200; the throttle calls nothing ("-").
    expect(filter.Properties.FilterPattern).toBe('{ ($.status = "429") && ($.integrationStatus != "200") }');
    expect(ACCESS_LOG_FORMAT.integrationStatus).toBe('$context.integrationStatus');
    expect(filter.Properties.MetricTransformations).toEqual([{ MetricNamespace: METRICS.namespace, MetricName: HTTP_THROTTLED_METRIC, MetricValue: '1' }]);
    expect(alarm(template, 'HttpThrottled')).toMatchObject({ Namespace: METRICS.namespace, MetricName: HTTP_THROTTLED_METRIC, Statistic: 'Sum', Period: 300, Threshold: OPERATIONS_DEFAULTS.throttled429Per5Minutes });
  });

  it('alarms on the push WebSocket API’s execution and integration errors, of its own stage', () => {
    const props = alarm(template, 'WebSocketErrors');
    const stats = (props.Metrics as { MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions: { Name: string; Value: unknown }[] } } }[]).filter((m) => m.MetricStat).map((m) => m.MetricStat!.Metric);
    expect(stats.map((m) => m.MetricName).sort()).toEqual(['ExecutionError', 'IntegrationError']);
    const pushApi = logicalIdOf(template, 'AWS::ApiGatewayV2::Api', 'PushApi');
    for (const m of stats) {
      expect(m.Namespace).toBe('AWS/ApiGateway');
      expect(m.Dimensions).toEqual([
        { Name: 'ApiId', Value: { Ref: pushApi } },
        { Name: 'Stage', Value: 'live' },
      ]);
    }
  });

  it('holds accepted commands to a p99 latency objective (default 2 s, -c commandP99Ms), over 15 minutes', () => {
    expect(alarm(template, 'CommandLatency')).toMatchObject({
      Namespace: METRICS.namespace,
      MetricName: METRICS.commandLatency,
      Dimensions: [
        { Name: 'outcome', Value: 'ok' },
        { Name: 'service', Value: METRICS.service },
      ],
      ExtendedStatistic: 'p99',
      Period: 300,
      EvaluationPeriods: 3,
      Threshold: 2000,
    });
    expect(alarm(synth({ commandP99Ms: 800 }), 'CommandLatency').Threshold).toBe(800);
    expect(() => synth({ commandP99Ms: 0 })).toThrow(/commandP99Ms/);
  });

  it('gives every function of the stack an alarm when its p99 duration reaches 80% of its own timeout', () => {
    const functions = ofType(template, 'AWS::Lambda::Function');
    const alarms = Object.values(ofType(template, 'AWS::CloudWatch::Alarm')).filter((a) => a.Properties.MetricName === 'Duration');
    expect(alarms).toHaveLength(Object.keys(functions).length);
    for (const [id, fn] of Object.entries(functions)) {
      const mine = alarms.filter((a) => a.Properties.Dimensions[0].Value.Ref === id);
      expect(mine, id).toHaveLength(1);
      expect(mine[0].Properties).toMatchObject({ Namespace: 'AWS/Lambda', ExtendedStatistic: 'p99', Period: 900, Threshold: Math.floor(fn.Properties.Timeout * 1000 * 0.8) });
      expect(mine[0].Properties.AlarmDescription).toMatch(/docs\/deploy\.md#function-duration$/);
    }
  });
});

describe('operations: the dashboard', () => {
  it('shows commands per minute, outcomes, latencies, errors, throttles, push deliveries and every dead-letter queue', () => {
    const dashboards = Object.values(ofType(template, 'AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0].Properties.DashboardBody);
    for (const title of ['Commands accepted per minute', 'Requests by outcome', 'Command latency', 'HTTP API answers', 'Failed AWS calls by service', 'Function errors', 'Function throttles', 'Function duration p99', 'Table throttles', 'Push: messages delivered', 'Dead-letter queues']) {
      expect(body).toContain(title);
    }
    for (const metric of [METRICS.commandLatency, METRICS.requests, METRICS.dependencyErrors, HTTP_THROTTLED_METRIC, 'MessageCount', 'ExecutionError', 'IteratorAge', 'ReadThrottleEvents', 'ApproximateNumberOfMessagesVisible']) {
      expect(body).toContain(`\\"${metric}\\"`);
    }
    // The notifications' dead-letter queue is on it (a queue another queue sends its failures to).
    expect(body).toContain(logicalIdOf(template, 'AWS::SQS::Queue', 'NotificationsDeadLetters'));
  });
});

describe('operations: backups', () => {
  it('backs up every retained table weekly, kept 35 days, in a retained vault, beside point-in-time recovery; never the push connections', () => {
    const [plan] = Object.values(ofType(template, 'AWS::Backup::BackupPlan'));
    expect(plan.Properties.BackupPlan.BackupPlanRule).toMatchObject([{ RuleName: 'Weekly', ScheduleExpression: 'cron(0 3 ? * SUN *)', Lifecycle: { DeleteAfterDays: 35 } }]);
    const [vaultId, vault] = Object.entries(ofType(template, 'AWS::Backup::BackupVault'))[0];
    expect(vault.DeletionPolicy).toBe('Retain');
    // Named after this creation of the stack (its id's GUID): a deploy after a failed first one makes a vault of its own.
    expect(JSON.stringify(vault.Properties.BackupVaultName)).toContain('"Ref":"AWS::StackId"');
    expect(plan.Properties.BackupPlan.BackupPlanRule[0].TargetBackupVault).toEqual({ 'Fn::GetAtt': [vaultId, 'BackupVaultName'] });
    const [selection] = Object.values(ofType(template, 'AWS::Backup::BackupSelection'));
    const tables = ofType(template, 'AWS::DynamoDB::Table');
    const retained = Object.keys(tables).filter((id) => tables[id].DeletionPolicy === 'Retain');
    expect(retained.map(named)).toContain('Commits');
    const selected = JSON.stringify(selection.Properties.BackupSelection.Resources);
    for (const id of Object.keys(tables)) expect(selected.includes(`"${id}"`), id).toBe(retained.includes(id));
    for (const id of retained) expect(tables[id].Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    // AWS Backup's own role: backups only, assumable by the service alone.
    const role = ofType(template, 'AWS::IAM::Role')[selection.Properties.BackupSelection.IamRoleArn['Fn::GetAtt'][0]];
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([{ Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'backup.amazonaws.com' } }]);
    expect(JSON.stringify(role.Properties.ManagedPolicyArns)).toContain('service-role/AWSBackupServiceRolePolicyForBackup');
    expect(JSON.stringify(role.Properties.ManagedPolicyArns)).not.toContain('Restore');
  });
});
