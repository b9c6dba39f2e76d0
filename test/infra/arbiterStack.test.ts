import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/http/routes';
import { ArbiterStack } from '../../infra/arbiterStack';

let template: Template;
beforeAll(() => {
  // Bundling is the bundle test's business (bundles.test.ts); here only the template counts.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  template = Template.fromStack(new ArbiterStack(app, 'Arbiter'));
});

type Statement = { Action: string | string[]; Resource: unknown };
const policiesOf = (functionLogicalIdPrefix: string): Statement[] => {
  const functions = template.findResources('AWS::Lambda::Function');
  const id = Object.keys(functions).find((k) => k.startsWith(functionLogicalIdPrefix))!;
  const role = (functions[id].Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
  const policies = template.findResources('AWS::IAM::Policy');
  return Object.values(policies)
    .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === role))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
};
const actionsOf = (prefix: string) => policiesOf(prefix).flatMap((s) => [s.Action].flat());

describe('the Arbiter stack', () => {
  it('keeps commits in an on-demand table keyed as the store adapter uses it, protected and retained', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'N' },
        ],
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      },
    });
  });

  it('runs six functions on nodejs22.x, arm64', () => {
    const functions = template.findResources('AWS::Lambda::Function');
    expect(Object.keys(functions)).toHaveLength(6);
    for (const fn of Object.values(functions)) {
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.Handler).toBe('index.handler');
    }
  });

  it('serves every route of the API, and CORS for browsers', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    expect(routes.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: Match.objectLike({
        AllowOrigins: ['*'],
        AllowHeaders: Match.arrayWith(['authorization', 'if-none-match']),
        AllowMethods: Match.arrayWith(['DELETE']),
        ExposeHeaders: ['etag', 'retry-after'],
      }),
    });
  });

  it('limits CORS to the origins given in the stack context', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const limited = Template.fromStack(new ArbiterStack(app, 'Limited', { corsOrigins: ['https://league.test'] }));
    limited.hasResourceProperties('AWS::ApiGatewayV2::Api', { CorsConfiguration: Match.objectLike({ AllowOrigins: ['https://league.test'] }) });
  });

  it('throttles the stage, and gives the long-poll route time for a 20 s wait within the gateway limit', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
    });
    const integrations = Object.values(template.findResources('AWS::ApiGatewayV2::Integration'));
    for (const i of integrations) expect(i.Properties.TimeoutInMillis).toBeLessThanOrEqual(30_000);
    const reads = Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith('ReadsFunction'))![1];
    expect(reads.Properties.Timeout).toBeGreaterThan(20);
    expect(Math.max(...integrations.map((i) => i.Properties.TimeoutInMillis))).toBeGreaterThan(reads.Properties.Timeout * 1000);
  });

  it('grants no IAM statement with a * action', () => {
    for (const policy of Object.values(template.findResources('AWS::IAM::Policy'))) {
      for (const statement of policy.Properties.PolicyDocument.Statement as Statement[]) {
        for (const action of [statement.Action].flat()) expect(action).not.toContain('*');
      }
    }
  });

  it('lets each function do only what it does on the table', () => {
    expect(actionsOf('CommandsFunction').filter((a) => a.startsWith('dynamodb:')).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query']);
    expect(actionsOf('ReadsFunction').filter((a) => a.startsWith('dynamodb:')).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:Query']);
    expect(actionsOf('CatalogueFunction')).toEqual([]);
    expect(actionsOf('WebFunction')).toEqual([]);
  });

  it('lets only the functions that sign or publish the key read the signing secret, and puts it in no environment', () => {
    expect(actionsOf('CommandsFunction')).toContain('secretsmanager:GetSecretValue');
    expect(actionsOf('ReadsFunction')).toContain('secretsmanager:GetSecretValue');
    expect(actionsOf('CatalogueFunction')).not.toContain('secretsmanager:GetSecretValue');
    expect(actionsOf('WebFunction')).not.toContain('secretsmanager:GetSecretValue');
    template.hasResourceProperties('AWS::SecretsManager::Secret', { GenerateSecretString: Match.objectLike({ PasswordLength: 64 }) });
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
      const env = fn.Properties.Environment?.Variables ?? {};
      expect(Object.keys(env)).not.toContain('SIGNING_KEY');
      expect(JSON.stringify(env)).not.toMatch(/SecretString|resolve:secretsmanager/);
    }
  });

  it('lets only the commands function open server seeds: the reads function cannot decrypt them', () => {
    const secrets = template.findResources('AWS::SecretsManager::Secret');
    const seedSecret = Object.keys(secrets).find((id) => id.startsWith('SeedKeySecret'))!;
    expect(seedSecret).toBeDefined();
    const readsSecret = (prefix: string) =>
      policiesOf(prefix).some((s) => [s.Action].flat().includes('secretsmanager:GetSecretValue') && JSON.stringify(s.Resource).includes(seedSecret));
    expect(readsSecret('CommandsFunction')).toBe(true);
    expect(readsSecret('ReadsFunction')).toBe(false);
    expect(readsSecret('CatalogueFunction')).toBe(false);
  });
});
