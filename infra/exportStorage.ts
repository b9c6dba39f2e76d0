import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { EXPORT_ENVIRONMENT, EXPORT_PREFIX, EXPORT_RETENTION_DAYS } from '../functions/store/blobStore';

export interface ExportStorageProps {
  /** Functions that link stored exports: s3:GetObject on exports/, and s3:ListBucket so that a missing export is a 404, not a 403. */
  readers?: readonly LambdaFunction[];
  /** Functions that also write them (the one serving GET /games/{id}/export): s3:PutObject on exports/ as well. */
  writers?: readonly LambdaFunction[];
  /** Functions that make tournament exports in parts (infra/exportJob.ts): a writer's grants, and s3:AbortMultipartUpload to drop a failed one. */
  jobs?: readonly LambdaFunction[];
  /**
   * Origins whose pages may read a link (bucket CORS, GET and HEAD only); default `*`. A link is
   * itself the permission, carries no cookie and expires in minutes, so any origin may read it.
   */
  allowedOrigins?: readonly string[];
  /** Export objects are removed this long after they were written; asking again writes them again. Default EXPORT_RETENTION_DAYS (7). */
  expireAfter?: Duration;
}

export interface ExportStorage {
  bucket: Bucket;
  logs: Bucket;
  /** `https://` + the bucket's regional domain name: where the links point (a web page's connect-src must allow it). */
  origin: string;
}

/**
 * The bucket of large exports (docs/exports.md): encrypted, never public, TLS 1.2 or later
 * only, its objects expiring after `expireAfter`, readable cross-origin by GET through
 * presigned links. The functions given are granted the exports/ prefix alone and get the
 * environment s3BlobStore.ts reads (ARBITER_EXPORT_ENDPOINT, _REGION, _PREFIX).
 */
export function addExportStorage(scope: Construct, props: ExportStorageProps = {}): ExportStorage {
  const storage = new Construct(scope, 'ExportStorage');
  // Its ownership is left to CDK: the log delivery writes with an ACL unless the stack opts into a bucket policy for it.
  const logs = new Bucket(storage, 'AccessLogs', {
    encryption: BucketEncryption.S3_MANAGED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(90) }],
  });

  const bucket = new Bucket(storage, 'Exports', {
    encryption: BucketEncryption.S3_MANAGED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    versioned: false,
    serverAccessLogsBucket: logs,
    serverAccessLogsPrefix: 'exports-bucket/',
    lifecycleRules: [
      { id: 'expire-exports', prefix: EXPORT_PREFIX, expiration: props.expireAfter ?? Duration.days(EXPORT_RETENTION_DAYS) },
      { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
    ],
    cors: [
      {
        allowedMethods: [HttpMethods.GET, HttpMethods.HEAD],
        allowedOrigins: [...(props.allowedOrigins ?? ['*'])],
        exposedHeaders: ['content-length', 'content-type'],
        maxAge: 3600,
      },
    ],
  });
  const origin = `https://${bucket.bucketRegionalDomainName}`;
  const objects = bucket.arnForObjects(`${EXPORT_PREFIX}*`);
  // The finding names the resource as cdk-nag prints it: `<logical id of the bucket.Arn>/exports/*`.
  const bucketLogicalId = Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnBucket);
  const wildcard = `AwsSolutions-IAM5[Resource::<${bucketLogicalId}.Arn>/${EXPORT_PREFIX}*]`;

  const grant = (fn: LambdaFunction, actions: string[]) => {
    fn.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions, resources: [objects] }));
    fn.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
    fn.addEnvironment(EXPORT_ENVIRONMENT.endpoint, origin);
    fn.addEnvironment(EXPORT_ENVIRONMENT.region, Stack.of(bucket).region);
    fn.addEnvironment(EXPORT_ENVIRONMENT.prefix, EXPORT_PREFIX);
    // On the role's policy resource itself, the narrowest place the finding is reported.
    const policy = fn.role?.node.tryFindChild('DefaultPolicy')?.node.defaultChild;
    if (policy) Validations.of(policy).acknowledge({ id: wildcard, reason: 'Export objects under exports/ only: their keys name a game and a version, known only when a game is exported.' });
  };
  const jobs = new Set(props.jobs ?? []);
  for (const fn of jobs) grant(fn, ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload']);
  const writers = new Set([...(props.writers ?? []), ...jobs]);
  for (const fn of props.writers ?? []) if (!jobs.has(fn)) grant(fn, ['s3:GetObject', 's3:PutObject']);
  for (const fn of props.readers ?? []) if (!writers.has(fn)) grant(fn, ['s3:GetObject']);
  return { bucket, logs, origin };
}
