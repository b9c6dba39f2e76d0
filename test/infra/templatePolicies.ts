import { runSimulation, type Simulation } from '@cloud-copilot/iam-simulate';

/** The account and region the synthesized template is read in. */
export const ACCOUNT = '111122223333';
export const REGION = 'eu-west-1';

type Json = any;
export type PolicyDocument = { Version?: string; Statement: Json[] };
export type Template = { Resources: Record<string, { Type: string; Properties?: Json }> };

/**
 * A template's values with their intrinsic functions worked out as CloudFormation would in
 * one account: a resource's physical name is its logical id, ARNs are built from it.
 */
export function resolver(template: Template) {
  const arnOf = (logicalId: string, attribute: string): string => {
    const type = template.Resources[logicalId]?.Type;
    if (!type) throw new Error(`no resource ${logicalId}`);
    if (type === 'AWS::IAM::Role') return `arn:aws:iam::${ACCOUNT}:role/${logicalId}`;
    if (type === 'AWS::KMS::Key') return `arn:aws:kms:${REGION}:${ACCOUNT}:key/${logicalId}`;
    if (type === 'AWS::DynamoDB::Table') return `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${logicalId}${attribute === 'StreamArn' ? '/stream/2026-01-01T00:00:00.000' : ''}`;
    if (type === 'AWS::S3::Bucket') return `arn:aws:s3:::${logicalId.toLowerCase()}`;
    if (type === 'AWS::SQS::Queue') return `arn:aws:sqs:${REGION}:${ACCOUNT}:${logicalId}`;
    if (type === 'AWS::Lambda::Function') return `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${logicalId}`;
    if (type === 'AWS::Logs::LogGroup') return `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${logicalId}:*`;
    throw new Error(`no ARN for ${type}.${attribute}`);
  };
  const resolve = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    if ('Ref' in value) {
      const pseudo: Record<string, string> = { 'AWS::Partition': 'aws', 'AWS::AccountId': ACCOUNT, 'AWS::Region': REGION, 'AWS::URLSuffix': 'amazonaws.com' };
      return pseudo[value.Ref] ?? value.Ref;
    }
    if ('Fn::GetAtt' in value) return arnOf(value['Fn::GetAtt'][0], value['Fn::GetAtt'][1]);
    if ('Fn::Join' in value) return (resolve(value['Fn::Join'][1]) as string[]).join(value['Fn::Join'][0]);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
  };
  return { resolve, arnOf };
}

/**
 * AWS Backup's own service policy, which the backup role keeps (infra/operations.ts). Its text is
 * AWS's and changes with AWS, so the simulation gives that role every permission instead (an
 * upper bound): whatever AWS's policy says, the key policies must still refuse it every use.
 */
export const AWS_BACKUP_POLICY = 'arn:aws:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup';

/** Every role of the template with its inline policies (its own `Policies` and each AWS::IAM::Policy naming it); a managed policy other than AWS Backup's refused. */
export function rolesOf(template: Template): Map<string, { arn: string; policies: PolicyDocument[]; managed: string[] }> {
  const { resolve, arnOf } = resolver(template);
  const roles = new Map<string, { arn: string; policies: PolicyDocument[]; managed: string[] }>();
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::IAM::Role') continue;
    const managed = (resource.Properties?.ManagedPolicyArns ?? []).map((arn: Json) => resolve(arn) as string);
    const unknown = managed.filter((arn: string) => arn !== AWS_BACKUP_POLICY);
    if (unknown.length > 0) throw new Error(`${id} has managed policies (${unknown.join(', ')}): add them to the simulation`);
    const inline = (resource.Properties?.Policies ?? []).map((p: Json) => resolve(p.PolicyDocument));
    roles.set(id, { arn: arnOf(id, 'Arn'), policies: managed.length > 0 ? [...inline, ADMINISTRATOR] : inline, managed });
  }
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type === 'AWS::IAM::ManagedPolicy') throw new Error('a managed policy: add it to the simulation');
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    for (const role of resource.Properties.Roles as { Ref: string }[]) roles.get(role.Ref)!.policies.push(resolve(resource.Properties.PolicyDocument));
  }
  return roles;
}

/** Each KMS key's ARN and key policy. */
export function keysOf(template: Template): Map<string, { arn: string; policy: PolicyDocument }> {
  const { resolve, arnOf } = resolver(template);
  const keys = new Map<string, { arn: string; policy: PolicyDocument }>();
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (resource.Type === 'AWS::KMS::Key') keys.set(id, { arn: arnOf(id, 'Arn'), policy: resolve(resource.Properties.KeyPolicy) });
  }
  return keys;
}

export interface Request {
  principal: string;
  policies: PolicyDocument[];
  action: string;
  resource: string;
  resourcePolicy?: PolicyDocument;
  context?: Record<string, string | string[]>;
}

/** IAM's answer to one request, as AWS evaluates it in one account: 'Allowed', 'ExplicitlyDenied' or 'ImplicitlyDenied'. */
export async function decide(request: Request): Promise<string> {
  const simulation: Simulation = {
    request: {
      principal: request.principal,
      action: request.action,
      resource: { resource: request.resource, accountId: ACCOUNT },
      // Filled in by AWS for every signed request.
      contextVariables: { 'aws:PrincipalArn': request.principal, 'aws:PrincipalAccount': ACCOUNT, ...request.context },
    },
    identityPolicies: request.policies.map((policy, i) => ({ name: `policy${i}`, policy })),
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    ...(request.resourcePolicy ? { resourcePolicy: request.resourcePolicy } : {}),
  };
  const answer = await runSimulation(simulation, {});
  if (answer.resultType === 'error') throw new Error(`simulation refused: ${JSON.stringify(answer.errors).slice(0, 600)}`);
  return answer.overallResult;
}

/** A policy allowing everything: an administrator, PowerUser for KMS, the CDK execution role. */
export const ADMINISTRATOR: PolicyDocument = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] };
