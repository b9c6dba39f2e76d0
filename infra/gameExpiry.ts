import { Duration, Validations } from 'aws-cdk-lib';
import type { Alarm, IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { LEASE_KEY_PREFIX } from '../functions/store/dynamoGameLeases';
import { QUOTA_KEY_PREFIX } from '../functions/store/dynamoCreationCounter';
import { SEED_KEY_SUFFIX } from '../functions/store/dynamoStore';
import { SNAPSHOT_KEY_SUFFIX } from '../functions/store/dynamoSnapshots';
import { PENDING_REVEALS_KEY } from '../functions/store/dynamoPendingReveals';
import { sideFunction } from './sideFunction';
import { settingName } from '../functions/config/settingNames';

export const EXPIRY_ENTRIES = { sweepAbandoned: 'functions/lambda/sweepAbandoned.ts' } as const;

/** The partitions of a game besides its commits that the sweep lists and deletes (functions/store/dynamoGameLeases.ts). */
const SWEPT_PARTITIONS = ['*#viewers', '*#tokens', `*${SNAPSHOT_KEY_SUFFIX}`, PENDING_REVEALS_KEY];

export interface GameExpiryProps {
  /** The game table: its TTL attribute is `expiresAt`, its stream on (KEYS_ONLY). */
  table: ITable;
  /** The function that creates games and takes commands: it arms leases and counts creations. */
  commands: IFunction & { addEnvironment(key: string, value: string): unknown };
  /** Functions that tell players when a game would be abandoned (GET /games/{id}). */
  readers: (IFunction & { addEnvironment(key: string, value: string): unknown })[];
  /** Days without a command after which an unsealed game of no tournament is deleted; 0 = never. */
  abandonedGameDays: number;
  /** Games and tournaments one address may create per hour without a tournament's token; 0 = no quota. */
  creationQuotaPerHour: number;
  logRetention?: RetentionDays;
  /** The stack's alarms (ArbiterStack.addAlarm): the sweep's iterator age and dead letters. */
  addAlarm?: (id: string, options: { metric: IMetric; threshold: number; description: string; evaluationPeriods?: number }) => Alarm;
}

/**
 * How the stream feeds the sweep (docs/deploy.md#abandoned-games-and-the-creation-quota): up
 * to 100 ended leases a batch, gathered for up to 30 s, swept 10 at a time in the function
 * (SWEEP_CONCURRENCY), and up to 4 batches of one stream shard at once (records of one key
 * stay in order). A batch that fails is split and retried; records that still fail after
 * 10 retries or 6 hours go to the dead-letter queue.
 */
export const SWEEP_STREAM = { batchSize: 100, maxBatchingWindow: Duration.seconds(30), parallelizationFactor: 4, retryAttempts: 10, maxRecordAge: Duration.hours(6) } as const;
/** The sweep's timeout: a batch of 100 takes ten rounds of one game each, seconds on DynamoDB. */
export const SWEEP_TIMEOUT = Duration.minutes(2);

/**
 * Abandoned games and the creation quota (docs/deploy.md): the commands function keeps a
 * lease item per expiring game (`lease#<game>`, TTL `expiresAt`) and a count per address and
 * hour (`quota#…`, TTL); when TTL removes a lease, the stream gives it to the sweep function,
 * which deletes the game if its last commit says it was abandoned. The sweep function may
 * delete a game's items but read no seed and no secret.
 */
export class GameExpiry extends Construct {
  readonly sweepFunction?: NodejsFunction;
  /** Where the stream's records of leases the sweep could not finish go after their retries (their shard and sequence numbers). */
  readonly deadLetters?: Queue;

  constructor(scope: Construct, id: string, props: GameExpiryProps) {
    super(scope, id);
    const { table, commands } = props;
    commands.addEnvironment(settingName('creationQuota'), String(props.creationQuotaPerHour));
    commands.addEnvironment(settingName('expiry'), String(props.abandonedGameDays));
    for (const reader of props.readers) reader.addEnvironment(settingName('expiry'), String(props.abandonedGameDays));
    // Counting a creation is an UpdateItem (ADD) on a quota item; dropping a sealed game's lease a DeleteItem on it.
    commands.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${QUOTA_KEY_PREFIX}*`] } },
      }),
    );
    commands.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:DeleteItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${LEASE_KEY_PREFIX}*`] } },
      }),
    );
    if (props.abandonedGameDays === 0) return;
    if (!table.tableStreamArn) throw new Error('the game table needs a stream for the sweep of abandoned games');

    const fn = sideFunction(this, 'Sweep', {
      entry: EXPIRY_ENTRIES.sweepAbandoned,
      description: 'Arbiter: deletes abandoned games',
      serviceName: 'arbiter-sweep',
      timeout: SWEEP_TIMEOUT,
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      environment: { [settingName('tableName')]: table.tableName, [settingName('expiry')]: String(props.abandonedGameDays) },
    });
    this.sweepFunction = fn;
    // It finds a game's items (keys only) and its last commit, and deletes them one DeleteItem at a time (a BatchWriteItem
    // could put items too), each returning nothing (ReturnValues ALL_OLD would read a seed or the secrets back); it writes nothing but leases.
    const returnsNothing = { StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' } };
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:Query', 'dynamodb:DeleteItem'],
        resources: [table.tableArn],
        // The game's commits: a partition key with no `#` is a game id (functions/store/dynamoStore.ts).
        conditions: { 'ForAllValues:StringNotLike': { 'dynamodb:LeadingKeys': ['*#*'] }, ...returnsNothing },
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:Query', 'dynamodb:DeleteItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': SWEPT_PARTITIONS }, ...returnsNothing },
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:DeleteItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`*${SEED_KEY_SUFFIX}`, '*#secrets', `${LEASE_KEY_PREFIX}*`] }, ...returnsNothing },
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:PutItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${LEASE_KEY_PREFIX}*`] } },
      }),
    );
    // It deletes the seed and secrets items by key: it may never read them.
    fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan'],
        resources: [table.tableArn],
        conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [`*${SEED_KEY_SUFFIX}`, '*#secrets'] } },
      }),
    );
    const deadLetters = new Queue(this, 'SweepDeadLetters', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
    this.deadLetters = deadLetters;
    Validations.of(deadLetters).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This queue is itself a dead-letter queue: the on-failure destination of the sweep function's stream event source, which cdk-nag does not recognise as one (it knows only SQS redrive policies).",
    });
    fn.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: SWEEP_STREAM.batchSize,
        maxBatchingWindow: SWEEP_STREAM.maxBatchingWindow,
        parallelizationFactor: SWEEP_STREAM.parallelizationFactor,
        retryAttempts: SWEEP_STREAM.retryAttempts,
        maxRecordAge: SWEEP_STREAM.maxRecordAge,
        onFailure: new SqsDlq(deadLetters),
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        // Only leases that TTL removed: the service's REMOVE of a `lease#` key.
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('REMOVE'),
            userIdentity: { type: FilterRule.isEqual('Service'), principalId: FilterRule.isEqual('dynamodb.amazonaws.com') },
            dynamodb: { Keys: { pk: { S: FilterRule.beginsWith(LEASE_KEY_PREFIX) } } },
          }),
        ],
      }),
    );
    props.addAlarm?.('SweepIteratorAge', {
      metric: fn.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 60 * 60 * 1000,
      description: 'The sweep of abandoned games is more than an hour behind the stream (failing or throttled); stream records live 24 hours. docs/deploy.md#sweepiteratorage',
    });
    props.addAlarm?.('SweepDeadLetters', {
      metric: deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 1,
      description: 'Ended leases the sweep could not finish after its retries wait in the dead-letter queue: their games keep their items until swept again. docs/deploy.md#sweepdeadletters',
    });
    Validations.of(fn.role!.node.findChild('DefaultPolicy')).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray tracing (xray:PutTraceSegments, xray:PutTelemetryRecords) and dynamodb:ListStreams: these actions take no resource. Every other statement names its resource.',
    });
  }
}
