import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { runSimulation } from '@cloud-copilot/iam-simulate';
import { beforeAll, describe, expect, it } from 'vitest';
import { addExportJob, EXPORT_JOB_TIMEOUT } from '../../infra/exportJob';
import { addExportStorage } from '../../infra/exportStorage';

const ACCOUNT = '111122223333';
const REGION = 'eu-west-3';
const TABLE = `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/Commits`;
const KEY = (name: string) => `arn:aws:kms:${REGION}:${ACCOUNT}:key/${name}`;
const BUCKET = 'arn:aws:s3:::arbiter-exports';
const JOB_FUNCTION = `arn:aws:lambda:${REGION}:${ACCOUNT}:function:ExportJob`;

let stack: Stack;
let template: Template;
let starter: LambdaFunction;
let job: LambdaFunction;

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new Stack(app, 'ExportJobTest', { env: { account: ACCOUNT, region: REGION } });
  const table = Table.fromTableArn(stack, 'Commits', TABLE);
  // Two signing keys, the first retired by a rotation (trust.md §6).
  const signingKeys = [Key.fromKeyArn(stack, 'Old', KEY('signing-1')), Key.fromKeyArn(stack, 'Current', KEY('signing-2'))];
  starter = new LambdaFunction(stack, 'Commands', { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('export const handler = async () => ({})') });
  job = addExportJob(stack, { table, starter, signingKeys, retired: 1, logRetention: RetentionDays.ONE_MONTH });
  addExportStorage(stack, { writers: [starter], jobs: [job] });
  template = Template.fromStack(stack);
});

/** The template's value with the stand-ins of what it names: the bucket's and the job function's ARNs. */
function resolved(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolved);
  if (value === null || typeof value !== 'object') return value;
  const v = value as Record<string, unknown>;
  if (v['Fn::GetAtt']) {
    const [id] = v['Fn::GetAtt'] as [string, string];
    if (id.includes('Exports')) return BUCKET;
    if (id.startsWith('ExportJobFunction')) return JOB_FUNCTION;
    if (id.startsWith('ExportJobLogs')) return `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:export-job`;
    throw new Error(`no stand-in for ${id}`);
  }
  if (v['Fn::Join']) {
    const [sep, parts] = v['Fn::Join'] as [string, unknown[]];
    return parts.map(resolved).join(sep);
  }
  if (v.Ref) throw new Error(`no stand-in for Ref ${String(v.Ref)}`);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolved(x)]));
}

function policiesOf(fn: LambdaFunction) {
  const roleId = stack.getLogicalId(fn.role!.node.defaultChild as never);
  return Object.entries(template.findResources('AWS::IAM::Policy'))
    .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .map(([name, p]) => ({ name, policy: resolved(p.Properties.PolicyDocument) as never }));
}

/** What IAM decides for this function's role alone (its identity policies; the key policies are helper K's). */
async function decision(fn: LambdaFunction, action: string, resource: string, context: Record<string, string | string[]> = {}) {
  const response = await runSimulation(
    {
      identityPolicies: policiesOf(fn),
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      // A KMS key decides only with its key policy: here one that leaves it to IAM (the account's root), so that this role's own statements are what is tested. Helper K's key policies name the roles that may sign.
      ...(action.startsWith('kms:') ? { resourcePolicy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` }, Action: 'kms:*', Resource: '*' }] } } : {}),
      request: { action, principal: `arn:aws:iam::${ACCOUNT}:role/test`, resource: { accountId: ACCOUNT, resource }, contextVariables: context },
    },
    {},
  );
  if (response.resultType === 'error') throw new Error(JSON.stringify(response.errors));
  return response.overallResult;
}

describe('the export function (infra/exportJob.ts), as IAM evaluates its role', () => {
  it('runs 15 minutes, with Lambda retries off (a failed job is started again by its status), and is started by the commands function alone', () => {
    const jobId = stack.getLogicalId(job.node.defaultChild as never);
    template.hasResourceProperties('AWS::Lambda::Function', { Timeout: EXPORT_JOB_TIMEOUT.toSeconds(), MemorySize: 1024 });
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: jobId }, MaximumRetryAttempts: 0 });
    const starterEnv = (Object.values(template.findResources('AWS::Lambda::Function')).find((f) => f.Properties.Handler === 'index.handler')!.Properties.Environment.Variables) as Record<string, unknown>;
    expect(starterEnv.ARBITER_EXPORT_JOB_FUNCTION).toEqual({ Ref: jobId });
  });

  it('signs with the current signing key only: not with a retired one, never opening a seed, sealing one or minting a token', async () => {
    expect(await decision(job, 'kms:Sign', KEY('signing-2'))).toBe('Allowed');
    expect(await decision(job, 'kms:GetPublicKey', KEY('signing-1'))).toBe('Allowed');
    expect(await decision(job, 'kms:Sign', KEY('signing-1'))).toBe('ExplicitlyDenied');
    for (const action of ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateMac']) {
      expect(await decision(job, action, KEY('seeds')), action).toBe('ImplicitlyDenied');
      expect(await decision(job, action, KEY('signing-2')), action).toBe('ImplicitlyDenied');
    }
  });

  it('writes exports/ alone in the bucket, and reads games but never a seed item nor writes the table', async () => {
    expect(await decision(job, 's3:PutObject', `${BUCKET}/exports/tournaments/t-1/abc.ndjson`)).toBe('Allowed');
    expect(await decision(job, 's3:AbortMultipartUpload', `${BUCKET}/exports/tournaments/t-1/abc.ndjson`)).toBe('Allowed');
    expect(await decision(job, 's3:PutObject', `${BUCKET}/other/file`)).toBe('ImplicitlyDenied');
    expect(await decision(job, 's3:DeleteObject', `${BUCKET}/exports/tournaments/t-1/abc.ndjson`)).toBe('ImplicitlyDenied');
    expect(await decision(job, 'dynamodb:Query', TABLE, { 'dynamodb:LeadingKeys': ['g-1'] })).toBe('Allowed');
    expect(await decision(job, 'dynamodb:GetItem', TABLE, { 'dynamodb:LeadingKeys': ['g-1#seed'] })).toBe('ExplicitlyDenied');
    for (const action of ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:UpdateItem', 'dynamodb:Scan']) expect(await decision(job, action, TABLE), action).not.toBe('Allowed');
  });

  it('lets the commands function invoke the export function and no other', async () => {
    expect(await decision(starter, 'lambda:InvokeFunction', JOB_FUNCTION)).toBe('Allowed');
    expect(await decision(starter, 'lambda:InvokeFunction', `${JOB_FUNCTION}-other`)).toBe('ImplicitlyDenied');
    expect(await decision(job, 'lambda:InvokeFunction', JOB_FUNCTION)).toBe('ImplicitlyDenied');
  });
});
