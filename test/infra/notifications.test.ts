import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ArbiterStack, type ArbiterStackProps } from '../../infra/arbiterStack';
import { AWS_DELIVERY_RETRY, CHANNEL_TIMEOUT_MS } from '../../functions/lambda/notifyEngine';
import { DELIVERY_TIMEOUT, MAX_RECEIVES } from '../../infra/notifications';

type Resource = { Type: string; Properties: Record<string, any> };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: Record<string, unknown> };

// Bundling is the bundle test's business (bundles.test.ts); here only the template counts.
const synth = (props?: ArbiterStackProps) => Template.fromStack(new ArbiterStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Arbiter', props));
const named = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');
const only = (t: Template, type: string, name: string): [string, Resource] => {
  const found = Object.entries(t.findResources(type) as Record<string, Resource>).filter(([id]) => named(id) === name);
  expect(found, name).toHaveLength(1);
  return found[0];
};
const statementsOf = (t: Template, functionName: string): Statement[] => {
  const role = only(t, 'AWS::Lambda::Function', functionName)[1].Properties.Role['Fn::GetAtt'][0];
  return Object.values(t.findResources('AWS::IAM::Policy') as Record<string, Resource>)
    .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === role))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
};

let template: Template;
let queue: string;
let deadLetters: string;
let delivery: string;
beforeAll(() => {
  template = synth();
  queue = only(template, 'AWS::SQS::Queue', 'NotificationsQueue')[0];
  deadLetters = only(template, 'AWS::SQS::Queue', 'NotificationsDeadLetters')[0];
  delivery = only(template, 'AWS::Lambda::Function', 'NotificationsDeliveryFunction')[0];
});

