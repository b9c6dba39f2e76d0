import { CfnOutput, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as FunctionTarget } from 'aws-cdk-lib/aws-events-targets';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { settingName } from '../functions/config/settingNames';
import { SEED_KEY_SUFFIX } from '../functions/store/dynamoStore';
import { sideFunction } from './sideFunction';

export const NOTIFY_ENTRIES = { notifyDelivery: 'functions/lambda/notifyDelivery.ts' } as const;

/** The delivery function's timeout: a game's catch-up, its channels' 10 s timeouts and retries included (AWS_DELIVERY_RETRY). */
export const DELIVERY_TIMEOUT = Duration.minutes(3);
/** Receives of a message before SQS moves it to the dead-letter queue. */
export const MAX_RECEIVES = 5;

/**
 * The notification store's partition keys (part C's DynamoSubscriptions): `subscription#<id>`
 * holds a subscription and its cursors, `deadletters#<id>` its dead letters, and
 * `subscriptions#…` the indexes by game and tournament.
 */
export const NOTIFY_KEYS = { subscription: 'subscription#*', deadLetters: 'deadletters#*', indexes: 'subscriptions#*' } as const;
/** What the engine writes: cursors (a PutItem under the subscription) and dead letters (put, and the oldest deleted). */
export const NOTIFY_WRITABLE_KEYS = [NOTIFY_KEYS.subscription, NOTIFY_KEYS.deadLetters] as const;
/** What it may only delete: a scope's index entries, when it removes a subscription whose grant ended (DynamoSubscriptions.remove). */
export const NOTIFY_DELETABLE_KEYS = ['subscriptions#game#*', 'subscriptions#tournament#*'] as const;
/** Sealed targets are sealed under `subscription:<id>` as the seed key's encryption context (part C's sealedTarget.ts). */
export const SEALED_TARGET_CONTEXT = 'subscription:*';
/** Partition keys it may never read nor write: seeds, token hashes, spectator links, idempotency records, the key ring. */
export const NOTIFY_DENIED_KEYS = [`*${SEED_KEY_SUFFIX}`, '*#secrets', '*#tokens', '*#viewers', 'tournament-token#*', 'idempotency#*', 'arbiter#keyring'] as const;

export interface NotificationsProps {
  /** The game table, its stream on (KEYS_ONLY). */
  table: ITable;
  /** The stream function that already reads each new commit (the push stream function): it puts the game on the queue. */
  enqueuer: IFunction & { addEnvironment(key: string, value: string): unknown };
  /** The function that registers subscriptions (commands): told whether e-mail is offered (and sends the confirmation mails then), and let to confirm and end them. */
  subscriber: IFunction & { addEnvironment(key: string, value: string): unknown };
  /** The key that seals seeds, and the subscriptions' targets the same way (under `subscription:<id>` as encryption context). */
  seedKey: IKey;
  /** The API's origin, for the links in each notice (timeline, confirm, unsubscribe). */
  publicUrl: string;
  /** The From address of notification mail, an identity verified in SES; unset: no e-mail subscriptions. */
  mailFrom?: string;
  logRetention?: RetentionDays;
}

/**
 * Notifications on AWS (docs/deploy.md#notifications): the push stream function, which reads
 * every new commit of the table's stream already, puts `{ gameId }` on a queue (no fourth
 * reader of the stream); the delivery function catches each game of a batch up through the
 * engine, and reports the games that failed, whose messages go back on the queue; after 5
 * receives a message lands in the dead-letter queue (kept 14 days, alarmed on). Every minute
 * a schedule ticks the engine, which catches up every game with subscriptions (digests that
 * fell due, a hand-off the stream lost).
 */
export class Notifications extends Construct {
  readonly queue: Queue;
  readonly deadLetters: Queue;
  readonly deliveryFunction: NodejsFunction;

  constructor(scope: Construct, id: string, props: NotificationsProps) {
    super(scope, id);
    const { table } = props;
    if (props.mailFrom !== undefined && !/^[^@\s<>"]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,}$/.test(props.mailFrom)) {
      throw new Error(`notificationMailFrom is one e-mail address (an SES verified identity): got ${JSON.stringify(props.mailFrom)}`);
    }

    this.deadLetters = new Queue(this, 'DeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Lambda's advice: six times the function's timeout, so a message is not given again while a batch still runs.
      visibilityTimeout: Duration.seconds(DELIVERY_TIMEOUT.toSeconds() * 6),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: MAX_RECEIVES },
    });

