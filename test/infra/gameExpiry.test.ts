import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ArbiterStack } from '../../infra/arbiterStack';
import { SWEEP_STREAM, SWEEP_TIMEOUT } from '../../infra/gameExpiry';

type Resource = { Type: string; Properties: Record<string, any> };
const named = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');

describe('the sweep of abandoned games, as synthesized', () => {
  let resources: [string, Resource][];
  const one = (type: string, name: string) => {
    const found = resources.filter(([id, r]) => r.Type === type && named(id) === name);
    expect(found.map(([id]) => named(id)), name).toEqual([name]);
    return found[0];
  };

  beforeAll(() => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    resources = Object.entries((Template.fromStack(new ArbiterStack(app, 'Arbiter')).toJSON() as { Resources: Record<string, Resource> }).Resources);
  });

  it('takes ended leases in batches of 100, four batches of a shard at once, reports each failed record, and sends what exhausts its retries to an encrypted dead-letter queue', () => {
    const [sweepId, sweep] = one('AWS::Lambda::Function', 'GameExpirySweepFunction');
    expect(sweep.Properties.Timeout).toBe(SWEEP_TIMEOUT.toSeconds());
    const [dlqId, dlq] = one('AWS::SQS::Queue', 'GameExpirySweepDeadLetters');
    expect(dlq.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    const mappings = resources.filter(([, r]) => r.Type === 'AWS::Lambda::EventSourceMapping' && r.Properties.FunctionName.Ref === sweepId);
    expect(mappings).toHaveLength(1);
    expect(mappings[0][1].Properties).toMatchObject({
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 30,
      ParallelizationFactor: 4,
      MaximumRetryAttempts: 10,
      MaximumRecordAgeInSeconds: 6 * 3600,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      StartingPosition: 'TRIM_HORIZON',
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [dlqId, 'Arn'] } } },
    });
    expect(SWEEP_STREAM.maxRecordAge.toHours()).toBeLessThan(24);
  });

  it('raises an alarm when the sweep falls an hour behind the stream, and when a record reaches the dead-letter queue', () => {
    const [dlqId] = one('AWS::SQS::Queue', 'GameExpirySweepDeadLetters');
    const [sweepId] = one('AWS::Lambda::Function', 'GameExpirySweepFunction');
    const [, age] = one('AWS::CloudWatch::Alarm', 'AlarmsSweepIteratorAge');
    expect(age.Properties).toMatchObject({ MetricName: 'IteratorAge', Namespace: 'AWS/Lambda', Statistic: 'Maximum', Threshold: 3_600_000, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(age.Properties.Dimensions).toEqual([{ Name: 'FunctionName', Value: { Ref: sweepId } }]);
    const [, letters] = one('AWS::CloudWatch::Alarm', 'AlarmsSweepDeadLetters');
    expect(letters.Properties).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Namespace: 'AWS/SQS', Threshold: 1 });
    expect(letters.Properties.Dimensions).toEqual([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId, 'QueueName'] } }]);
    for (const alarm of [age, letters]) expect(alarm.Properties.AlarmActions.length).toBeGreaterThan(0);
  });
});