describe('notifications on AWS (infra/notifications.ts)', () => {
  it('queue each game with new commits, encrypted and TLS only, with a dead-letter queue after 5 receives, given again only after the delivery function\'s timeout', () => {
    const queues = template.findResources('AWS::SQS::Queue') as Record<string, Resource>;
    // The notifications' queues (the sweep of abandoned games has a dead-letter queue of its own, infra/gameExpiry.ts; the push fan-out's are tested in test/infra/push.test.ts).
    expect(Object.keys(queues).map(named).filter((name) => name.startsWith('Notifications')).sort()).toEqual(['NotificationsDeadLetters', 'NotificationsQueue']);
    expect(queues[queue].Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: DELIVERY_TIMEOUT.toSeconds() * 6,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [deadLetters, 'Arn'] }, maxReceiveCount: MAX_RECEIVES },
    });
    expect(MAX_RECEIVES).toBe(5);
    expect(queues[deadLetters].Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    expect(queues[deadLetters].Properties.RedrivePolicy).toBeUndefined();
    // Both queues refuse requests without TLS.
    const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy') as Record<string, Resource>);
    for (const q of [queue, deadLetters]) {
      const policy = policies.find((p) => (p.Properties.Queues as { Ref: string }[]).some((r) => r.Ref === q))!;
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
    }
  });

  it('feed the delivery function from the queue in batches of 10, reporting the games that failed (ReportBatchItemFailures), and add no reader to the table\'s stream', () => {
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>);
    const fromQueue = mappings.filter((m) => m.Properties.EventSourceArn['Fn::GetAtt']?.[0] === queue);
    expect(fromQueue).toHaveLength(1);
    expect(fromQueue[0].Properties).toMatchObject({
      FunctionName: { Ref: delivery },
      BatchSize: 10,
      MaximumBatchingWindowInSeconds: 2,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    // The table's stream keeps its three readers: push, the sweep of abandoned games, the beacon reveals.
    const fromStream = mappings.filter((m) => m.Properties.EventSourceArn['Fn::GetAtt']?.[1] === 'StreamArn');
    expect(fromStream.map((m) => named(m.Properties.FunctionName.Ref)).sort()).toEqual(['BeaconRevealsRevealFunction', 'GameExpirySweepFunction', 'PushStreamFunction']);
    expect(only(template, 'AWS::Lambda::Function', 'NotificationsDeliveryFunction')[1].Properties).toMatchObject({ Timeout: DELIVERY_TIMEOUT.toSeconds(), Runtime: 'nodejs24.x', Architectures: ['arm64'] });
  });

  it('are handed on by the push stream function, which reads every new commit already: it is told the queue and may only send to it', () => {
    const env = only(template, 'AWS::Lambda::Function', 'PushStreamFunction')[1].Properties.Environment.Variables;
    expect(env.ARBITER_NOTIFY_QUEUE_URL).toEqual({ Ref: queue });
    // (It also sends to the push fan-out queue: test/infra/push.test.ts.)
    const sqs = statementsOf(template, 'PushStreamFunction').filter((s) => [s.Action].flat().some((a) => a.startsWith('sqs:')) && !JSON.stringify(s.Resource).includes('PushFanOut'));
    expect(sqs).toEqual([{ Effect: 'Allow', Action: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'], Resource: { 'Fn::GetAtt': [queue, 'Arn'] } }]);
    // Its stream filter is push's (INSERT or MODIFY): the commits are picked out by their key in the function (notifyQueue.test.ts).
    const mapping = Object.values(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>).find((m) => named(m.Properties.FunctionName.Ref) === 'PushStreamFunction')!;
    expect(mapping.Properties.FilterCriteria).toEqual({ Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT', 'MODIFY'] }) }] });
  });

  it('give the delivery function the table, the seed key to open secrets and the API\'s origin for links; no e-mail without a From identity', () => {
    const env = only(template, 'AWS::Lambda::Function', 'NotificationsDeliveryFunction')[1].Properties.Environment.Variables;
    expect(named(env.ARBITER_TABLE_NAME.Ref)).toBe('Commits');
    expect(named(env.ARBITER_SEED_KEY_ID['Fn::GetAtt'][0])).toBe('SeedKey');
    expect(env.ARBITER_PUBLIC_URL).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^Api[0-9A-F]{8}$/), 'ApiEndpoint'] });
    expect(env.ARBITER_SES_FROM).toBeUndefined();
    expect(env.ARBITER_SIGNS).toBeUndefined();
    expect(statementsOf(template, 'NotificationsDeliveryFunction').flatMap((s) => [s.Action].flat()).filter((a) => a.startsWith('ses:'))).toEqual([]);
    expect(only(template, 'AWS::Lambda::Function', 'CommandsFunction')[1].Properties.Environment.Variables.ARBITER_SES_FROM).toBeUndefined();
    expect(statementsOf(template, 'CommandsFunction').flatMap((s) => [s.Action].flat()).filter((a) => a.startsWith('ses:'))).toEqual([]);
  });

  it('send mail through SES with -c notificationMailFrom: only From that address, on its identity or its domain\'s; the commands function is told e-mail is offered', () => {
    const withMail = synth({ notificationMailFrom: 'arbiter@league.example' });
    const env = only(withMail, 'AWS::Lambda::Function', 'NotificationsDeliveryFunction')[1].Properties.Environment.Variables;
    expect(env.ARBITER_SES_FROM).toBe('arbiter@league.example');
    const commandsEnv = only(withMail, 'AWS::Lambda::Function', 'CommandsFunction')[1].Properties.Environment.Variables;
    expect(commandsEnv.ARBITER_SES_FROM).toBe('arbiter@league.example');
    // The confirmation mail's links name the API's origin, as the delivery function's notices do.
    expect(commandsEnv.ARBITER_PUBLIC_URL).toEqual(env.ARBITER_PUBLIC_URL);
    // The delivery function sends the notices, the commands function the confirmation mails: both only From that address.
    for (const sender of ['NotificationsDeliveryFunction', 'CommandsFunction']) {
      const ses = statementsOf(withMail, sender).filter((s) => [s.Action].flat().some((a) => a.startsWith('ses:')));
      expect(ses, sender).toHaveLength(1);
      expect(ses[0]).toMatchObject({ Effect: 'Allow', Action: 'ses:SendEmail', Condition: { StringEquals: { 'ses:FromAddress': 'arbiter@league.example' } } });
      // arn:<partition>:ses:<region>:<account>:identity/…, the pseudo parameters left out.
      const identities = (ses[0].Resource as { 'Fn::Join': [string, unknown[]] }[]).map((r) => r['Fn::Join'][1].filter((p) => typeof p === 'string').join(''));
      expect(identities).toEqual(['arn::ses:::identity/arbiter@league.example', 'arn::ses:::identity/league.example']);
    }
    expect(() => synth({ notificationMailFrom: 'Arbiter <arbiter@league.example>' })).toThrow(/notificationMailFrom is one e-mail address/);
  });

  it('alarm when a message reaches the dead-letter queue, and when the delivery function fails; the queues are outputs', () => {
    const alarms = template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>;
    const dlq = Object.entries(alarms).find(([id]) => named(id) === 'AlarmsNotificationDeadLetters')![1].Properties;
    expect(dlq).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [deadLetters, 'QueueName'] } }],
      Statistic: 'Maximum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(dlq.AlarmDescription).toMatch(/docs\/deploy\.md#notificationdeadletters$/);
    const errors = Object.entries(alarms).find(([id]) => named(id) === 'AlarmsNotificationsDeliveryFunctionErrors')![1].Properties;
    expect(errors).toMatchObject({ MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: { Ref: delivery } }], Threshold: 1 });
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.NotificationQueueUrl.Value).toEqual({ Ref: queue });
    expect(outputs.NotificationDeadLettersUrl.Value).toEqual({ Ref: deadLetters });
  });

  it('tick the delivery function every minute (digests by minutes, overdue reminders), without retries', () => {
    const rule = only(template, 'AWS::Events::Rule', 'NotificationsEveryMinute')[1].Properties;
    expect(rule).toMatchObject({ ScheduleExpression: 'rate(1 minute)', State: 'ENABLED' });
    expect(rule.Targets).toEqual([expect.objectContaining({ Arn: { 'Fn::GetAtt': [delivery, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })]);
  });

  it('let the engine\'s retries of one subscription end within one invocation, so it records its dead letter itself', () => {
    const { attempts, firstDelayMs, maxDelayMs } = AWS_DELIVERY_RETRY;
    const waits = Array.from({ length: attempts - 1 }, (_, i) => Math.min(maxDelayMs, firstDelayMs * 2 ** i));
    const worstMs = attempts * CHANNEL_TIMEOUT_MS + waits.reduce((sum, ms) => sum + ms, 0);
    // Half the timeout at most: reading the game, opening the target and the other games of the batch take the rest.
    expect(worstMs).toBeLessThanOrEqual(DELIVERY_TIMEOUT.toMilliseconds() / 2);
  });
});