    const fn = sideFunction(this, 'Delivery', {
      entry: NOTIFY_ENTRIES.notifyDelivery,
      description: 'Arbiter: delivers notifications of new commits (webhooks, Discord, Slack, e-mail)',
      serviceName: 'arbiter-notify',
      timeout: DELIVERY_TIMEOUT,
      memorySize: 256,
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      environment: {
        [settingName('tableName')]: table.tableName,
        [settingName('seedKeyId')]: props.seedKey.keyArn,
        [settingName('publicUrl')]: props.publicUrl,
        ...(props.mailFrom ? { [settingName('sesFrom')]: props.mailFrom } : {}),
      },
    });
    this.deliveryFunction = fn;

    props.enqueuer.addEnvironment(settingName('notifyQueueUrl'), this.queue.queueUrl);
    this.queue.grantSendMessages(props.enqueuer);
    // With e-mail offered, the commands function sends each address's confirmation mail, its links on the API's origin.
    if (props.mailFrom) {
      props.subscriber.addEnvironment(settingName('sesFrom'), props.mailFrom);
      props.subscriber.addEnvironment(settingName('publicUrl'), props.publicUrl);
    }
    // It puts subscriptions with its PutItem on the table; confirming one is an UpdateItem, ending one DeleteItems of its items.
    props.subscriber.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [NOTIFY_KEYS.subscription, NOTIFY_KEYS.deadLetters, NOTIFY_KEYS.indexes] } },
      }),
    );

    // The table: commits, games and subscriptions read; only the notification store's items written; seeds, secrets and tokens never reached.
    fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:Query'], resources: [table.tableArn] }));
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...NOTIFY_WRITABLE_KEYS] } },
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:DeleteItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...NOTIFY_DELETABLE_KEYS] } },
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'],
        resources: [table.tableArn],
        conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [...NOTIFY_DENIED_KEYS] } },
      }),
    );
    // Opens the subscriptions' sealed targets, and nothing else under the seed key: Decrypt only, and only under a subscription's context, never a game's.
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['kms:Decrypt'],
        resources: [props.seedKey.keyArn],
        conditions: {
          'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['gameId'] },
          Null: { 'kms:EncryptionContextKeys': 'false' },
          StringLike: { 'kms:EncryptionContext:gameId': SEALED_TARGET_CONTEXT },
        },
      }),
    );
    if (props.mailFrom) {
      const stack = Stack.of(this);
      const domain = props.mailFrom.slice(props.mailFrom.lastIndexOf('@') + 1);
      // The identity verified may be the address or its domain; either way only mail From that address: notices, and confirmations.
      for (const sender of [fn, props.subscriber]) {
        sender.addToRolePolicy(
          new PolicyStatement({
            actions: ['ses:SendEmail'],
            resources: [props.mailFrom, domain].map((identity) => stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity })),
            conditions: { StringEquals: { 'ses:FromAddress': props.mailFrom } },
          }),
        );
      }
    }

    fn.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: 10,
        // A burst of commits of one game is caught up once.
        maxBatchingWindow: Duration.seconds(2),
        reportBatchItemFailures: true,
      }),
    );
    new Rule(this, 'EveryMinute', {
      description: 'Arbiter: every game with notification subscriptions caught up (digests due, hand-offs lost)',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new FunctionTarget(fn, { retryAttempts: 0 })],
    });

    Validations.of(fn.role!.node.findChild('DefaultPolicy')).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray tracing (xray:PutTraceSegments, xray:PutTelemetryRecords): these actions take no resource. Every other statement names its resource.',
    });

    new CfnOutput(this, 'NotificationQueueUrl', { value: this.queue.queueUrl, description: 'The queue of games with new commits to notify (docs/deploy.md#notifications)' }).overrideLogicalId('NotificationQueueUrl');
    new CfnOutput(this, 'NotificationDeadLettersUrl', {
      value: this.deadLetters.queueUrl,
      description: 'Notification batches that failed 5 times: see docs/deploy.md#notificationdeadletters',
    }).overrideLogicalId('NotificationDeadLettersUrl');
  }
}
