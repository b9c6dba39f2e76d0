import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { settingName } from '../functions/config/settingNames';
import { SEED_KEY_SUFFIX } from '../functions/store/dynamoStore';
import { sideFunction } from './sideFunction';

/**
 * What the export function may never read in the game table: seeds, token hashes of issued
 * tokens, spectator links, tournament token hashes, idempotency records, subscriptions
 * (sealed targets) and quotas. It reads games, tournaments, their listings and the key ring.
 * It keeps GetItem on `<game>#secrets`: a game created in a tournament before GameCreated
 * named its tournament (2026-11-27) is checked against the tournament its secrets name.
 */
export const EXPORT_JOB_DENIED_KEYS = [`*${SEED_KEY_SUFFIX}`, '*#tokens', '*#viewers', 'tournament-token#*', 'idempotency#*', 'subscription*', 'quota#*'] as const;

export const EXPORT_JOB_ENTRIES = { exportJob: 'functions/lambda/exportJob.ts' } as const;

/** The export function's time: a 200-game round took seconds on loopback; 15 minutes (Lambda's most) leaves room for thousands of games and a slow KMS or S3. */
export const EXPORT_JOB_TIMEOUT = Duration.minutes(15);

export interface ExportJobProps {
  table: ITable;
  /** The function that starts jobs (the one serving GET /tournaments/{id}/export): lambda:InvokeFunction on this one only. */
  starter: LambdaFunction;
  /** The signing keys, first to last, and how many rotations retired (infra/signing.ts): kms:Sign on the others only. */
  signingKeys: readonly IKey[];
  retired?: number;
  logRetention: RetentionDays;
}

/**
 * The export function (docs/deploy.md "Tournament exports"): makes one tournament export per
 * asynchronous invocation, reading the games (GetItem, Query; never a seed item), signing the
 * tournament head (kms:Sign on the current signing keys; it seals, opens and mints nothing)
 * and writing the file under exports/ in parts (the caller grants the bucket: exportStorage.ts).
 * Lambda's own retries are off: a failed job is written to its record and started again by the
 * status the client polls.
 */
export function addExportJob(scope: Construct, props: ExportJobProps): NodejsFunction {
  const keyArns = props.signingKeys.map((key) => key.keyArn);
  const retired = props.retired ?? 0;
  const fn = sideFunction(scope, 'ExportJob', {
    entry: EXPORT_JOB_ENTRIES.exportJob,
    description: 'Arbiter: makes tournament exports (signs tournament heads, writes exports/ in the export bucket)',
    serviceName: 'arbiter-export',
    timeout: EXPORT_JOB_TIMEOUT,
    // Parts of 8 MiB and a few games at a time: memory is for CPU (JSON of 60,000 commits), not for the file.
    memorySize: 1024,
    retention: props.logRetention,
    environment: { [settingName('tableName')]: props.table.tableName, [settingName('signingKeyId')]: keyArns[0], [settingName('signs')]: 'true' },
  });
  fn.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(15) });
  fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:Query'], resources: [props.table.tableArn] }));
  fn.addToRolePolicy(
    new PolicyStatement({
      effect: Effect.DENY,
      actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
      resources: [props.table.tableArn],
      conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [...EXPORT_JOB_DENIED_KEYS] } },
    }),
  );
  fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:Sign', 'kms:GetPublicKey'], resources: keyArns.slice(retired) }));
  if (retired > 0) {
    fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:GetPublicKey'], resources: keyArns.slice(0, retired) }));
    fn.addToRolePolicy(new PolicyStatement({ effect: Effect.DENY, actions: ['kms:Sign'], resources: keyArns.slice(0, retired) }));
  }
  props.starter.addToRolePolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }));
  props.starter.addEnvironment(settingName('exportJobFunction'), fn.functionName);
  Validations.of(fn.role!.node.findChild('DefaultPolicy')).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason: 'X-Ray tracing (xray:PutTraceSegments, xray:PutTelemetryRecords): these actions take no resource. Every other statement names its resource.',
  });
  return fn;
}
