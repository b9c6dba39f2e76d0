import { App, Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { addExportStorage } from '../../infra/exportStorage';

let stack: Stack;
let template: Template;
let functions: { reads: LambdaFunction; linker: LambdaFunction; commands: LambdaFunction };

beforeAll(() => {
  const app = new App();
  stack = new Stack(app, 'ExportTest', { env: { account: '111122223333', region: 'eu-west-3' } });
  const fn = (id: string) => new LambdaFunction(stack, id, { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('export const handler = async () => ({})') });
  functions = { reads: fn('Reads'), linker: fn('Linker'), commands: fn('Commands') };
  addExportStorage(stack, { writers: [functions.reads], readers: [functions.linker, functions.reads], allowedOrigins: ['https://arbiter.example.test'], expireAfter: Duration.days(3) });
  template = Template.fromStack(stack);
});

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };
function statementsOf(fn: LambdaFunction): Statement[] {
  const roleId = stack.getLogicalId(fn.role!.node.defaultChild as never);
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
}
const s3Statements = (fn: LambdaFunction) => statementsOf(fn).filter((s) => [s.Action].flat().some((a) => a.startsWith('s3:')));
const bucketId = () => Object.keys(template.findResources('AWS::S3::Bucket')).find((id) => id.includes('Exports'))!;

describe('addExportStorage', () => {
  it('creates an encrypted, never public bucket, logged, expiring its exports, readable cross-origin by GET', () => {
    template.resourceCountIs('AWS::S3::Bucket', 2);
    template.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      LoggingConfiguration: { DestinationBucketName: Match.anyValue(), LogFilePrefix: 'exports-bucket/' },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([Match.objectLike({ Id: 'expire-exports', Prefix: 'exports/', ExpirationInDays: 3, Status: 'Enabled' })]),
      },
      CorsConfiguration: {
        CorsRules: [{ AllowedMethods: ['GET', 'HEAD'], AllowedOrigins: ['https://arbiter.example.test'], ExposedHeaders: ['content-length', 'content-type'], MaxAge: 3600 }],
      },
    });
    // TLS only, 1.2 or later, on both buckets.
    const policies = Object.values(template.findResources('AWS::S3::BucketPolicy'));
    expect(policies).toHaveLength(2);
    for (const policy of policies) {
      const statements = policy.Properties.PolicyDocument.Statement as Statement[];
      expect(statements).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } } }),
        ]),
      );
    }
  });

  it('grants writers GetObject and PutObject on exports/ alone, readers GetObject, and ListBucket so that a missing export is a 404', () => {
    const objects = { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId(), 'Arn'] }, '/exports/*']] };
    const bucket = { 'Fn::GetAtt': [bucketId(), 'Arn'] };
    expect(s3Statements(functions.reads)).toEqual([
      { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject'], Resource: objects },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: bucket },
    ]);
    expect(s3Statements(functions.linker)).toEqual([
      { Effect: 'Allow', Action: 's3:GetObject', Resource: objects },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: bucket },
    ]);
    // Nobody else: no delete, no wildcard action, nothing for a function not named.
    expect(s3Statements(functions.commands)).toEqual([]);
    const actions = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p) => (p.Properties.PolicyDocument.Statement as Statement[]).flatMap((s) => [s.Action].flat()));
    expect(actions.filter((a) => a.startsWith('s3:')).sort()).toEqual(['s3:GetObject', 's3:GetObject', 's3:ListBucket', 's3:ListBucket', 's3:PutObject']);
  });

  it("gives them the environment the S3 adapter reads: the bucket's own endpoint, its region, the prefix", () => {
    for (const fn of [functions.reads, functions.linker]) {
      template.hasResourceProperties('AWS::Lambda::Function', {
        Role: { 'Fn::GetAtt': [stack.getLogicalId(fn.role!.node.defaultChild as never), 'Arn'] },
        Environment: {
          Variables: {
            ARBITER_EXPORT_ENDPOINT: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [bucketId(), 'RegionalDomainName'] }]] },
            ARBITER_EXPORT_REGION: 'eu-west-3',
            ARBITER_EXPORT_PREFIX: 'exports/',
          },
        },
      });
    }
    const commands = Object.values(template.findResources('AWS::Lambda::Function')).find(
      (f) => (f.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0] === stack.getLogicalId(functions.commands.role!.node.defaultChild as never),
    )!;
    expect(commands.Properties.Environment).toBeUndefined();
  });

  it("passes cdk-nag's AwsSolutions checks: every finding on its resources acknowledged with a reason", () => {
    const report = new AwsSolutionsChecks(stack).validateScope(stack);
    const findings = report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath ?? r.resourceLogicalId}`));
    // The test functions' own findings (their managed execution policy, their runtime) are not the construct's.
    const theirs = /^AwsSolutions-(IAM4\[Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AWSLambdaBasicExecutionRole\]|L1) at ExportTest\/(Reads|Linker|Commands)\/(ServiceRole\/)?Resource$/;
    expect(findings.filter((f) => !theirs.test(f))).toEqual([]);
    expect(findings.filter((f) => theirs.test(f)).length).toBeGreaterThan(0);
  });
});
