import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { METRICS } from '../../functions/http/observe';
import { ROUTES } from '../../functions/http/routes';
import { ROUTE_GROUPS } from '../../functions/lambda/routeGroups';
import { SEED_KEY_SUFFIX } from '../../functions/store/dynamoStore';
import { ACCESS_LOG_FORMAT, ArbiterStack, DEFAULTS, READ_TIMEOUT, type ArbiterStackProps } from '../../infra/arbiterStack';
import { LAMBDA_ENTRIES } from '../../infra/bundling';
import { PUSH_ENTRIES, PUSH_STAGE } from '../../infra/push';

// Bundling is the bundle test's business (bundles.test.ts); here only the template counts.
const synth = (props?: ArbiterStackProps, extend?: (stack: ArbiterStack) => void) => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new ArbiterStack(app, 'Arbiter', props);
  extend?.(stack);
  return Template.fromStack(stack);
};

let template: Template;
beforeAll(() => {
  template = synth();
});

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, string | string[]>> };

/** The functions behind the HTTP API (infra/bundling.ts), then the push functions (infra/push.ts), by logical id without its hash. */
const HTTP_FUNCTIONS = Object.keys(LAMBDA_ENTRIES).map((name) => `${name[0].toUpperCase()}${name.slice(1)}Function`);
const PUSH_FUNCTIONS = ['PushSocketFunction', 'PushStreamFunction', 'PushFanOutFunction'];
const SWEEP_FUNCTION = 'GameExpirySweepFunction';
const REVEAL_FUNCTION = 'BeaconRevealsRevealFunction';
const DELIVERY_FUNCTION = 'NotificationsDeliveryFunction';
const EXPORT_FUNCTION = 'ExportJobFunction';
const ALL_FUNCTIONS = [...HTTP_FUNCTIONS, ...PUSH_FUNCTIONS, SWEEP_FUNCTION, REVEAL_FUNCTION, DELIVERY_FUNCTION, EXPORT_FUNCTION];

/** A logical id without CDK's hash suffix: `Commits06B76583` → `Commits`. */
const named = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');
/**
 * A statement's resource as a name: `{ Fn::GetAtt: [Commits06B76583, Arn] }` → `Commits.Arn`, `{ Ref: X }` → `X`,
 * a pseudo parameter → `<AWS::Region>`, and a `Fn::Join` of those joined.
 */
function resourceName(resource: unknown): string {
  if (typeof resource === 'string') return resource;
  const r = resource as { Ref?: string; 'Fn::GetAtt'?: [string, string]; 'Fn::Join'?: [string, unknown[]] };
  if (r.Ref) return r.Ref.startsWith('AWS::') ? `<${r.Ref}>` : named(r.Ref);
  if (r['Fn::GetAtt']) return `${named(r['Fn::GetAtt'][0])}.${r['Fn::GetAtt'][1]}`;
  if (r['Fn::Join']) return r['Fn::Join'][1].map(resourceName).join(r['Fn::Join'][0]);
  return JSON.stringify(resource);
}

