import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { addSigning, KeyUsers } from '../../infra/signing';

function stack(generations?: number, retired?: number) {
  const scope = new Stack(new App(), 'SigningTest');
  const table = new Table(scope, 'Commits', { partitionKey: { name: 'pk', type: AttributeType.STRING }, sortKey: { name: 'sk', type: AttributeType.NUMBER } });
  const fn = (id: string) => new LambdaFunction(scope, id, { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('export const handler = () => {}') });
  const commands = fn('Commands');
  const reads = fn('Reads');
  fn('Catalogue');
  addSigning(scope, { table, signer: commands, publishers: [reads], generations, retired });
  return { template: Template.fromStack(scope), scope };
}

const policyOf = (template: Template, role: string) =>
  Object.values(template.findResources('AWS::IAM::Policy')).find((p) => JSON.stringify(p.Properties.Roles).includes(role))?.Properties.PolicyDocument.Statement ?? [];

describe('the key policies', () => {
  it('refuse to synthesize a use that names no role (its Deny to every other principal would deny it to everyone)', () => {
    const scope = new Stack(new App(), 'KeyUsersTest');
    const users = new KeyUsers();
    const role = new Role(scope, 'Signer', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    users.permit('signing', 'kms:Sign', role);
    new Key(scope, 'Named', { policy: users.policyFor('signing') });
    expect(() => Template.fromStack(scope)).not.toThrow();
    const empty = new Stack(new App(), 'KeyUsersEmpty');
    new Key(empty, 'Nobody', { policy: new KeyUsers().policyFor('token') });
    expect(() => Template.fromStack(empty)).toThrow(/No role is named for kms:GenerateMac on the token key/);
  });
});

describe('the signing construct', () => {
  it('creates Ed25519 signing keys and a symmetric seed key, kept on stack deletion', () => {
    const { template } = stack(2);
    template.resourcePropertiesCountIs('AWS::KMS::Key', { KeySpec: 'ECC_NIST_EDWARDS25519', KeyUsage: 'SIGN_VERIFY' }, 2);
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true, KeySpec: Match.absent() });
    template.resourcePropertiesCountIs('AWS::KMS::Key', { KeySpec: 'HMAC_256', KeyUsage: 'GENERATE_VERIFY_MAC' }, 1);
    for (const key of Object.values(template.findResources('AWS::KMS::Key'))) expect(key.DeletionPolicy).toBe('Retain');
  });

  it('grants kms:Sign and the seed key to the signing function alone, GetPublicKey to the publishers, nothing to the rest', () => {
    const { template } = stack();
    const commands = JSON.stringify(policyOf(template, 'CommandsServiceRole'));
    const reads = policyOf(template, 'ReadsServiceRole');
    expect(commands).toContain('kms:Sign');
    expect(commands).toContain('kms:Decrypt');
    const allowedToReads = reads.filter((s: { Effect: string }) => s.Effect === 'Allow').flatMap((s: { Action: string | string[] }) => [s.Action].flat());
    expect(allowedToReads).toEqual(['kms:GetPublicKey']);
    expect(policyOf(template, 'CatalogueServiceRole')).toEqual([]);
    // Every kms:Sign in the template is the commands role's, or the rotation role's (npm run rotate-key:aws signs the rotation statement).
    const signers = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify(p.Properties.PolicyDocument).includes('kms:Sign'));
    expect(signers.map((p) => JSON.stringify(p.Properties.Roles))).toEqual([expect.stringContaining('CommandsServiceRole'), expect.stringContaining('KeyRotationRole')]);
  });

  it('denies the publishers every seed item by its partition key', () => {
    const { template } = stack();
    const deny = policyOf(template, 'ReadsServiceRole').find((s: { Effect: string }) => s.Effect === 'Deny');
    expect(deny.Condition).toEqual({ 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': ['*#seed'] } });
    expect(deny.Action).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:BatchGetItem']));
  });

  it('tells each function the first key, and only the signer the seed key and that it signs', () => {
    const { template } = stack();
    const env = (id: string) => Object.entries(template.findResources('AWS::Lambda::Function')).find(([logical]) => logical.startsWith(id))![1].Properties.Environment?.Variables ?? {};
    expect(Object.keys(env('Commands')).sort()).toEqual(['ARBITER_SEED_KEY_ID', 'ARBITER_SIGNING_KEY_ID', 'ARBITER_SIGNS', 'ARBITER_TOKEN_KEY_ID']);
    expect(Object.keys(env('Reads'))).toEqual(['ARBITER_SIGNING_KEY_ID']);
    expect(env('Catalogue')).toEqual({});
  });

  it('takes kms:Sign on the retired keys from the signing function with an explicit deny, keeping it on the current one (trust.md §6)', () => {
    const { template } = stack(3, 2);
    const keyRef = (i: number) => ({ 'Fn::GetAtt': [expect.stringMatching(new RegExp(`^SigningKey${i}`)), 'Arn'] });
    const statements = policyOf(template, 'CommandsServiceRole').filter((s: { Action: string | string[] }) => [s.Action].flat().some((a) => a.startsWith('kms:') && a !== 'kms:Encrypt' && a !== 'kms:Decrypt' && a !== 'kms:GenerateMac'));
    expect(statements).toEqual([
      { Effect: 'Allow', Action: ['kms:Sign', 'kms:GetPublicKey'], Resource: keyRef(3) },
      { Effect: 'Allow', Action: 'kms:GetPublicKey', Resource: [keyRef(1), keyRef(2)] },
      { Effect: 'Deny', Action: 'kms:Sign', Resource: [keyRef(1), keyRef(2)] },
    ]);
    expect(() => stack(2, 2)).toThrow(/retiredSigningKeys/);
    expect(() => stack(2, -1)).toThrow(/retiredSigningKeys/);
  });
});
