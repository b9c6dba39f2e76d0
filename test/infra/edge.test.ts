import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ArbiterStack, DEFAULTS } from '../../infra/arbiterStack';
import { ArbiterEdgeFirewall, EDGE_LIMITS } from '../../infra/edge';
import { PUSH_STAGE } from '../../infra/push';
import { run } from '../support/runCli';

type Resource = { Type: string; Properties: Record<string, any> };
const WEB_ACL = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/ArbiterEdge-WebAcl/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';
const named = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');
const app = () => new App({ context: { 'aws:cdk:bundling-stacks': [] } });

/** cdk-nag's AwsSolutions findings on a stack, as the nag test reads them. */
function nagFindings(appOf: App, stack: IConstruct) {
  appOf.synth();
  const report = new AwsSolutionsChecks(appOf).validateScope(stack);
  return report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} ${r.constructPath ?? ''}`));
}
/** The acknowledgements under a construct, by rule, each with its reason. */
const acknowledged = (root: IConstruct) =>
  root.node
    .findAll()
    .flatMap((c) => c.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY).flatMap((m) => Object.entries(m.data as Record<string, string>)))
    .filter(([rule]) => rule.replace(/^Annotation::/, '').startsWith('AwsSolutions-CFR'));

describe('the edge web ACL (ArbiterEdge, us-east-1)', () => {
  let firewall: ArbiterEdgeFirewall;
  let rules: Record<string, any>;
  let acl: Record<string, any>;

  beforeAll(() => {
    firewall = new ArbiterEdgeFirewall(app(), 'ArbiterEdge');
    const acls = Object.values(Template.fromStack(firewall).toJSON().Resources as Record<string, Resource>).filter((r) => r.Type === 'AWS::WAFv2::WebACL');
    expect(acls).toHaveLength(1);
    acl = acls[0].Properties;
    rules = Object.fromEntries((acl.Rules as { Name: string }[]).map((r) => [r.Name, r]));
  });

  it('is a CloudFront web ACL in us-east-1 that lets through whatever no rule blocks', () => {
    expect(firewall.region).toBe('us-east-1');
    expect(acl.Scope).toBe('CLOUDFRONT');
    expect(acl.DefaultAction).toEqual({ Allow: {} });
    expect(Object.keys(rules).sort()).toEqual(['CreationsPerClient', 'PerClient', 'PerTokenWrites']);
  });

  it('limits each client address, over 5 minutes, whatever it asks', () => {
    expect(rules.PerClient.Statement).toEqual({ RateBasedStatement: { Limit: EDGE_LIMITS.perClient.limit, EvaluationWindowSec: 300, AggregateKeyType: 'IP' } });
  });

  it("limits each token's writes: POSTs and DELETEs counted by their Authorization header", () => {
    const statement = rules.PerTokenWrites.Statement.RateBasedStatement;
    expect(statement).toMatchObject({ Limit: EDGE_LIMITS.perTokenWrites.limit, EvaluationWindowSec: 300, AggregateKeyType: 'CUSTOM_KEYS' });
    expect(statement.CustomKeys).toEqual([{ Header: { Name: 'authorization', TextTransformations: [{ Priority: 0, Type: 'NONE' }] } }]);
    const methods = statement.ScopeDownStatement.OrStatement.Statements.map((s: any) => [s.ByteMatchStatement.FieldToMatch, s.ByteMatchStatement.SearchString, s.ByteMatchStatement.PositionalConstraint]);
    expect(methods).toEqual([
      [{ Method: {} }, 'POST', 'EXACTLY'],
      [{ Method: {} }, 'DELETE', 'EXACTLY'],
    ]);
  });

  it('limits the creations of each client address: POST /games and POST /tournaments over 10 minutes', () => {
    const statement = rules.CreationsPerClient.Statement.RateBasedStatement;
    expect(statement).toMatchObject({ Limit: EDGE_LIMITS.creationsPerClient.limit, EvaluationWindowSec: 600, AggregateKeyType: 'IP' });
    const [post, paths] = statement.ScopeDownStatement.AndStatement.Statements;
    expect(post.ByteMatchStatement).toMatchObject({ FieldToMatch: { Method: {} }, SearchString: 'POST' });
    const match = paths.RegexMatchStatement;
    expect(match.FieldToMatch).toEqual({ UriPath: {} });
    // WAF decodes, folds repeated slashes and ./, then lowercases the path before the pattern sees it.
    expect(match.TextTransformations).toEqual([
      { Priority: 0, Type: 'URL_DECODE' },
      { Priority: 1, Type: 'NORMALIZE_PATH' },
      { Priority: 2, Type: 'LOWERCASE' },
    ]);
    const transformed = (raw: string) => decodeURIComponent(raw).replace(/\/{2,}/g, '/').replace(/\/\.(?=\/|$)/g, '').toLowerCase();
    const counted = (raw: string) => new RegExp(match.RegexString).test(transformed(raw));
    for (const raw of ['/games', '/games/', '//games', '/./games', '/%67ames', '/Games', '/tournaments', '/tournaments/', '//tournaments//']) expect(counted(raw), raw).toBe(true);
    for (const raw of ['/games/g-1/commands', '/games/g-1', '/tournaments/t-1/games', '/keys', '/gamesx']) expect(counted(raw), raw).toBe(false);
  });

  it("answers a refused request 429 in the API's error shape, with Retry-After, readable by the web app across origins", () => {
    for (const rule of Object.values(rules)) {
      expect(rule.Action.Block.CustomResponse).toMatchObject({ ResponseCode: 429, CustomResponseBodyKey: 'rateLimited' });
      expect(rule.Action.Block.CustomResponse.ResponseHeaders).toEqual(expect.arrayContaining([{ Name: 'retry-after', Value: '60' }, { Name: 'access-control-allow-origin', Value: '*' }]));
    }
    expect(acl.CustomResponseBodies.rateLimited.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(acl.CustomResponseBodies.rateLimited.Content)).toMatchObject({ error: { code: 'rate_limited' } });
  });

  it('logs only the requests it blocks, with the Authorization header redacted', () => {
    const template = Template.fromStack(firewall);
    template.hasResourceProperties('AWS::WAFv2::LoggingConfiguration', {
      RedactedFields: [{ SingleHeader: { Name: 'authorization' } }],
      LoggingFilter: { DefaultBehavior: 'DROP', Filters: [{ Behavior: 'KEEP', Requirement: 'MEETS_ANY', Conditions: [{ ActionCondition: { Action: 'BLOCK' } }] }] },
    });
    template.hasResourceProperties('AWS::Logs::LogGroup', { LogGroupName: 'aws-waf-logs-ArbiterEdge' });
  });

  it('synthesizes as its own CDK app with the pinned CLI, offline, with no warning (the first step of docs/deploy.md#limits-per-client)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'arbiter-i35-sweep-edge-')), 'cdk.out');
    const result = await run('npx', ['cdk', 'synth', '--app', 'node --import tsx infra/edgeApp.ts', '--output', out, '--quiet', '--no-notices'], {
      CDK_DISABLE_CLI_TELEMETRY: 'true',
      AWS_ACCESS_KEY_ID: '',
      AWS_SECRET_ACCESS_KEY: '',
      AWS_PROFILE: 'arbiter-none',
      AWS_CONFIG_FILE: '/dev/null',
      AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).not.toMatch(/WARNING|Error/);
    const template = JSON.parse(readFileSync(join(out, 'ArbiterEdge.template.json'), 'utf8')) as { Resources: Record<string, Resource>; Outputs: Record<string, unknown> };
    expect(Object.values(template.Resources).map((r) => r.Type).sort()).toEqual(['AWS::Logs::LogGroup', 'AWS::WAFv2::LoggingConfiguration', 'AWS::WAFv2::WebACL']);
    expect(Object.keys(template.Outputs)).toEqual(['WebAclArn']);
  });

  it("has no cdk-nag finding", () => {
    const a = app();
    const stack = new ArbiterEdgeFirewall(a, 'ArbiterEdge');
    expect(nagFindings(a, stack)).toEqual([]);
  });
});

describe('the Arbiter stack with the edge (-c edgeWebAclArn=…)', () => {
  let resources: [string, Resource][];
  let template: { Resources: Record<string, Resource>; Outputs: Record<string, { Value: unknown }> };

  beforeAll(() => {
    template = Template.fromStack(new ArbiterStack(app(), 'Arbiter', { edgeWebAclArn: WEB_ACL })).toJSON() as typeof template;
    resources = Object.entries(template.Resources);
  });
  const distributions = () => Object.fromEntries(resources.filter(([, r]) => r.Type === 'AWS::CloudFront::Distribution').map(([id, r]) => [named(id), r.Properties.DistributionConfig]));
  const idOf = (type: string) => resources.filter(([, r]) => r.Type === type).map(([id]) => id);

  it('puts a CloudFront distribution behind the web ACL in front of the HTTP API and one in front of the push socket', () => {
    const found = distributions();
    expect(Object.keys(found).sort()).toEqual(['EdgeApi', 'EdgePush']);
    const [httpApi] = idOf('AWS::ApiGatewayV2::Api').filter((id) => named(id) === 'Api');
    const [pushApi] = idOf('AWS::ApiGatewayV2::Api').filter((id) => named(id) === 'PushApi');
    for (const [name, api] of [['EdgeApi', httpApi], ['EdgePush', pushApi]] as const) {
      const config = found[name];
      expect(config.WebACLId).toBe(WEB_ACL);
      expect(config.Origins).toHaveLength(1);
      expect(config.Origins[0].DomainName).toEqual({ 'Fn::Join': ['', [{ Ref: api }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]] });
      expect(config.Origins[0].CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'], OriginReadTimeout: 30 });
      const behavior = config.DefaultCacheBehavior;
      expect(behavior).toMatchObject({ ViewerProtocolPolicy: 'https-only', AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'] });
      // Managed policies: CachingDisabled, AllViewerExceptHostHeader (the Authorization and WebSocket headers go through; the origin's own host is kept).
      expect(behavior.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
      expect(behavior.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac');
    }
  });

  it("sends the web app's pages to the push socket through the edge, and says where clients go", () => {
    const [pushDistribution] = idOf('AWS::CloudFront::Distribution').filter((id) => named(id) === 'EdgePush');
    const [web] = resources.filter(([id, r]) => r.Type === 'AWS::Lambda::Function' && named(id) === 'WebFunction');
    expect(web[1].Properties.Environment.Variables.ARBITER_PUSH_URL).toEqual({ 'Fn::Join': ['', ['wss://', { 'Fn::GetAtt': [pushDistribution, 'DomainName'] }, `/${PUSH_STAGE}`]] });
    expect(Object.keys(template.Outputs)).toEqual(expect.arrayContaining(['EdgeUrl', 'EdgePushUrl', 'ApiUrl']));
  });

  it("keeps the stages' global throttles as a backstop", () => {
    const [, stage] = resources.find(([id, r]) => r.Type === 'AWS::ApiGatewayV2::Stage' && named(id).startsWith('ApiDefaultStage'))!;
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: DEFAULTS.throttle.rateLimit, ThrottlingBurstLimit: DEFAULTS.throttle.burstLimit });
    const [, push] = resources.find(([id, r]) => r.Type === 'AWS::ApiGatewayV2::Stage' && named(id) === 'PushStage')!;
    expect(push.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
  });

  it('refuses an ARN that is not a CloudFront web ACL (a regional one, or none)', () => {
    expect(() => new ArbiterStack(app(), 'Arbiter', { edgeWebAclArn: WEB_ACL.replace('us-east-1', 'eu-west-1').replace('global', 'regional') })).toThrow(/CloudFront web ACL/);
    expect(() => new ArbiterStack(app(), 'Arbiter', { edgeWebAclArn: 'ArbiterEdge-WebAcl' })).toThrow(/edgeWebAclArn/);
  });

  it('has no unacknowledged cdk-nag finding; each acknowledgement of the distributions says why', () => {
    const a = app();
    const stack = new ArbiterStack(a, 'Arbiter', { edgeWebAclArn: WEB_ACL });
    expect(nagFindings(a, stack)).toEqual([]);
    const acks = acknowledged(stack);
    expect([...new Set(acks.map(([rule]) => rule.replace(/^Annotation::/, '')))].sort()).toEqual(['AwsSolutions-CFR1', 'AwsSolutions-CFR3', 'AwsSolutions-CFR4']);
    for (const [, reason] of acks) expect(reason.length).toBeGreaterThan(40);
    // Each answers a finding that is really there: without them, exactly these are found.
    const spy = vi.spyOn(Validations.prototype, 'acknowledge').mockImplementation(() => {});
    try {
      const bare = app();
      const found = nagFindings(bare, new ArbiterStack(bare, 'Arbiter', { edgeWebAclArn: WEB_ACL }));
      expect(found.filter((f) => /\/Edge(Api|Push)\//.test(f) || /\/Edge(Api|Push)$/.test(f)).sort()).toEqual(
        ['CFR1', 'CFR3', 'CFR4'].flatMap((rule) => ['EdgeApi', 'EdgePush'].map((d) => `AwsSolutions-${rule} Arbiter/${d}/Resource`)).sort(),
      );
    } finally {
      spy.mockRestore();
    }
  });
});