const functionsOf = (t: Template) => t.findResources('AWS::Lambda::Function') as Record<string, Resource>;
const functionNamed = (t: Template, name: string) => {
  const found = Object.entries(functionsOf(t)).filter(([id]) => named(id) === name);
  expect(found, `function ${name}`).toHaveLength(1);
  return found[0];
};
const roleOf = (t: Template, name: string) => (functionNamed(t, name)[1].Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
const envOf = (name: string, t = template) => (functionNamed(t, name)[1].Properties.Environment?.Variables ?? {}) as Record<string, unknown>;

const policiesOf = (name: string, t = template): Statement[] => {
  const role = roleOf(t, name);
  return Object.values(t.findResources('AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === role))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
};
const actionsOf = (name: string, t = template) => policiesOf(name, t).flatMap((s) => [s.Action].flat());
/** Every statement of a function's role, as `Effect action,action → resource` lines, sorted. */
const grantsOf = (name: string, t = template) =>
  policiesOf(name, t)
    .flatMap((s) => [s.Resource].flat().map((r) => `${s.Effect} ${[s.Action].flat().sort().join(',')} → ${resourceName(r)}${s.Condition ? ` if ${JSON.stringify(s.Condition)}` : ''}`))
    .sort();

/** An IAM string pattern (`*` any run of characters, `?` any one) as StringLike reads it. */
const like = (pattern: string, value: string) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`).test(value);
/** Whether a statement's condition holds for a request naming one partition key; any other condition fails the test. */
function conditionHolds(condition: Statement['Condition'], partitionKey: string): boolean {
  if (!condition) return true;
  return Object.entries(condition).every(([operator, tests]) =>
    Object.entries(tests).every(([key, patterns]) => {
      expect(key, `condition key of ${operator}`).toBe('dynamodb:LeadingKeys');
      const list = [patterns].flat();
      // One leading key per request: ForAnyValue and ForAllValues both test that one value.
      switch (operator) {
        case 'ForAnyValue:StringLike':
        case 'ForAllValues:StringLike':
          return list.some((p) => like(p, partitionKey));
        case 'ForAllValues:StringNotLike':
          return !list.some((p) => like(p, partitionKey));
        case 'ForAllValues:StringEquals':
        case 'ForAnyValue:StringEquals':
          return list.includes(partitionKey);
        default:
          throw new Error(`no reading of the condition ${operator} here`);
      }
    }),
  );
}
/** Whether a function's role lets it make `action` on the commits table for an item of this partition key (an explicit Deny wins). */
function mayOnTable(name: string, action: string, partitionKey: string, t = template): boolean {
  const onTable = policiesOf(name, t).filter((s) => [s.Resource].flat().some((r) => resourceName(r) === 'Commits.Arn') && [s.Action].flat().includes(action));
  const holds = (s: Statement) => conditionHolds(s.Condition, partitionKey);
  return onTable.some((s) => s.Effect === 'Allow' && holds(s)) && !onTable.some((s) => s.Effect === 'Deny' && holds(s));
}
const TABLE_READS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan'];
const TABLE_WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
/** Partition keys as functions/store/dynamoStore.ts names them. */
const GAME = 'g-7kq2';
const SEED_ITEM = `${GAME}${SEED_KEY_SUFFIX}`;
const SECRETS_ITEM = `${GAME}#secrets`;
const KEY_RING_ITEM = 'arbiter#keyring';

const alarmsOf = (t: Template) => t.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>;
const alarmNamed = (t: Template, prefix: string) => {
  const found = Object.entries(alarmsOf(t)).filter(([id]) => id.startsWith(`Alarms${prefix}`));
  expect(found.map(([id]) => named(id)), `alarm ${prefix}`).toEqual([`Alarms${prefix}`]);
  return found[0][1].Properties;
};

/** The HTTP API and the push WebSocket API, by logical id. */
const apiIds = (t = template) => {
  const apis = Object.entries(t.findResources('AWS::ApiGatewayV2::Api'));
  expect(apis.map(([, a]) => a.Properties.ProtocolType).sort()).toEqual(['HTTP', 'WEBSOCKET']);
  return { http: apis.find(([, a]) => a.Properties.ProtocolType === 'HTTP')![0], ws: apis.find(([, a]) => a.Properties.ProtocolType === 'WEBSOCKET')![0] };
};
const ofApi = (type: string, api: string, t = template) => Object.values(t.findResources(type)).filter((r) => (r.Properties.ApiId as { Ref: string }).Ref === api);
const stageOf = (api: string) => {
  const stages = ofApi('AWS::ApiGatewayV2::Stage', api);
  expect(stages).toHaveLength(1);
  return stages[0].Properties;
};
/** The function an API route invokes, by name: route → its integration → the function's ARN. */
const targetOf = (route: Resource) => {
  const integrationId = ((route.Properties.Target as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1][1] as { Ref: string }).Ref;
  const integration = template.findResources('AWS::ApiGatewayV2::Integration')[integrationId];
  // An HTTP API integration names the function's ARN; a WebSocket one its invocation URI, which holds that ARN.
  const uri = resourceName(integration.Properties.IntegrationUri);
  const functions = uri.match(/[A-Za-z]+Function\.Arn/g) ?? [];
  expect(functions, uri).toHaveLength(1);
  return functions[0];
};

describe('the Arbiter stack', () => {
  it('keeps commits in an on-demand table keyed as the store adapter uses it, protected and retained, streaming keys only', () => {
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
        // Keys only: no item's content (a sealed seed, a token hash) ever enters the stream the push function reads.
        StreamSpecification: { StreamViewType: 'KEYS_ONLY' },
      },
    });
    // The other table holds who is connected to the push socket now: nothing worth keeping.
    const tables = template.findResources('AWS::DynamoDB::Table') as Record<string, Resource>;
    expect(Object.keys(tables).map(named).sort()).toEqual(['Commits', 'PushConnections', 'Seeds']);
    // The seeds, apart (infra/seedTable.ts): kept, protected, restorable, and no stream that could carry one.
    const seeds = Object.entries(tables).find(([id]) => named(id) === 'Seeds')![1];
    expect([seeds.DeletionPolicy, seeds.Properties.DeletionProtectionEnabled, seeds.Properties.PointInTimeRecoverySpecification]).toEqual(['Retain', true, { PointInTimeRecoveryEnabled: true }]);
    expect(seeds.Properties.StreamSpecification).toBeUndefined();
    const connections = Object.entries(tables).find(([id]) => named(id) === 'PushConnections')![1];
    expect(connections.DeletionPolicy).toBe('Delete');
    expect(connections.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
    expect(connections.Properties.StreamSpecification).toBeUndefined();
  });

  it('runs thirteen functions (six behind the HTTP API, three for push, one that deletes abandoned games, one that reveals beacon rolls, one that delivers notifications, one that makes tournament exports) on nodejs24.x, arm64, traced by X-Ray, each with a role of its own', () => {
    expect(Object.keys(PUSH_ENTRIES)).toHaveLength(PUSH_FUNCTIONS.length);
    const functions = functionsOf(template);
    expect(Object.keys(functions).map(named).sort()).toEqual([...ALL_FUNCTIONS].sort());
    for (const fn of Object.values(functions)) {
      expect(fn.Properties.Runtime).toBe('nodejs24.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.Handler).toBe('index.handler');
      // Traced when X-Ray is asked (-c tracing=active): Lambda's own sampling records nearly every request at a few a second (infra/operations.ts).
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'PassThrough' });
    }
    const roles = Object.values(functions).map((fn) => fn.Properties.Role['Fn::GetAtt'][0]);
    expect(new Set(roles).size).toBe(ALL_FUNCTIONS.length);
  });

  it('serves every HTTP route from the function of its group, and CORS for browsers', () => {
    const { http } = apiIds();
    const routes = ofApi('AWS::ApiGatewayV2::Route', http) as Resource[];
    expect(routes.map((r) => r.Properties.RouteKey).sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    for (const route of routes) {
      const spec = ROUTES.find((r) => `${r.method} ${r.path}` === route.Properties.RouteKey)!;
      const group = Object.entries(ROUTE_GROUPS).find(([, handlers]) => (handlers as readonly string[]).includes(spec.handler))![0];
      expect(targetOf(route), route.Properties.RouteKey).toBe(`${group[0].toUpperCase()}${group.slice(1)}Function.Arn`);
    }
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: Match.objectLike({
        AllowOrigins: ['*'],
        AllowHeaders: Match.arrayWith(['authorization', 'if-none-match', 'idempotency-key']),
        AllowMethods: Match.arrayWith(['DELETE']),
        ExposeHeaders: ['etag', 'retry-after'],
      }),
    });
  });

  it('answers the push WebSocket routes ($connect, $disconnect, every message) from the socket function alone, on its own stage', () => {
    const { ws } = apiIds();
    const routes = ofApi('AWS::ApiGatewayV2::Route', ws) as Resource[];
    expect(routes.map((r) => r.Properties.RouteKey).sort()).toEqual(['$connect', '$default', '$disconnect']);
    for (const route of routes) expect(targetOf(route), route.Properties.RouteKey).toBe('PushSocketFunction.Arn');
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'WEBSOCKET', RouteSelectionExpression: '$request.body.action' });
    expect(stageOf(ws)).toMatchObject({ StageName: PUSH_STAGE, AutoDeploy: true });
    // The stream function is fed by the commits table's stream.
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionNamed(template, 'PushStreamFunction')[0] },
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Commits'), 'StreamArn'] },
      StartingPosition: 'LATEST',
    });
    // The push stream, the sweep of abandoned games and the beacon reveals (below) read the table's stream; notifications and the push fan-out read their queues, not the stream.
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>);
    expect(mappings.filter((m) => m.Properties.EventSourceArn['Fn::GetAtt']?.[1] === 'StreamArn')).toHaveLength(3);
    expect(mappings).toHaveLength(5);
  });

  it('deletes abandoned games: leases and creation counts expire by TTL, and only the TTL removal of a lease reaches the sweep function', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', { KeySchema: Match.arrayWith([{ AttributeName: 'pk', KeyType: 'HASH' }]), TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true } });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionNamed(template, SWEEP_FUNCTION)[0] },
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Commits'), 'StreamArn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['REMOVE'],
              userIdentity: { type: ['Service'], principalId: ['dynamodb.amazonaws.com'] },
              dynamodb: { Keys: { pk: { S: [{ prefix: 'lease#' }] } } },
            }),
          },
        ],
      },
    });
    expect(envOf(SWEEP_FUNCTION).ARBITER_ABANDONED_GAME_DAYS).toBe(String(DEFAULTS.abandonedGameDays));
    expect(envOf('CommandsFunction')).toMatchObject({ ARBITER_ABANDONED_GAME_DAYS: '90', ARBITER_CREATION_QUOTA_PER_HOUR: String(DEFAULTS.creationQuotaPerHour) });
    expect(envOf('ReadsFunction')).toMatchObject({ ARBITER_ABANDONED_GAME_DAYS: '90', ARBITER_LONG_POLL_MAX_SECONDS: '10' });
    // The sweep may delete a seed item, never read it (or the secrets).
    for (const action of TABLE_READS) for (const pk of [SEED_ITEM, SECRETS_ITEM]) expect(mayOnTable(SWEEP_FUNCTION, action, pk), `${action} ${pk}`).toBe(false);
    // It deletes a game's items one DeleteItem at a time (a batch could put items too): policySimulation.test.ts checks its conditions.
    expect(mayOnTable(SWEEP_FUNCTION, 'dynamodb:BatchWriteItem', SEED_ITEM)).toBe(false);
    expect(mayOnTable(SWEEP_FUNCTION, 'dynamodb:PutItem', SEED_ITEM)).toBe(false);
    expect(mayOnTable(SWEEP_FUNCTION, 'dynamodb:PutItem', 'lease#g-7kq2')).toBe(true);
    // Games that never expire: no sweep function, and the functions are told so.
    const keep = synth({ abandonedGameDays: 0, creationQuotaPerHour: 0 });
    expect(Object.keys(functionsOf(keep)).map(named)).not.toContain(SWEEP_FUNCTION);
    expect(envOf('CommandsFunction', keep)).toMatchObject({ ARBITER_ABANDONED_GAME_DAYS: '0', ARBITER_CREATION_QUOTA_PER_HOUR: '0' });
    expect(() => synth({ abandonedGameDays: -1 })).toThrow(/abandonedGameDays/);
  });

  it('limits CORS to the origins given in the stack context, and the push socket to the same origins', () => {
    const limited = synth({ corsOrigins: ['https://league.test'] });
    limited.hasResourceProperties('AWS::ApiGatewayV2::Api', { CorsConfiguration: Match.objectLike({ AllowOrigins: ['https://league.test'] }) });
    expect(envOf('PushSocketFunction', limited).ARBITER_CORS_ORIGINS).toBe('https://league.test');
    expect(envOf('PushSocketFunction').ARBITER_CORS_ORIGINS).toBe('*');
  });

  it('throttles the HTTP stage, creations harder, and gives the long-poll route time for its wait within the gateway limit', () => {
    const { http } = apiIds();
    expect(stageOf(http).DefaultRouteSettings).toEqual({ ThrottlingRateLimit: DEFAULTS.throttle.rateLimit, ThrottlingBurstLimit: DEFAULTS.throttle.burstLimit });
    const creations = { ThrottlingRateLimit: DEFAULTS.creationThrottle.rateLimit, ThrottlingBurstLimit: DEFAULTS.creationThrottle.burstLimit };
    expect(stageOf(http).RouteSettings).toEqual({ 'POST /games': creations, 'POST /tournaments': creations });
    expect(DEFAULTS.longPollMaxSeconds).toBeLessThan(READ_TIMEOUT.toSeconds());
    const integrations = ofApi('AWS::ApiGatewayV2::Integration', http);
    expect(integrations.length).toBeGreaterThan(0);
    for (const i of integrations) expect(i.Properties.TimeoutInMillis).toBeLessThanOrEqual(30_000);
    const reads = functionNamed(template, 'ReadsFunction')[1];
    expect(reads.Properties.Timeout).toBeGreaterThan(20);
    expect(Math.max(...integrations.map((i) => i.Properties.TimeoutInMillis))).toBeGreaterThan(reads.Properties.Timeout * 1000);
  });

  it('writes JSON access logs of the HTTP API, with no header and no query string, kept when the stack is deleted', () => {
    const stage = stageOf(apiIds().http);
    const format = JSON.parse(stage.AccessLogSettings.Format) as Record<string, string>;
    expect(format).toEqual(ACCESS_LOG_FORMAT);
    expect(Object.values(format)).toEqual(expect.arrayContaining(['$context.requestId', '$context.status', '$context.routeKey', '$context.responseLatency']));
    for (const variable of Object.values(format)) {
      // Only $context variables: never a request header (Authorization), never the query string.
      expect(variable).toMatch(/^\$context\.[A-Za-z.]+$/);
      expect(variable.toLowerCase()).not.toMatch(/header|authorization|querystring|query|token|authorizer/);
    }
    const group = resourceName(stage.AccessLogSettings.DestinationArn);
    expect(group).toBe('ApiAccessLogs.Arn');
    const logGroups = template.findResources('AWS::Logs::LogGroup') as Record<string, Resource>;
    const accessLogs = Object.entries(logGroups).find(([id]) => named(id) === 'ApiAccessLogs')![1];
    expect(accessLogs.DeletionPolicy).toBe('Retain');
    // The push stage logs too, into its own group, never a message body (which holds the token).
    const push = stageOf(apiIds().ws);
    expect(resourceName(push.AccessLogSettings.DestinationArn)).toBe('PushAccessLogs.Arn');
    expect(push.AccessLogSettings.Format).not.toMatch(/body|token|authorization|header/i);
  });

  it("keeps every log group when the stack is deleted, for the retention given, each function's logs in its own group", () => {
    const logGroups = template.findResources('AWS::Logs::LogGroup') as Record<string, Resource>;
    // One per function, and the access logs of the two APIs.
    expect(Object.keys(logGroups)).toHaveLength(ALL_FUNCTIONS.length + 2);
    for (const group of Object.values(logGroups)) {
      expect(group.DeletionPolicy).toBe('Retain');
      expect(group.UpdateReplacePolicy).toBe('Retain');
      expect(group.Properties.RetentionInDays).toBe(30);
    }
    const groupsOfFunctions = Object.values(functionsOf(template)).map((fn) => resourceName(fn.Properties.LoggingConfig.LogGroup));
    expect(new Set(groupsOfFunctions).size).toBe(ALL_FUNCTIONS.length);
    expect(synth({ logRetention: 90 }).findResources('AWS::Logs::LogGroup')).toSatisfy((groups: Record<string, Resource>) =>
      Object.values(groups).every((g) => g.Properties.RetentionInDays === 90),
    );
  });

  it('grants no IAM statement with a * action, and attaches no managed policy', () => {
    for (const policy of Object.values(template.findResources('AWS::IAM::Policy'))) {
      for (const statement of policy.Properties.PolicyDocument.Statement as Statement[]) {
        for (const action of [statement.Action].flat()) expect(action).not.toContain('*');
      }
    }
    // AWS Backup's role (infra/operations.ts) is AWS Backup's alone and keeps AWS's own backup policy; every other role is a function's or the rotation role.
    const allRoles = Object.entries(template.findResources('AWS::IAM::Role'));
    const roles = allRoles.filter(([, role]) => role.Properties.AssumeRolePolicyDocument.Statement[0].Principal.Service !== 'backup.amazonaws.com');
    expect(allRoles.length - roles.length).toBe(1);
    for (const [id, role] of roles) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      // The rotation role (infra/signing.ts) is assumed by people of the account, for npm run rotate-key:aws; every other role by Lambda.
      const assumedBy = named(id) === 'KeyRotationRole' ? { AWS: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' }, ':root']] } } : { Service: 'lambda.amazonaws.com' };
      expect(role.Properties.AssumeRolePolicyDocument.Statement, id).toEqual([{ Action: 'sts:AssumeRole', Effect: 'Allow', Principal: assumedBy }]);
    }
  });

  it("gives each function's role exactly these actions on exactly these resources", () => {
    const logsAndTraces = (group: string) => [`Allow logs:CreateLogStream,logs:PutLogEvents → ${group}.Arn`, 'Allow xray:PutTelemetryRecords,xray:PutTraceSegments → *'];
    const seedDeny = '{"ForAnyValue:StringLike":{"dynamodb:LeadingKeys":["*#seed"]}}';
    const connections = (method: string) => `arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:PushApi/${PUSH_STAGE}/${method}/@connections/*`;
    const expected: Record<string, string[]> = {
      CommandsFunction: [
        ...logsAndTraces('commandsLogs'),
        'Allow dynamodb:GetItem,dynamodb:PutItem,dynamodb:Query → Commits.Arn',
        'Allow kms:GetPublicKey,kms:Sign → SigningKey1.Arn',
        'Allow kms:Decrypt,kms:Encrypt → SeedKey.Arn if {"ForAllValues:StringEquals":{"kms:EncryptionContextKeys":["gameId"]},"Null":{"kms:EncryptionContextKeys":"false"}}',
        'Allow kms:GenerateMac → TokenKey.Arn',
        // Its games' seeds, in their own table (infra/seedTable.ts).
        'Allow dynamodb:GetItem,dynamodb:PutItem → Seeds.Arn if {"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["*#seed"]}}',
        // Creation counts (the quota) and the leases of sealed games.
        'Allow dynamodb:UpdateItem → Commits.Arn if {"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["quota#*"]}}',
        'Allow dynamodb:DeleteItem → Commits.Arn if {"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["lease#*"]}}',
        // Notification subscriptions: confirmed (UpdateItem) and ended (DeleteItem of the record, its index entry, cursors and dead letters).
        'Allow dynamodb:DeleteItem,dynamodb:UpdateItem → Commits.Arn if {"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["subscription#*","deadletters#*","subscriptions#*"]}}',
        // Tournament exports: the job's record written, the export function started, the file linked once made.
        'Allow s3:GetObject,s3:PutObject → ExportStorageExports.Arn/exports/*',
        'Allow s3:ListBucket → ExportStorageExports.Arn',
        'Allow lambda:InvokeFunction → ExportJobFunction.Arn',
      ],
      ReadsFunction: [
        ...logsAndTraces('readsLogs'),
        'Allow dynamodb:GetItem,dynamodb:Query → Commits.Arn',
        'Allow kms:GetPublicKey → SigningKey1.Arn',
        // Exports too large for one response: written once per version and linked (infra/exportStorage.ts).
        'Allow s3:GetObject,s3:PutObject → ExportStorageExports.Arn/exports/*',
        'Allow s3:ListBucket → ExportStorageExports.Arn',
        `Deny dynamodb:BatchGetItem,dynamodb:DeleteItem,dynamodb:GetItem,dynamodb:PutItem,dynamodb:Query,dynamodb:Scan,dynamodb:UpdateItem → Commits.Arn if ${seedDeny}`,
        // Long polls lease their slots in the connections table, partition longpoll only (docs/push.md#a-crowd-on-aws).
        'Allow dynamodb:Query,dynamodb:UpdateItem → PushConnections.Arn if {"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["longpoll"]}}',
      ],
      CatalogueFunction: logsAndTraces('catalogueLogs'),
      VerifierFunction: logsAndTraces('verifierLogs'),
      WebFunction: logsAndTraces('webLogs'),
      DocsFunction: logsAndTraces('docsLogs'),
      PushSocketFunction: [
        ...logsAndTraces('PushSocketLogs'),
        'Allow dynamodb:GetItem,dynamodb:Query → Commits.Arn',
        `Deny dynamodb:BatchGetItem,dynamodb:GetItem,dynamodb:Query,dynamodb:Scan → Commits.Arn if ${seedDeny}`,
        'Allow dynamodb:DeleteItem,dynamodb:PutItem,dynamodb:Query → PushConnections.Arn',
        `Allow execute-api:ManageConnections → ${connections('POST')}`,
      ],
      // Splits the work: reads subscriptions, never an item of the commits table, and queues fan-out messages.
      PushStreamFunction: [
        ...logsAndTraces('PushStreamLogs'),
        'Deny dynamodb:BatchGetItem,dynamodb:GetItem,dynamodb:Query,dynamodb:Scan → Commits.Arn',
        'Allow dynamodb:Query → PushConnections.Arn',
        'Allow sqs:GetQueueAttributes,sqs:GetQueueUrl,sqs:SendMessage → PushFanOutQueue.Arn',
        // The event source mapping reads the commits table's stream.
        'Allow dynamodb:ListStreams → *',
        'Allow dynamodb:DescribeStream,dynamodb:GetRecords,dynamodb:GetShardIterator → Commits.StreamArn',
        // It hands each game with new commits to notifications (infra/notifications.ts).
        'Allow sqs:GetQueueAttributes,sqs:GetQueueUrl,sqs:SendMessage → NotificationsQueue.Arn',
      ],
      // Posts: reads commit items only, forgets gone connections, drops failing ones.
      PushFanOutFunction: [
        ...logsAndTraces('PushFanOutLogs'),
        'Allow dynamodb:Query → Commits.Arn if {"ForAllValues:StringNotLike":{"dynamodb:LeadingKeys":["*#*"]}}',
        'Deny dynamodb:BatchGetItem,dynamodb:GetItem,dynamodb:Query,dynamodb:Scan → Commits.Arn if {"ForAnyValue:StringLike":{"dynamodb:LeadingKeys":["*#*"]}}',
        'Allow dynamodb:DeleteItem,dynamodb:Query → PushConnections.Arn',
        `Allow execute-api:ManageConnections → ${connections('POST')}`,
        `Allow execute-api:ManageConnections → ${connections('DELETE')}`,
        'Allow sqs:ChangeMessageVisibility,sqs:DeleteMessage,sqs:GetQueueAttributes,sqs:GetQueueUrl,sqs:ReceiveMessage → PushFanOutQueue.Arn',
      ],
      // Notifications: reads commits and subscriptions, writes only the notification store's items, opens the subscriptions' secrets; never a seed, a secret or a token hash.
      NotificationsDeliveryFunction: [
        ...logsAndTraces('NotificationsDeliveryLogs'),
        'Allow dynamodb:GetItem,dynamodb:Query → Commits.Arn',
        'Allow dynamodb:DeleteItem,dynamodb:PutItem → Commits.Arn if {"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["subscription#*","deadletters#*"]}}',
        'Allow dynamodb:DeleteItem → Commits.Arn if {"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["subscriptions#game#*","subscriptions#tournament#*"]}}',
        'Deny dynamodb:BatchGetItem,dynamodb:BatchWriteItem,dynamodb:DeleteItem,dynamodb:GetItem,dynamodb:PutItem,dynamodb:Query,dynamodb:Scan,dynamodb:UpdateItem → Commits.Arn if {"ForAnyValue:StringLike":{"dynamodb:LeadingKeys":["*#seed","*#secrets","*#tokens","*#viewers","tournament-token#*","idempotency#*","arbiter#keyring"]}}',
        'Allow kms:Decrypt → SeedKey.Arn if {"ForAllValues:StringEquals":{"kms:EncryptionContextKeys":["gameId"]},"Null":{"kms:EncryptionContextKeys":"false"},"StringLike":{"kms:EncryptionContext:gameId":"subscription:*"}}',
        'Allow sqs:ChangeMessageVisibility,sqs:DeleteMessage,sqs:GetQueueAttributes,sqs:GetQueueUrl,sqs:ReceiveMessage → NotificationsQueue.Arn',
      ],
      // The commands side: signs the reveals and reads seeds as commands does; deletes only the entries of pending reveals; creates nothing.
      BeaconRevealsRevealFunction: [
        ...logsAndTraces('BeaconRevealsRevealLogs'),
        'Allow dynamodb:GetItem,dynamodb:PutItem,dynamodb:Query → Commits.Arn',
        'Deny dynamodb:BatchWriteItem,dynamodb:DeleteItem,dynamodb:PutItem,dynamodb:UpdateItem → Commits.Arn if {"ForAnyValue:StringLike":{"dynamodb:LeadingKeys":["*#seed","*#secrets"]}}',
        'Allow dynamodb:DeleteItem → Commits.Arn if {"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["reveal#pending"]}}',
        'Allow kms:GetPublicKey,kms:Sign → SigningKey1.Arn',
        'Allow kms:Decrypt → SeedKey.Arn if {"ForAllValues:StringEquals":{"kms:EncryptionContextKeys":["gameId"]},"Null":{"kms:EncryptionContextKeys":"false"}}',
        'Allow dynamodb:GetItem → Seeds.Arn if {"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["*#seed"]}}',
        'Allow dynamodb:ListStreams → *',
        'Allow dynamodb:DescribeStream,dynamodb:GetRecords,dynamodb:GetShardIterator → Commits.StreamArn',
      ],
      // Makes tournament exports: reads games (never a seed, a token hash but its #secrets, a link, an idempotency record or a subscription), signs the tournament head, writes exports/ in parts.
      ExportJobFunction: [
        ...logsAndTraces('ExportJobLogs'),
        'Allow dynamodb:GetItem,dynamodb:Query → Commits.Arn',
        'Deny dynamodb:BatchGetItem,dynamodb:DeleteItem,dynamodb:GetItem,dynamodb:PutItem,dynamodb:Query,dynamodb:Scan,dynamodb:UpdateItem → Commits.Arn if {"ForAnyValue:StringLike":{"dynamodb:LeadingKeys":["*#seed","*#tokens","*#viewers","tournament-token#*","idempotency#*","subscription*","quota#*"]}}',
        'Allow kms:GetPublicKey,kms:Sign → SigningKey1.Arn',
        'Allow s3:AbortMultipartUpload,s3:GetObject,s3:PutObject → ExportStorageExports.Arn/exports/*',
        'Allow s3:ListBucket → ExportStorageExports.Arn',
      ],
      GameExpirySweepFunction: [
        ...logsAndTraces('GameExpirySweepLogs'),
        // A game's partitions, item by item, nothing handed back (policySimulation.test.ts).
        'Allow dynamodb:DeleteItem,dynamodb:Query → Commits.Arn if {"ForAllValues:StringNotLike":{"dynamodb:LeadingKeys":["*#*"]},"StringEqualsIfExists":{"dynamodb:ReturnValues":"NONE"}}',
        'Allow dynamodb:DeleteItem,dynamodb:Query → Commits.Arn if {"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["*#viewers","*#tokens","*#snapshot","reveal#pending"]},"StringEqualsIfExists":{"dynamodb:ReturnValues":"NONE"}}',
        'Allow dynamodb:DeleteItem → Commits.Arn if {"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["*#seed","*#secrets","lease#*"]},"StringEqualsIfExists":{"dynamodb:ReturnValues":"NONE"}}',
        'Allow dynamodb:DeleteItem → Seeds.Arn if {"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["*#seed"]},"StringEqualsIfExists":{"dynamodb:ReturnValues":"NONE"}}',
        'Deny dynamodb:BatchGetItem,dynamodb:BatchWriteItem,dynamodb:GetItem,dynamodb:PartiQLSelect,dynamodb:PutItem,dynamodb:Query,dynamodb:Scan,dynamodb:UpdateItem → Seeds.Arn',
        'Allow dynamodb:PutItem → Commits.Arn if {"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["lease#*"]}}',
        'Deny dynamodb:BatchGetItem,dynamodb:GetItem,dynamodb:Query,dynamodb:Scan → Commits.Arn if {"ForAnyValue:StringLike":{"dynamodb:LeadingKeys":["*#seed","*#secrets"]}}',
        'Allow dynamodb:ListStreams → *',
        'Allow dynamodb:DescribeStream,dynamodb:GetRecords,dynamodb:GetShardIterator → Commits.StreamArn',
        // The stream's on-failure destination: Lambda sends what exhausts its retries as the function's role.
        'Allow sqs:GetQueueAttributes,sqs:GetQueueUrl,sqs:SendMessage → GameExpirySweepDeadLetters.Arn',
      ],
    };
    expect(Object.keys(expected).sort()).toEqual([...ALL_FUNCTIONS].sort());
    for (const [fn, grants] of Object.entries(expected)) expect(grantsOf(fn), fn).toEqual(grants.sort());
  });

  it('lets no function but commands write a seed item, and none but commands and the reveal function read one; reads and the socket function still read games and token hashes', () => {
    for (const action of TABLE_READS) {
      // A Scan names no partition key, so no condition could keep it off the seed items: nobody may scan.
      for (const fn of ALL_FUNCTIONS) expect(mayOnTable(fn, 'dynamodb:Scan', SEED_ITEM), `${fn} Scan`).toBe(false);
      for (const fn of ALL_FUNCTIONS.filter((f) => f !== 'CommandsFunction' && f !== REVEAL_FUNCTION)) expect(mayOnTable(fn, action, SEED_ITEM), `${fn} ${action} ${SEED_ITEM}`).toBe(false);
    }
    for (const action of TABLE_WRITES) {
      // The sweep of abandoned games deletes seeds (never reads or writes one: 'deletes abandoned games' above).
      const deletes = action === 'dynamodb:DeleteItem' || action === 'dynamodb:BatchWriteItem';
      for (const fn of ALL_FUNCTIONS.filter((f) => f !== 'CommandsFunction' && !(deletes && f === SWEEP_FUNCTION))) {
        expect(mayOnTable(fn, action, SEED_ITEM), `${fn} ${action} ${SEED_ITEM}`).toBe(false);
      }
    }
    // The commands function seals, opens and writes them.
    expect(mayOnTable('CommandsFunction', 'dynamodb:GetItem', SEED_ITEM)).toBe(true);
    expect(mayOnTable('CommandsFunction', 'dynamodb:PutItem', SEED_ITEM)).toBe(true);
    // The reveal function opens them to roll a pending command's dice, appends the reveal, and deletes the entries it revealed, nothing else.
    expect(mayOnTable(REVEAL_FUNCTION, 'dynamodb:GetItem', SEED_ITEM)).toBe(true);
    expect(mayOnTable(REVEAL_FUNCTION, 'dynamodb:PutItem', GAME)).toBe(true);
    expect(mayOnTable(REVEAL_FUNCTION, 'dynamodb:DeleteItem', 'reveal#pending')).toBe(true);
    for (const pk of [GAME, SECRETS_ITEM, KEY_RING_ITEM, 'lease#g-7kq2']) expect(mayOnTable(REVEAL_FUNCTION, 'dynamodb:DeleteItem', pk), pk).toBe(false);
    expect(mayOnTable(REVEAL_FUNCTION, 'dynamodb:PutItem', SECRETS_ITEM)).toBe(false);
    // What the others do need: reads and the socket function authorize by token hashes and read commits and the key ring.
    for (const fn of ['ReadsFunction', 'PushSocketFunction']) {
      for (const pk of [GAME, SECRETS_ITEM, KEY_RING_ITEM]) {
        expect(mayOnTable(fn, 'dynamodb:GetItem', pk), `${fn} GetItem ${pk}`).toBe(true);
        expect(mayOnTable(fn, 'dynamodb:Query', pk), `${fn} Query ${pk}`).toBe(true);
      }
      for (const action of TABLE_WRITES) expect(mayOnTable(fn, action, GAME), `${fn} ${action}`).toBe(false);
    }
    // The fan-out function queries commits, and nothing else of the table; the stream function reads none of it.
    expect(mayOnTable('PushFanOutFunction', 'dynamodb:Query', GAME)).toBe(true);
    for (const pk of [SECRETS_ITEM, KEY_RING_ITEM]) expect(mayOnTable('PushFanOutFunction', 'dynamodb:Query', pk), pk).toBe(false);
    expect(mayOnTable('PushFanOutFunction', 'dynamodb:GetItem', GAME)).toBe(false);
    for (const action of TABLE_READS) expect(mayOnTable('PushStreamFunction', action, GAME), action).toBe(false);
    // Notifications remove a subscription whose grant ended, its scope's index entry with it: delete only, never put there.
    for (const pk of ['subscriptions#game#g-7kq2', 'subscriptions#tournament#t-1']) {
      expect(mayOnTable(DELIVERY_FUNCTION, 'dynamodb:DeleteItem', pk), pk).toBe(true);
      expect(mayOnTable(DELIVERY_FUNCTION, 'dynamodb:PutItem', pk), pk).toBe(false);
    }
    expect(mayOnTable(DELIVERY_FUNCTION, 'dynamodb:DeleteItem', 'subscriptions#games')).toBe(false);
    // The functions that serve files touch no item at all.
    for (const fn of ['CatalogueFunction', 'VerifierFunction', 'WebFunction', 'DocsFunction']) {
      for (const action of [...TABLE_READS, ...TABLE_WRITES]) expect(mayOnTable(fn, action, GAME), `${fn} ${action}`).toBe(false);
    }
  });
});

