import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
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
}

/**
 * Abandoned games and the creation quota (docs/deploy.md): the commands function keeps a
 * lease item per expiring game (`lease#<game>`, TTL `expiresAt`) and a count per address and
 * hour (`quota#…`, TTL); when TTL removes a lease, the stream gives it to the sweep function,
 * which deletes the game if its last commit says it was abandoned. The sweep function may
 * delete a game's items but read no seed and no secret.
 */
export class GameExpiry extends Construct {
  readonly sweepFunction?: NodejsFunction;

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
      timeout: Duration.minutes(1),
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
    fn.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 25,
        retryAttempts: 10,
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
    Validations.of(fn.role!.node.findChild('DefaultPolicy')).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray tracing (xray:PutTraceSegments, xray:PutTelemetryRecords) and dynamodb:ListStreams: these actions take no resource. Every other statement names its resource.',
    });
  }
}
