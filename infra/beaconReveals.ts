import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as FunctionTarget } from 'aws-cdk-lib/aws-events-targets';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { relayBaseOf } from '../functions/application/beaconRelay';
import { settingName } from '../functions/config/settingNames';
import { PENDING_REVEALS_KEY } from '../functions/store/dynamoPendingReveals';
import { SEED_KEY_SUFFIX } from '../functions/store/dynamoStore';
import { sideFunction } from './sideFunction';

export const BEACON_ENTRIES = { revealBeacons: 'functions/lambda/revealBeacons.ts' } as const;

/** drand's public relays (League of Entropy), the stack's default ARBITER_DRAND_RELAYS: asked in this order. */
export const DRAND_PUBLIC_RELAYS = ['https://api.drand.sh', 'https://api2.drand.sh', 'https://api3.drand.sh', 'https://drand.cloudflare.com'] as const;

/** The reveal function waits for a round within one invocation at most this long; what is left, the schedule takes. */
export const REVEAL_TIMEOUT = Duration.minutes(1);

export interface BeaconRevealsProps {
  /** The game table, its stream on (KEYS_ONLY). */
  table: ITable;
  /** The function that accepts beacon rolls: it writes each pending commit's entry (functions/store/dynamoPendingReveals.ts). */
  commands: IFunction & { addEnvironment(key: string, value: string): unknown };
  /** Base URLs of drand relays (ARBITER_DRAND_RELAYS), at least one. */
  relays: readonly string[];
  logRetention?: RetentionDays;
}

/**
 * Beacon games on AWS (docs/beacon.md, docs/deploy.md): the commands function accepts a roll
 * as a pending commit and writes its entry in the `reveal#pending` partition; the table's stream gives the new
 * entry to the reveal function within a second, which waits for the round, asks the relays
 * (each answer's BLS signature checked) and appends the reveal. Every minute a schedule calls
 * it again for the entries already due (a relay that was down, a stream record given up). It
 * is on the commands side: it signs the reveals (the grants are addSigning's `revealers`).
 */
export class BeaconReveals extends Construct {
  readonly revealFunction: NodejsFunction;

  constructor(scope: Construct, id: string, props: BeaconRevealsProps) {
    super(scope, id);
    const { table, commands } = props;
    if (props.relays.length === 0) throw new Error('beacon reveals need at least one drand relay');
    const relays = props.relays.map((relay) => relayBaseOf(relay)).join(',');
    if (!table.tableStreamArn) throw new Error('the game table needs a stream for the beacon reveals');
    // The commands function offers beacon games when relays are set: this function reveals them.
    commands.addEnvironment(settingName('drandRelays'), relays);

    const fn = sideFunction(this, 'Reveal', {
      entry: BEACON_ENTRIES.revealBeacons,
      description: 'Arbiter: reveals the beacon rolls of beacon games',
      serviceName: 'arbiter-reveal',
      timeout: REVEAL_TIMEOUT,
      // A BLS check is CPU: 512 MB gives it a third of a vCPU (about 0.1 s a round).
      memorySize: 512,
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      environment: { [settingName('tableName')]: table.tableName, [settingName('drandRelays')]: relays },
    });
    this.revealFunction = fn;
    // As the commands function: games, their commits, seeds and snapshots read; commits and snapshots written.
    fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:Query'], resources: [table.tableArn] }));
    // It reads a game's seed to roll its dice, as the commands function does, but never writes a seed or a game's secrets.
    fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'],
        resources: [table.tableArn],
        conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [`*${SEED_KEY_SUFFIX}`, '*#secrets'] } },
      }),
    );
    // The entries due are a Query of one partition (functions/store/dynamoPendingReveals.ts); a revealed one is deleted, and nothing else.
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:DeleteItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [PENDING_REVEALS_KEY] } },
      }),
    );
    fn.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.LATEST,
        batchSize: 100,
        // Batches of one shard run side by side: a batch waiting for its round holds up no other.
        parallelizationFactor: 10,
        // An invocation that failed (KMS or the table unavailable) is retried twice; after that the schedule reveals.
        retryAttempts: 2,
        // Only new entries: the commands function's INSERT in the pending reveals' partition.
        filters: [FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { Keys: { pk: { S: FilterRule.isEqual(PENDING_REVEALS_KEY) } } } })],
      }),
    );
    new Rule(this, 'EveryMinute', {
      description: 'Arbiter: reveals the beacon rolls already due (those the stream left)',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new FunctionTarget(fn, { retryAttempts: 0 })],
    });
    Validations.of(fn.role!.node.findChild('DefaultPolicy')).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray tracing (xray:PutTraceSegments, xray:PutTelemetryRecords) and dynamodb:ListStreams: these actions take no resource. Every other statement names its resource.',
    });
  }
}