describe('the keys in KMS', () => {
  const keysOf = (t: Template) => t.findResources('AWS::KMS::Key') as Record<string, Resource>;
  const keyNamed = (t: Template, name: string) => Object.entries(keysOf(t)).find(([id]) => named(id) === name)![1];
  const allStatements = (t = template) =>
    Object.values(t.findResources('AWS::IAM::Policy')).flatMap((p) =>
      (p.Properties.PolicyDocument.Statement as Statement[]).map((s) => ({ roles: (p.Properties.Roles as { Ref: string }[]).map((r) => named(r.Ref)), ...s })),
    );
  const kmsStatements = (t = template) => allStatements(t).filter((s) => [s.Action].flat().some((a) => a.startsWith('kms:')));

  it('are Ed25519 signing keys, a symmetric seed key that rotates its key material, and an HMAC token key, all kept when the stack goes', () => {
    expect(Object.keys(keysOf(template)).map(named).sort()).toEqual(['AlarmTopicKey', 'SeedKey', 'SigningKey1', 'TokenKey']);
    const signing = keyNamed(template, 'SigningKey1');
    expect(signing.Properties).toMatchObject({ KeySpec: 'ECC_NIST_EDWARDS25519', KeyUsage: 'SIGN_VERIFY' });
    // Asymmetric keys cannot rotate their material: a new key and a key-log statement do (docs/deploy.md).
    expect(signing.Properties.EnableKeyRotation).toBeUndefined();
    const seed = keyNamed(template, 'SeedKey');
    expect(seed.Properties.KeySpec ?? 'SYMMETRIC_DEFAULT').toBe('SYMMETRIC_DEFAULT');
    expect(seed.Properties.KeyUsage ?? 'ENCRYPT_DECRYPT').toBe('ENCRYPT_DECRYPT');
    expect(seed.Properties.EnableKeyRotation).toBe(true);
    expect(keyNamed(template, 'TokenKey').Properties).toMatchObject({ KeySpec: 'HMAC_256', KeyUsage: 'GENERATE_VERIFY_MAC' });
    for (const name of ['SigningKey1', 'SeedKey', 'TokenKey']) {
      const key = keyNamed(template, name);
      expect([key.DeletionPolicy, key.UpdateReplacePolicy], name).toEqual(['Retain', 'Retain']);
      // The key policy keeps administration for the account and names the roles of each use (policySimulation.test.ts proves who can use it).
      const statements = key.Properties.KeyPolicy.Statement as { Sid: string; Effect: string; Action: string | string[] }[];
      expect(statements[0], name).toMatchObject({ Sid: 'AccountAdministersTheKey', Effect: 'Allow', Action: expect.not.arrayContaining(['kms:*']) });
      expect(JSON.stringify(statements), name).not.toContain('"kms:*"');
    }
  });

  it('grant kms:Sign to the commands side alone: the commands function, the function that reveals beacon rolls, and the one that signs tournament heads', () => {
    const signers = allStatements().filter((s) => [s.Action].flat().includes('kms:Sign'));
    expect(signers.map((s) => [s.Effect, s.roles])).toEqual([
      ['Allow', ['CommandsFunctionRole']],
      ['Allow', ['BeaconRevealsRevealRole']],
      // The role npm run rotate-key:aws runs as: it signs the rotation statement (infra/signing.ts).
      ['Allow', ['KeyRotationRole']],
      ['Allow', ['ExportJobRole']],
    ]);
    for (const signer of signers) expect([signer.Resource].flat().map(resourceName)).toEqual(['SigningKey1.Arn']);
    for (const fn of ALL_FUNCTIONS.filter((f) => f !== 'CommandsFunction' && f !== REVEAL_FUNCTION && f !== EXPORT_FUNCTION)) expect(actionsOf(fn), fn).not.toContain('kms:Sign');
  });

  it('let no function but commands use the token key or seal a seed, and only the reveal function and the notification delivery function (the subscriptions\' secrets) besides open one; reads may only read the public keys; the push functions get no KMS action at all', () => {
    const on = (key: string) => kmsStatements().filter((s) => [s.Resource].flat().some((r) => resourceName(r) === `${key}.Arn`));
    expect(on('SeedKey').map((s) => [s.roles, [s.Action].flat().sort()])).toEqual([
      [['CommandsFunctionRole'], ['kms:Decrypt', 'kms:Encrypt']],
      [['BeaconRevealsRevealRole'], ['kms:Decrypt']],
      [['NotificationsDeliveryRole'], ['kms:Decrypt']],
    ]);
    for (const statement of on('SeedKey')) expect(statement.Condition).toMatchObject({ 'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['gameId'] }, Null: { 'kms:EncryptionContextKeys': 'false' } });
    // The delivery function opens a subscription's sealed target only (its context `subscription:<id>`), never a game's seed.
    expect(on('SeedKey')[2].Condition).toMatchObject({ StringLike: { 'kms:EncryptionContext:gameId': 'subscription:*' } });
    expect(on('TokenKey').map((s) => [s.roles, [s.Action].flat()])).toEqual([[['CommandsFunctionRole'], ['kms:GenerateMac']]]);
    // No KMS grant on any resource but the stack's own keys (no `*`).
    for (const s of kmsStatements()) for (const r of [s.Resource].flat()) expect(resourceName(r)).toMatch(/^(SigningKey\d+|SeedKey|TokenKey)\.Arn$/);
    const kmsActions = (fn: string) => actionsOf(fn).filter((a) => a.startsWith('kms:')).sort();
    expect(kmsActions('ReadsFunction')).toEqual(['kms:GetPublicKey']);
    for (const fn of [...PUSH_FUNCTIONS, 'CatalogueFunction', 'VerifierFunction', 'WebFunction', 'DocsFunction']) expect(kmsActions(fn), fn).toEqual([]);
    // The seed key opens a seed only for the game named as its encryption context.
    expect(on('SeedKey')[0].Condition).toEqual({ 'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['gameId'] }, Null: { 'kms:EncryptionContextKeys': 'false' } });
  });

  it('are named to each function in its environment as infra/signing.ts wires them: the seed and token keys and ARBITER_SIGNS to commands alone', () => {
    const kmsEnv = (fn: string) => Object.fromEntries(Object.entries(envOf(fn)).filter(([k]) => /KEY|SIGNS/.test(k)).map(([k, v]) => [k, resourceName(v)]));
    expect(kmsEnv('CommandsFunction')).toEqual({ ARBITER_SIGNING_KEY_ID: 'SigningKey1.Arn', ARBITER_SIGNS: 'true', ARBITER_SEED_KEY_ID: 'SeedKey.Arn', ARBITER_TOKEN_KEY_ID: 'TokenKey.Arn' });
    expect(kmsEnv('ReadsFunction')).toEqual({ ARBITER_SIGNING_KEY_ID: 'SigningKey1.Arn' });
    expect(kmsEnv(REVEAL_FUNCTION)).toEqual({ ARBITER_SIGNING_KEY_ID: 'SigningKey1.Arn', ARBITER_SIGNS: 'true', ARBITER_SEED_KEY_ID: 'SeedKey.Arn' });
    for (const fn of [...PUSH_FUNCTIONS, 'CatalogueFunction', 'VerifierFunction', 'WebFunction', 'DocsFunction']) expect(kmsEnv(fn), fn).toEqual({});
    // Nothing of Secrets Manager is left: no secret, no grant, no secret in an environment or an output.
    const json = JSON.stringify(template.toJSON());
    expect(json).not.toMatch(/SecretsManager|secretsmanager|SECRET_ARN|resolve:secretsmanager/);
    expect(Object.keys(template.toJSON().Outputs)).not.toContain('SigningKeySecretArn');
  });

  it('hold one more signing key per generation (-c signingKeys): each may sign and be published, the first still named first until a rotation', () => {
    const three = synth({ signingKeys: 3 });
    expect(Object.values(keysOf(three)).filter((k) => k.Properties.KeySpec === 'ECC_NIST_EDWARDS25519')).toHaveLength(3);
    const keys = ['SigningKey1.Arn', 'SigningKey2.Arn', 'SigningKey3.Arn'];
    expect(grantsOf('CommandsFunction', three).filter((g) => g.includes('kms:Sign'))).toEqual(keys.map((k) => `Allow kms:GetPublicKey,kms:Sign → ${k}`));
    expect(grantsOf('ReadsFunction', three).filter((g) => g.includes('kms:'))).toEqual(keys.map((k) => `Allow kms:GetPublicKey → ${k}`));
    expect(resourceName(envOf('CommandsFunction', three).ARBITER_SIGNING_KEY_ID)).toBe('SigningKey1.Arn');
    expect(resourceName(three.toJSON().Outputs.SigningKeyArns.Value)).toBe(keys.join(','));
    expect(() => synth({ signingKeys: 0 })).toThrow(/signingKeys/);
  });
});

describe('the outputs', () => {
  it('are what docs/deploy.md lists: the URLs, the table and signing keys for a rotation, the push socket, the notification queues and the alarm topic', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs).sort()).toEqual(['AlarmNotifications', 'ApiUrl', 'DocsUrl', 'KeyRotationRoleArn', 'KeysUrl', 'NotificationDeadLettersUrl', 'NotificationQueueUrl', 'PushUrl', 'SigningKeyArns', 'TableName', 'VerifierUrl', 'WebUrl']);
    expect(resourceName(outputs.TableName.Value)).toBe('Commits');
    expect(resourceName(outputs.SigningKeyArns.Value)).toBe('SigningKey1.Arn');
    expect(resourceName(outputs.PushUrl.Value)).toBe(`wss://PushApi.execute-api.<AWS::Region>.<AWS::URLSuffix>/${PUSH_STAGE}`);
    const deploy = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
    for (const name of Object.keys(outputs)) expect(deploy, `docs/deploy.md names the output ${name}`).toContain(`\`${name}\``);
  });

  it('tell the web page where the push socket is: the web function gets the PushUrl output as ARBITER_PUSH_URL', () => {
    expect(envOf('WebFunction').ARBITER_PUSH_URL).toEqual(template.toJSON().Outputs.PushUrl.Value);
    for (const fn of ALL_FUNCTIONS.filter((f) => f !== 'WebFunction')) expect(envOf(fn).ARBITER_PUSH_URL, fn).toBeUndefined();
  });
});

describe('concurrency', () => {
  const reservedOf = (t: Template) =>
    Object.fromEntries(Object.entries(functionsOf(t)).map(([id, fn]) => [named(id).replace(/Function$/, ''), fn.Properties.ReservedConcurrentExecutions]));

  it('reserves concurrency for commands and caps reads by default; the other functions, the push functions included, share the rest', () => {
    expect(reservedOf(template)).toEqual({ Commands: 50, Reads: 100, Catalogue: undefined, Verifier: undefined, Web: undefined, Docs: undefined, PushSocket: undefined, PushStream: undefined });
    expect(DEFAULTS).toMatchObject({ commandsConcurrency: 50, readsConcurrency: 100 });
  });

  it('takes other reservations from the stack props, or none', () => {
    expect(reservedOf(synth({ commandsConcurrency: 20, readsConcurrency: 5 }))).toMatchObject({ Commands: 20, Reads: 5 });
    const none = synth({ commandsConcurrency: null, readsConcurrency: null });
    expect(reservedOf(none)).toMatchObject({ Commands: undefined, Reads: undefined });
    // Without a reservation there is no concurrency alarm to raise.
    expect(Object.keys(alarmsOf(none)).filter((id) => id.includes('Concurrency') && !id.includes('Unreserved'))).toEqual([]);
  });

  it("refuses reservations that leave the account fewer than the 100 unreserved executions Lambda keeps, or that aren't whole numbers", () => {
    expect(() => synth({ accountConcurrency: 200, commandsConcurrency: 50, readsConcurrency: 60 })).toThrow(/leaves 90 of the account's 200/);
    expect(() => synth({ accountConcurrency: 200, commandsConcurrency: 50, readsConcurrency: 50 })).not.toThrow();
    expect(() => synth({ commandsConcurrency: 0 })).toThrow(/at least 1/);
    expect(() => synth({ readsConcurrency: 2.5 })).toThrow(/whole number/);
  });
});

describe('the alarms', () => {
  it('go to an encrypted topic that only takes TLS, and to the subscribed email when the AlarmEmail parameter is set', () => {
    const alarms = Object.values(alarmsOf(template));
    expect(alarms.length).toBeGreaterThan(0);
    const topic = Object.keys(template.findResources('AWS::SNS::Topic'))[0];
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topic }]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topic }]);
      expect(alarm.Properties.TreatMissingData).toBe('notBreaching');
      expect(alarm.Properties.AlarmDescription).toMatch(/docs\/deploy\.md#[a-z0-9-]+$/);
    }
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('^AlarmTopicKey'), 'Arn'] } });
    template.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: Match.objectLike({
        Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: ['kms:Decrypt', 'kms:GenerateDataKey*'] })]),
      }),
    });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({ Effect: 'Allow', Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: 'sns:Publish' }),
        ]),
      }),
    });
    const json = template.toJSON();
    expect(json.Parameters.AlarmEmail).toMatchObject({ Type: 'String', Default: '' });
    expect(json.Conditions.HasAlarmEmail).toEqual({ 'Fn::Not': [{ 'Fn::Equals': [{ Ref: 'AlarmEmail' }, ''] }] });
    template.hasResource('AWS::SNS::Subscription', { Condition: 'HasAlarmEmail', Properties: { Protocol: 'email', Endpoint: { Ref: 'AlarmEmail' }, TopicArn: { Ref: topic } } });
    expect(synth({ alarmEmail: 'ops@league.test' }).toJSON().Parameters.AlarmEmail.Default).toBe('ops@league.test');
  });

  it('each link to the section of docs/deploy.md that says what it means and what to do, whose cost section counts them', () => {
    const deploy = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
    const headings = new Set(
      deploy
        .split('\n')
        .filter((line) => line.startsWith('#'))
        .map((line) => line.replace(/^#+\s*/, '').toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')),
    );
    for (const alarm of Object.values(alarmsOf(template))) {
      const anchor = (alarm.Properties.AlarmDescription as string).match(/docs\/deploy\.md#([a-z0-9-]+)$/)![1];
      expect(headings.has(anchor), anchor).toBe(true);
    }
    // "N alarms, M alarm metrics": CloudWatch bills each metric an alarm reads.
    const alarms = Object.values(alarmsOf(template));
    const metrics = alarms.reduce((sum, a) => sum + (a.Properties.Metrics ? (a.Properties.Metrics as { MetricStat?: unknown }[]).filter((m) => m.MetricStat).length : 1), 0);
    expect(deploy).toContain(`${alarms.length} alarms, ${metrics} alarm metrics`);
  });

  it('also go to an existing topic given as a prop, which must be an SNS topic ARN', () => {
    const other = 'arn:aws:sns:eu-west-1:123456789012:league-pager';
    const both = synth({ alarmTopicArn: other });
    for (const alarm of Object.values(alarmsOf(both))) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: expect.stringMatching(/^AlarmTopic/) }, other]);
    expect(() => synth({ alarmTopicArn: 'arn:aws:sqs:eu-west-1:123456789012:queue' })).toThrow(/not an SNS topic ARN/);
  });

  it('watch the HTTP API, the table, KMS and the push stream', () => {
    const api = apiIds().http;
    expect(alarmNamed(template, 'Api5xx')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Dimensions: [{ Name: 'ApiId', Value: { Ref: api } }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: DEFAULTS.api5xxPer5Minutes,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    const table = Object.keys(template.findResources('AWS::DynamoDB::Table'))[0];
    const throttles = alarmNamed(template, 'TableThrottles');
    expect(throttles.Threshold).toBe(1);
    const metrics = throttles.Metrics as { Id: string; Expression?: string; MetricStat?: { Metric: { MetricName: string; Namespace: string; Dimensions: unknown }; Period: number; Stat: string } }[];
    expect(metrics.find((m) => m.Expression)!.Expression).toBe('reads + writes');
    expect(metrics.filter((m) => m.MetricStat).map((m) => [m.MetricStat!.Metric.Namespace, m.MetricStat!.Metric.MetricName, m.MetricStat!.Metric.Dimensions, m.MetricStat!.Stat])).toEqual([
      ['AWS/DynamoDB', 'ReadThrottleEvents', [{ Name: 'TableName', Value: { Ref: table } }], 'Sum'],
      ['AWS/DynamoDB', 'WriteThrottleEvents', [{ Name: 'TableName', Value: { Ref: table } }], 'Sum'],
    ]);
    // KMS publishes no error count of its own: the functions count their failed KMS calls (awsClients.ts).
    expect(alarmNamed(template, 'KMSErrors')).toMatchObject({
      Namespace: METRICS.namespace,
      MetricName: METRICS.dependencyErrors,
      Dimensions: [
        { Name: 'dependency', Value: 'KMS' },
        { Name: 'service', Value: METRICS.service },
      ],
      Statistic: 'Sum',
      Threshold: 1,
    });
    expect(alarmNamed(template, 'DynamoDBErrors')).toMatchObject({
      MetricName: METRICS.dependencyErrors,
      Dimensions: [
        { Name: 'dependency', Value: 'DynamoDB' },
        { Name: 'service', Value: METRICS.service },
      ],
    });
    expect(alarmNamed(template, 'UnreservedConcurrency')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'UnreservedConcurrentExecutions',
      Statistic: 'Maximum',
      Threshold: Math.floor((DEFAULTS.accountConcurrency - 150) * 0.8),
      EvaluationPeriods: 3,
    });
    // Pushes that lag: the stream function's oldest record in a batch, in milliseconds.
    expect(alarmNamed(template, 'PushStreamIteratorAge')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionNamed(template, 'PushStreamFunction')[0] } }],
      Statistic: 'Maximum',
      Period: 300,
      Threshold: 60_000,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(synth({ api5xxPer5Minutes: 1 }).findResources('AWS::CloudWatch::Alarm')).toSatisfy((a: Record<string, Resource>) =>
      Object.entries(a).some(([id, alarm]) => id.startsWith('AlarmsApi5xx') && alarm.Properties.Threshold === 1),
    );
  });

  it("watch every function's errors and throttles (the push functions' too), and the concurrency of those with a reservation", () => {
    expect(Object.keys(functionsOf(template))).toHaveLength(ALL_FUNCTIONS.length);
    for (const [id, fn] of Object.entries(functionsOf(template))) {
      const name = named(id);
      const dimensions = [{ Name: 'FunctionName', Value: { Ref: id } }];
      expect(alarmNamed(template, `${name}Errors`)).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Errors', Dimensions: dimensions, Statistic: 'Sum', Threshold: 1 });
      expect(alarmNamed(template, `${name}Throttles`)).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Throttles', Dimensions: dimensions, Statistic: 'Sum', Threshold: 1 });
      const reserved = fn.Properties.ReservedConcurrentExecutions;
      const concurrency = Object.keys(alarmsOf(template)).filter((a) => a.startsWith(`Alarms${name}Concurrency`));
      if (reserved === undefined) expect(concurrency).toEqual([]);
      else {
        expect(alarmNamed(template, `${name}Concurrency`)).toMatchObject({
          MetricName: 'ConcurrentExecutions',
          Dimensions: dimensions,
          Statistic: 'Maximum',
          Period: 60,
          EvaluationPeriods: 3,
          Threshold: Math.floor(reserved * 0.8),
        });
      }
    }
    // 13 functions × (errors, throttles) + 2 concurrency + 5xx, table throttles, KMS, DynamoDB, unreserved concurrency + push stream lag + push fan-out dead letters + late beacon reveals + notification dead letters + key use by others + the sweep's lag and dead letters
    // + the operations alarms (infra/operations.ts): 13 functions × duration near the timeout, HTTP 429s, WebSocket errors, command latency.
    expect(Object.keys(alarmsOf(template))).toHaveLength(ALL_FUNCTIONS.length * 2 + 2 + 5 + 1 + 1 + 1 + 1 + 1 + 2 + ALL_FUNCTIONS.length + 3);
  });

  it('watch a function another construct adds to the stack later, as the push construct did and the export construct will', () => {
    const later = synth(undefined, (stack) => {
      const scope = new Construct(stack, 'Later');
      new LambdaFunction(scope, 'Fanout', { runtime: Runtime.NODEJS_24_X, handler: 'index.handler', code: Code.fromInline('export const handler = async () => {}'), reservedConcurrentExecutions: 10 });
    });
    const id = Object.keys(functionsOf(later)).find((k) => k.startsWith('LaterFanout'))!;
    expect(alarmNamed(later, 'LaterFanoutErrors').Dimensions).toEqual([{ Name: 'FunctionName', Value: { Ref: id } }]);
    expect(alarmNamed(later, 'LaterFanoutThrottles').Dimensions).toEqual([{ Name: 'FunctionName', Value: { Ref: id } }]);
    expect(alarmNamed(later, 'LaterFanoutConcurrency').Threshold).toBe(8);
    // A function of another stack is that stack's business.
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const arbiter = new ArbiterStack(app, 'Arbiter');
    const other = new Stack(app, 'Other');
    new LambdaFunction(other, 'Elsewhere', { runtime: Runtime.NODEJS_24_X, handler: 'index.handler', code: Code.fromInline('export const handler = async () => {}') });
    expect(Object.keys(Template.fromStack(arbiter).findResources('AWS::CloudWatch::Alarm')).filter((k) => k.includes('Elsewhere'))).toEqual([]);
  });
});

