import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { App, Duration, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { sideFunction } from '../../infra/sideFunction';
import { AwsSolutionsChecks } from 'cdk-nag';
import { build } from 'esbuild';
import { mkdtempSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameService } from '../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../functions/application/signer';
import { DynamoEventStore } from '../../functions/store/dynamoStore';
import { BUNDLE, esbuildOptions } from '../../infra/bundling';
import { addPush, PUSH_ENTRIES, PUSH_STAGE } from '../../infra/push';
import { CONNECTIONS_KEY_SCHEMA } from '../../functions/push/subscriptionStore';
import { startLoopbackDynamo } from '../support/loopbackDynamo';
import { invokeBundle } from '../support/runCli';

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

describe('the push construct (infra/push.ts) in a small stack', () => {
  let template: Template;
  let stack: Stack;
  beforeAll(() => {
    // Bundling is checked below, with the project's own settings; here only the template counts.
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    stack = new Stack(app, 'PushTest', { env: { account: '000000000000', region: 'eu-west-1' } });
    const table = new Table(stack, 'Commits', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.NUMBER },
      stream: StreamViewType.KEYS_ONLY,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    });
    // A stand-in for the stack's reads function, which answers long polls.
    const reads = sideFunction(stack, 'Reads', { entry: 'functions/lambda/reads.ts', description: 'reads', serviceName: 'arbiter', timeout: Duration.seconds(25), retention: RetentionDays.ONE_DAY });
    Validations.of(reads.role!.node.findChild('DefaultPolicy')).acknowledge({ id: 'AwsSolutions-IAM5[Resource::*]', reason: 'The stand-in of the reads function: X-Ray tracing only, as the stack acknowledges for its own.' });
    addPush(stack, { table, allowedOrigins: ['https://app.invalid'], longPolls: { fn: reads, slots: 60 } });
    template = Template.fromStack(stack);
  });

  const functionId = (prefix: string) => Object.keys(template.findResources('AWS::Lambda::Function')).find((id) => id.startsWith(prefix))!;
  const statementsOf = (prefix: string): Statement[] => {
    const fn = template.findResources('AWS::Lambda::Function')[functionId(prefix)];
    const role = (fn.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
    return Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === role))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
  };
  const allowed = (prefix: string) => statementsOf(prefix).filter((s) => s.Effect === 'Allow').flatMap((s) => [s.Action].flat()).sort();

  it('is a WebSocket API whose one function answers $connect, $disconnect and every message, on a throttled, logged stage', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'WEBSOCKET', RouteSelectionExpression: '$request.body.action' });
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    expect(routes.sort()).toEqual(['$connect', '$default', '$disconnect']);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: PUSH_STAGE,
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
      AccessLogSettings: { Format: Match.stringLikeRegexp('connectionId') },
    });
    // The access log names the connection and route, never a message body.
    const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'))[0];
    expect(stage.Properties.AccessLogSettings.Format).not.toMatch(/body|token|authorization/i);
  });

  it('keeps connections in their own table, with a TTL', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      BillingMode: 'PAY_PER_REQUEST',
    });
  });

  it('feeds the stream function from the game table\'s stream, INSERTs and MODIFYs only, and never drops a record', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionId('PushStreamFunction') },
      StartingPosition: 'LATEST',
      ParallelizationFactor: 4,
      BisectBatchOnFunctionError: true,
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT', 'MODIFY'] }) }] },
    });
    const mapping = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).find((m) => JSON.stringify(m.Properties.FunctionName).includes('PushStreamFunction'))!;
    // Unset: retried until it passes, however old (AWS's -1); the iterator-age alarm tells when the stream falls behind.
    expect(mapping.Properties.MaximumRetryAttempts).toBeUndefined();
    expect(mapping.Properties.MaximumRecordAgeInSeconds).toBeUndefined();
  });

  it('fans out through a FIFO queue with a dead-letter queue, to a one-vCPU function that reports each failed message', () => {
    const queues = template.findResources('AWS::SQS::Queue');
    const [queueId, queue] = Object.entries(queues).find(([id]) => id.startsWith('PushFanOutQueue'))!;
    const [deadId, dead] = Object.entries(queues).find(([id]) => id.startsWith('PushFanOutDeadLetters'))!;
    expect(queue.Properties).toMatchObject({
      FifoQueue: true,
      DeduplicationScope: 'messageGroup',
      FifoThroughputLimit: 'perMessageGroupId',
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 180,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [deadId, 'Arn'] }, maxReceiveCount: 3 },
    });
    expect(dead.Properties).toMatchObject({ FifoQueue: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionId('PushFanOutFunction') },
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 100 },
    });
    expect(template.findResources('AWS::Lambda::Function')[functionId('PushFanOutFunction')].Properties).toMatchObject({ MemorySize: 1769, Timeout: 30 });
    const streamEnv = template.findResources('AWS::Lambda::Function')[functionId('PushStreamFunction')].Properties.Environment.Variables;
    expect(streamEnv.ARBITER_FAN_OUT_QUEUE_URL).toEqual({ Ref: queueId });
  });

  it('lets the reads function lease long-poll slots in the connections table, partition longpoll only', () => {
    const readsRole = Object.keys(template.findResources('AWS::IAM::Role')).find((id) => id.startsWith('ReadsRole'))!;
    const statements = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === readsRole))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
    expect(statements.filter((s) => JSON.stringify(s.Resource).includes('PushConnections'))).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Action: ['dynamodb:Query', 'dynamodb:UpdateItem'],
        Resource: { 'Fn::GetAtt': [expect.stringMatching(/^PushConnections/), 'Arn'] },
        Condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['longpoll'] } },
      }),
    ]);
    const env = template.findResources('AWS::Lambda::Function')[functionId('ReadsFunction')].Properties.Environment.Variables;
    expect(env).toMatchObject({ ARBITER_LONG_POLL_SLOTS: '60', ARBITER_CONNECTIONS_TABLE_NAME: { Ref: expect.stringMatching(/^PushConnections/) } });
  });

  it('grants each function exactly what it uses: no seed item, no key, no secret, no signing', () => {
    const xray = ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'];
    expect(allowed('PushSocketFunction')).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:Query', 'execute-api:ManageConnections', 'logs:CreateLogStream', 'logs:PutLogEvents', ...xray].sort());
    expect(allowed('PushStreamFunction')).toEqual(
      ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams', 'dynamodb:Query', 'logs:CreateLogStream', 'logs:PutLogEvents', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage', ...xray].sort(),
    );
    expect(allowed('PushFanOutFunction')).toEqual(
      ['dynamodb:DeleteItem', 'dynamodb:Query', 'dynamodb:Query', 'execute-api:ManageConnections', 'logs:CreateLogStream', 'logs:PutLogEvents', 'sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage', ...xray].sort(),
    );
    for (const prefix of ['PushSocketFunction', 'PushStreamFunction', 'PushFanOutFunction']) {
      const allows = JSON.stringify(statementsOf(prefix).filter((st) => st.Effect === 'Allow'));
      expect(allows, prefix).not.toMatch(/kms:|secretsmanager:|dynamodb:Scan|dynamodb:\*|dynamodb:BatchGetItem/);
      // '*' only where no resource can be named: X-Ray, and the stream's ListStreams.
      const anywhere = statementsOf(prefix).filter((st) => st.Effect === 'Allow' && st.Resource === '*').flatMap((st) => [st.Action].flat()).sort();
      expect(anywhere, prefix).toEqual(prefix === 'PushStreamFunction' ? ['dynamodb:ListStreams', ...xray] : xray);
      const env = template.findResources('AWS::Lambda::Function')[functionId(prefix)].Properties.Environment.Variables;
      const own = { PushSocketFunction: ['ARBITER_CORS_ORIGINS'], PushStreamFunction: ['ARBITER_FAN_OUT_QUEUE_URL'], PushFanOutFunction: [] }[prefix]!;
      expect(Object.keys(env).sort(), prefix).toEqual(
        ['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED', 'ARBITER_CONNECTIONS_TABLE_NAME', 'NODE_OPTIONS', 'POWERTOOLS_SERVICE_NAME', 'ARBITER_PUSH_CALLBACK_URL', 'ARBITER_TABLE_NAME', ...own].sort(),
      );
    }
    // The socket function is denied every seed item; the stream function may read only partitions without '#': commits.
    expect(statementsOf('PushSocketFunction')).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': ['*#seed'] } } }),
    );
    // The stream function reads no item of the game table at all; the fan-out function commit items only.
    expect(statementsOf('PushStreamFunction').filter((s) => JSON.stringify(s.Resource).includes('Commits') && !JSON.stringify(s.Resource).includes('StreamArn'))).toEqual([
      expect.objectContaining({ Effect: 'Deny', Action: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan'] }),
    ]);
    const fanOutTableReads = statementsOf('PushFanOutFunction').filter((s) => [s.Action].flat().includes('dynamodb:Query') && JSON.stringify(s.Resource).includes('Commits'));
    expect(fanOutTableReads).toEqual([
      expect.objectContaining({ Effect: 'Allow', Action: 'dynamodb:Query', Condition: { 'ForAllValues:StringNotLike': { 'dynamodb:LeadingKeys': ['*#*'] } } }),
      expect.objectContaining({ Effect: 'Deny', Condition: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': ['*#*'] } } }),
    ]);
    // Posts to this stage's connections only; only the fan-out function may also drop one.
    const manage = (prefix: string) => JSON.stringify(statementsOf(prefix).filter((s) => s.Action === 'execute-api:ManageConnections'));
    expect(manage('PushSocketFunction')).toContain(`/${PUSH_STAGE}/POST/@connections/*`);
    expect(manage('PushSocketFunction')).not.toContain('DELETE');
    expect(manage('PushFanOutFunction')).toContain(`/${PUSH_STAGE}/DELETE/@connections/*`);
    expect(manage('PushStreamFunction')).toBe('[]');
    // No managed policy on either role.
    for (const role of Object.values(template.findResources('AWS::IAM::Role'))) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('runs both functions on nodejs24.x, arm64, traced, with their own log groups', () => {
    for (const prefix of ['PushSocketFunction', 'PushStreamFunction', 'PushFanOutFunction']) {
      const fn = template.findResources('AWS::Lambda::Function')[functionId(prefix)];
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler', TracingConfig: { Mode: 'Active' }, LoggingConfig: { LogGroup: expect.anything() } });
    }
  });

  it('passes cdk-nag\'s AwsSolutions pack with no finding left, each acknowledgment with its reason', () => {
    const report = new AwsSolutionsChecks(stack).validateScope(stack);
    expect(report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} ${r.constructPath}`))).toEqual([]);
    const acknowledged = stack.node.findAll().flatMap((c) => c.node.metadata.filter((m) => m.type === 'aws:cdk:acknowledged-rules').flatMap((m) => Object.entries(m.data as Record<string, string>)));
    expect(acknowledged.length).toBe(9);
    for (const [id, reason] of acknowledged) expect(reason.length, id).toBeGreaterThan(40);
  });
});

describe('the push bundles, built with the project\'s bundling settings', () => {
  let dir: string;
  const bundles = {} as Record<keyof typeof PUSH_ENTRIES, { file: string; bytes: number }>;
  let dynamo: Awaited<ReturnType<typeof startLoopbackDynamo>>;
  let gateway: Server;
  let gatewayUrl: string;
  const posts: { path: string; body: string }[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arbiter-push-bundles-'));
    for (const [name, entry] of Object.entries(PUSH_ENTRIES) as [keyof typeof PUSH_ENTRIES, string][]) {
      const file = join(dir, name, BUNDLE.outFile);
      await build(esbuildOptions(entry, file));
      bundles[name] = { file, bytes: statSync(file).size };
    }
    dynamo = await startLoopbackDynamo('push-bundle-games');
    const client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    await client.send(
      new CreateTableCommand({
        TableName: 'push-bundle-connections',
        BillingMode: 'PAY_PER_REQUEST',
        ...CONNECTIONS_KEY_SCHEMA,
      }),
    );
    client.destroy();
    // The management API on loopback: POST /live/@connections/{id} as API Gateway takes it.
    gateway = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        posts.push({ path: `${req.method} ${req.url}`, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', () => resolve()));
    gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/${PUSH_STAGE}`;
  });
  afterAll(async () => {
    await dynamo?.close();
    gateway?.closeAllConnections();
    await new Promise<void>((resolve) => (gateway ? gateway.close(() => resolve()) : resolve()));
  });

  const invoke = async (name: keyof typeof PUSH_ENTRIES, events: unknown[]) => {
    return invokeBundle(bundles[name].file, events, {
      TABLE_NAME: dynamo.tableName,
      CONNECTIONS_TABLE_NAME: 'push-bundle-connections',
      PUSH_CALLBACK_URL: gatewayUrl,
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    });
  };

  it(`are each at most ${BUNDLE.maxBytes / 1024} KB minified`, () => {
    for (const { bytes } of Object.values(bundles)) expect(bytes).toBeLessThanOrEqual(BUNDLE.maxBytes);
  });

  it('subscribe, catch up and push a new commit, run as Lambda runs them, against DynamoDB and the management API on loopback', async () => {
    const client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const service = new GameService({ store: new DynamoEventStore(client, dynamo.tableName), signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()) });
    const game = await service.createGame({ ruleset: 'dice', options: { sides: ['red', 'blue'] } });
    await service.submit(game.gameId, game.tokens.players.red, { commandId: 'a', type: 'Roll', payload: { dice: '2d6', purpose: 'first' } });
    const subscribe = { requestContext: { routeKey: '$default', connectionId: 'conn-1' }, body: JSON.stringify({ action: 'subscribe', gameId: game.gameId, token: game.tokens.players.blue, after: 1 }), isBase64Encoded: false };
    const socket = await invoke('pushSocket', [{ requestContext: { routeKey: '$connect', connectionId: 'conn-1' }, headers: { Origin: 'https://app.invalid' } }, subscribe]);
    expect(socket.results).toEqual([{ statusCode: 200 }, { statusCode: 200 }]);
    expect(posts.map((p) => p.path)).toEqual([`POST /${PUSH_STAGE}/@connections/conn-1`, `POST /${PUSH_STAGE}/@connections/conn-1`]);
    expect(posts.map((p) => JSON.parse(p.body).type)).toEqual(['subscribed', 'commit']);
    expect(socket.logs).not.toContain(game.tokens.players.blue);

    await service.submit(game.gameId, game.tokens.players.red, { commandId: 'b', type: 'Roll', payload: { dice: '2d6', purpose: 'second' } });
    const stream = await invoke('pushStream', [{ Records: [{ eventName: 'INSERT', dynamodb: { Keys: { pk: { S: game.gameId }, sk: { N: '3' } } } }] }]);
    expect(stream.results).toEqual([null]);
    expect(JSON.parse(posts.at(-1)!.body)).toMatchObject({ type: 'commit', gameId: game.gameId, commit: { seq: 3 }, line: expect.stringMatching(/^#3 red Roll "second"/) });
    client.destroy();
  });
});