describe('beacon reveals (docs/deploy.md#beacon-games)', () => {
  const revealMapping = (t: Template) =>
    Object.values(t.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>).filter((m) => m.Properties.FunctionName.Ref === functionNamed(t, REVEAL_FUNCTION)[0]);

  it('reveal from the stream: new entries of pending reveals reach the reveal function at once, batches of a shard side by side', () => {
    const [mapping] = revealMapping(template);
    expect(revealMapping(template)).toHaveLength(1);
    expect(mapping.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [expect.stringMatching(/^Commits/), 'StreamArn'] },
      StartingPosition: 'LATEST',
      ParallelizationFactor: 10,
      MaximumRetryAttempts: 2,
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { Keys: { pk: { S: ['reveal#pending'] } } } }) }] },
    });
    expect(mapping.Properties.MaximumBatchingWindowInSeconds ?? 0).toBe(0);
    expect(functionNamed(template, REVEAL_FUNCTION)[1].Properties).toMatchObject({ Timeout: 60, MemorySize: 512 });
  });

  it('and every minute from a schedule, for the entries the stream left', () => {
    // The other schedule is the notifications' tick (notifications.test.ts).
    const rules = Object.values(template.findResources('AWS::Events::Rule') as Record<string, Resource>).filter((r) => r.Properties.Targets[0].Arn['Fn::GetAtt']?.[0] === functionNamed(template, REVEAL_FUNCTION)[0]);
    expect(rules).toHaveLength(1);
    expect(rules[0].Properties).toMatchObject({ ScheduleExpression: 'rate(1 minute)', State: 'ENABLED' });
    expect(rules[0].Properties.Targets).toEqual([expect.objectContaining({ Arn: { 'Fn::GetAtt': [functionNamed(template, REVEAL_FUNCTION)[0], 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })]);
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [functionNamed(template, REVEAL_FUNCTION)[0], 'Arn'] },
      Principal: 'events.amazonaws.com',
    });
  });

  it("ask drand's public relays by default, or the relays given; the commands function is told beacon games are offered, and asks none itself", () => {
    const relays = 'https://api.drand.sh,https://api2.drand.sh,https://api3.drand.sh,https://drand.cloudflare.com';
    expect(envOf(REVEAL_FUNCTION).ARBITER_DRAND_RELAYS).toBe(relays);
    expect(envOf('CommandsFunction').ARBITER_DRAND_RELAYS).toBe(relays);
    expect(envOf('ReadsFunction').ARBITER_DRAND_RELAYS).toBeUndefined();
    expect(envOf(REVEAL_FUNCTION).ARBITER_BEACON_CHAINS).toBeUndefined();
    const own = synth({ drandRelays: ['https://drand.league.test/'] });
    expect(envOf(REVEAL_FUNCTION, own).ARBITER_DRAND_RELAYS).toBe('https://drand.league.test');
    expect(envOf('CommandsFunction', own).ARBITER_DRAND_RELAYS).toBe('https://drand.league.test');
    expect(() => synth({ drandRelays: ['ftp://drand.league.test'] })).toThrow(/http or https/);
  });

  it('are left out with no relays: no reveal function, no schedule, and the commands function refuses beacon games', () => {
    const none = synth({ drandRelays: [] });
    expect(Object.keys(functionsOf(none)).map(named)).not.toContain(REVEAL_FUNCTION);
    expect(Object.keys(none.findResources('AWS::Events::Rule')).map(named).sort()).toEqual(['KeyUseByOthers', 'NotificationsEveryMinute']);
    expect(envOf('CommandsFunction', none).ARBITER_DRAND_RELAYS).toBeUndefined();
    expect(Object.keys(none.findResources('AWS::CloudWatch::Alarm')).filter((id) => id.includes('BeaconRevealLate'))).toEqual([]);
  });

  it('raise an alarm when a reveal is late (BeaconRevealLate, counted by the reveal function)', () => {
    expect(alarmNamed(template, 'BeaconRevealLate')).toMatchObject({
      Namespace: METRICS.namespace,
      MetricName: METRICS.beaconRevealLate,
      Dimensions: [{ Name: 'service', Value: METRICS.service }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
    });
  });
});
