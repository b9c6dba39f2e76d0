import { CfnElement, CfnOutput, Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { LogGroupLogDestination, WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, BillingMode, Table, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { DeduplicationScope, FifoThroughputLimit, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { SEED_KEY_SUFFIX } from '../functions/store/dynamoStore';
import { sideFunction } from './sideFunction';
import { settingName } from '../functions/config/settingNames';
import { POLL_POOL_KEY } from '../functions/push/pollPool';

/** The push functions' entry points (built with the project's bundling settings, infra/bundling.ts). */
export const PUSH_ENTRIES = {
  pushSocket: 'functions/lambda/pushSocket.ts',
  pushStream: 'functions/lambda/pushStream.ts',
  pushFanOut: 'functions/lambda/pushFanOut.ts',
} as const;

/** The fan-out function: one full vCPU (Lambda gives CPU in proportion to memory, one vCPU at 1,769 MB) for posting, which is CPU-bound (SigV4, TLS). */
export const FAN_OUT_MEMORY_MB = 1769;
/** Its timeout: a message is at most 50 connections × a stream batch's commits of one game (docs/push.md). */
export const FAN_OUT_TIMEOUT = Duration.seconds(30);
/** Receives of a fan-out message before SQS moves it to the dead-letter queue (its subscribers then catch up over HTTP). */
export const FAN_OUT_MAX_RECEIVES = 3;
/** Fan-out functions at once (the SQS event source's maximum concurrency): 64 slices of one busy game, and room for others. */
export const FAN_OUT_CONCURRENCY = 100;
/** Stream batches of one shard run at once: a game's records stay in order (same partition key), different games overlap. */
export const STREAM_PARALLELIZATION = 4;

/** The stage clients connect to: wss://…/live. */
export const PUSH_STAGE = 'live';

export interface PushProps {
  /** The game table, with its stream enabled as StreamViewType KEYS_ONLY: no item's content ever reaches the stream. */
  table: ITable;
  /** Origins whose pages may open the socket (the web app's, the CORS list); default any: the token in the subscribe message authorizes. */
  allowedOrigins?: string[];
  /** Messages per second across the WebSocket stage, and the burst above it. */
  throttle?: { rateLimit: number; burstLimit: number };
  /** Access logs of the stage (needs the account's API Gateway CloudWatch role, set once per region); default on. */
  accessLogs?: boolean;
  /** Log retention of the push functions and the stage. */
  logRetention?: RetentionDays;
  /** The function that answers long polls (reads) and how many may wait at once: each waits holding a slot in the connections table. */
  longPolls?: { fn: IFunction & { addEnvironment(key: string, value: string): unknown }; slots: number };
}

/**
 * Pushed timelines on AWS (docs/push.md): an API Gateway WebSocket API whose one function
 * answers $connect, $disconnect and each message, a connections table (TTL), and a stream
 * function that sends each new commit of the game table to its game's subscribers. Neither
 * function may read a seed item, sign, or use any key; the stream function reads only
 * commit items. Same protocol code as the local server (functions/push).
 */
export class ArbiterPush extends Construct {
  readonly api: WebSocketApi;
  readonly stage: WebSocketStage;
  readonly connections: Table;
  readonly socketFunction: NodejsFunction;
  readonly streamFunction: NodejsFunction;
  /** Posts each fan-out message to its connections. */
  readonly fanOutFunction: NodejsFunction;
  /** SQS FIFO: one message group per game and slice of its subscribers. */
  readonly fanOutQueue: Queue;
  /** Fan-out messages that failed FAN_OUT_MAX_RECEIVES times (alarmed on by the stack). */
  readonly fanOutDeadLetters: Queue;
  /** wss://… : what clients connect to (the web app's `arbiter-push` meta, and the page's connect-src). */
  readonly url: string;

  constructor(scope: Construct, id: string, props: PushProps) {
    super(scope, id);
    if (!props.table.tableStreamArn) throw new Error('the game table needs a stream (StreamViewType KEYS_ONLY) for push');
    const retention = props.logRetention ?? RetentionDays.ONE_MONTH;

    this.connections = new Table(this, 'Connections', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: 'expiresAt',
      // Who is connected now: nothing to keep when the stack goes.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.socketFunction = this.pushFunction('Socket', PUSH_ENTRIES.pushSocket, retention, Duration.seconds(10));
    this.streamFunction = this.pushFunction('Stream', PUSH_ENTRIES.pushStream, retention, Duration.seconds(30));
    this.fanOutFunction = sideFunction(this, 'FanOut', {
      entry: PUSH_ENTRIES.pushFanOut,
      description: 'Arbiter push fanout function',
      serviceName: 'arbiter-push',
      timeout: FAN_OUT_TIMEOUT,
      memorySize: FAN_OUT_MEMORY_MB,
      retention,
    });
    this.fanOutDeadLetters = new Queue(this, 'FanOutDeadLetters', {
      fifo: true,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.fanOutQueue = new Queue(this, 'FanOutQueue', {
      fifo: true,
      // Ordered per message group (a game's slice) only: groups go out in parallel, at high throughput.
      deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Lambda's advice: six times the function's timeout, so a message is not given again while its batch still runs.
      visibilityTimeout: Duration.seconds(FAN_OUT_TIMEOUT.toSeconds() * 6),
      // A push older than this is worth less than the client's own catch-up over HTTP.
      retentionPeriod: Duration.hours(1),
      deadLetterQueue: { queue: this.fanOutDeadLetters, maxReceiveCount: FAN_OUT_MAX_RECEIVES },
    });

    const integration = (name: string) => new WebSocketLambdaIntegration(name, this.socketFunction);
    this.api = new WebSocketApi(this, 'Api', {
      apiName: `${Stack.of(this).stackName}-push`,
      description: 'Arbiter: new commits pushed to web timelines (docs/push.md)',
      connectRouteOptions: { integration: integration('ConnectIntegration') },
      disconnectRouteOptions: { integration: integration('DisconnectIntegration') },
      defaultRouteOptions: { integration: integration('MessageIntegration') },
    });
    const throttle = props.throttle ?? { rateLimit: 100, burstLimit: 200 };
    const accessLogs = props.accessLogs ?? true;
    this.stage = new WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: PUSH_STAGE,
      autoDeploy: true,
      throttle,
      ...(accessLogs
        ? {
            accessLogSettings: {
              destination: new LogGroupLogDestination(new LogGroup(this, 'AccessLogs', { retention, removalPolicy: RemovalPolicy.RETAIN })),
              // No message body is ever logged: it holds the token.
              format: AccessLogFormat.custom(
                JSON.stringify({
                  requestId: '$context.requestId',
                  connectionId: '$context.connectionId',
                  eventType: '$context.eventType',
                  routeKey: '$context.routeKey',
                  status: '$context.status',
                  requestTime: '$context.requestTimeEpoch',
                  ip: '$context.identity.sourceIp',
                  error: '$context.error.messageString',
                  integrationError: '$context.integration.error',
                }),
              ),
            },
          }
        : {}),
    });
    this.url = this.stage.url;
    const callbackUrl = this.stage.callbackUrl;

    const common = { [settingName('connectionsTableName')]: this.connections.tableName, [settingName('pushCallbackUrl')]: callbackUrl, [settingName('tableName')]: props.table.tableName };
    for (const [name, value] of Object.entries(common)) {
      for (const fn of [this.socketFunction, this.streamFunction, this.fanOutFunction]) fn.addEnvironment(name, value);
    }
    this.streamFunction.addEnvironment(settingName('fanOutQueueUrl'), this.fanOutQueue.queueUrl);
    this.fanOutQueue.grantSendMessages(this.streamFunction);
    this.socketFunction.addEnvironment(settingName('corsOrigins'), (props.allowedOrigins?.length ? props.allowedOrigins : ['*']).join(','));

    // The socket function authorizes as the reads function does: the game's items, never a seed.
    this.socketFunction.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:Query'], resources: [props.table.tableArn] }));
    this.socketFunction.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan'],
        resources: [props.table.tableArn],
        conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [`*${SEED_KEY_SUFFIX}`] } },
      }),
    );
    this.socketFunction.addToRolePolicy(
      new PolicyStatement({ actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:Query'], resources: [this.connections.tableArn] }),
    );
    this.socketFunction.addToRolePolicy(new PolicyStatement({ actions: ['execute-api:ManageConnections'], resources: [this.connectionsArn('POST')] }));

    // The stream function reads subscriptions and queues fan-out messages: no item of the game table, no connection to post to.
    this.streamFunction.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan'],
        resources: [props.table.tableArn],
      }),
    );
    this.streamFunction.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [this.connections.tableArn] }));
    this.streamFunction.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.LATEST,
        batchSize: 100,
        // Records of one game (one partition key) are still given in order, one batch at a time; other games' batches overlap.
        parallelizationFactor: STREAM_PARALLELIZATION,
        // No record is ever dropped: a failed batch is halved and given again until it passes (retries and record age unlimited);
        // the PushStreamIteratorAge alarm says when the stream falls behind.
        bisectBatchOnError: true,
        filters: [FilterCriteria.filter({ eventName: FilterRule.or('INSERT', 'MODIFY') })],
      }),
    );

    // The fan-out function reads commit items only (partition keys that are game ids, with no '#'), forgets gone connections, posts.
    this.fanOutFunction.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringNotLike': { 'dynamodb:LeadingKeys': ['*#*'] } },
      }),
    );
    this.fanOutFunction.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan'],
        resources: [props.table.tableArn],
        conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': ['*#*'] } },
      }),
    );
    this.fanOutFunction.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query', 'dynamodb:DeleteItem'], resources: [this.connections.tableArn] }));
    this.fanOutFunction.addToRolePolicy(
      new PolicyStatement({ actions: ['execute-api:ManageConnections'], resources: [this.connectionsArn('POST'), this.connectionsArn('DELETE')] }),
    );
    this.fanOutFunction.addEventSource(
      new SqsEventSource(this.fanOutQueue, {
        batchSize: 10,
        reportBatchItemFailures: true,
        maxConcurrency: FAN_OUT_CONCURRENCY,
      }),
    );

    // Long polls wait in a pool of their own: the reads function leases a slot in the connections table, partition `longpoll` only.
    if (props.longPolls) {
      const { fn, slots } = props.longPolls;
      if (!Number.isInteger(slots) || slots < 1) throw new Error(`longPolls.slots must be a whole number of at least 1: got ${slots}`);
      fn.addEnvironment(settingName('connectionsTableName'), this.connections.tableName);
      fn.addEnvironment(settingName('longPollSlots'), String(slots));
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['dynamodb:Query', 'dynamodb:UpdateItem'],
          resources: [this.connections.tableArn],
          conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [POLL_POOL_KEY] } },
        }),
      );
    }

    // cdk-nag (AwsSolutions): what this construct cannot do otherwise, each with its reason.
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: 'Each subscription is authorized by a token of its game, sent in the subscribe message (docs/push.md): a token in the connect URL would land in access logs.',
    });
    for (const fn of [this.socketFunction, this.streamFunction, this.fanOutFunction]) {
      Validations.of(fn.role!.node.findChild('DefaultPolicy')).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'X-Ray tracing (xray:PutTraceSegments, xray:PutTelemetryRecords) and, for the stream function, dynamodb:ListStreams: these actions take no resource. Every other statement names its resource (the stream function\'s Deny of the game table\'s reads is a Deny).',
      });
    }
    for (const [fn, methods] of [[this.socketFunction, ['POST']], [this.fanOutFunction, ['POST', 'DELETE']]] as const) {
      for (const method of methods) {
        Validations.of(fn.role!.node.findChild('DefaultPolicy')).acknowledge({
          id: this.connectionsFinding(method),
          reason: 'API Gateway names a connection when it opens: the grant covers this stage\'s connections (@connections/*) and no other API or stage.',
        });
      }
    }
    Validations.of(this.connections).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason: 'Who is connected now, kept at most a few hours (TTL): nothing a point-in-time restore could give back.',
    });

    // Named PushUrl in the stack's outputs (as docs/push.md and docs/deploy.md say), not by its path in the construct tree.
    new CfnOutput(this, 'PushUrl', { value: this.url, description: 'The push WebSocket (docs/push.md): the web app connects here, falling back to long-poll' }).overrideLogicalId('PushUrl');
  }

  /** arn:…:execute-api:<region>:<account>:<api>/<stage>/<METHOD>/@connections/* */
  private connectionsArn(method: 'POST' | 'DELETE'): string {
    return Stack.of(this).formatArn({ service: 'execute-api', resource: this.api.apiId, resourceName: `${PUSH_STAGE}/${method}/@connections/*` });
  }

  /** cdk-nag's id of the wildcard finding on connectionsArn(method), as it renders that ARN. */
  private connectionsFinding(method: 'POST' | 'DELETE'): string {
    const stack = Stack.of(this);
    const literal = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
    const api = stack.getLogicalId(this.api.node.defaultChild as CfnElement);
    return `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:execute-api:${literal(stack.region, 'AWS::Region')}:${literal(stack.account, 'AWS::AccountId')}:<${api}>/${PUSH_STAGE}/${method}/@connections/*]`;
  }

  private pushFunction(name: string, entry: string, retention: RetentionDays, timeout: Duration): NodejsFunction {
    return sideFunction(this, name, { entry, description: `Arbiter push ${name.toLowerCase()} function`, serviceName: 'arbiter-push', timeout, retention });
  }
}

/** Adds push to a stack: `addPush(this, { table })`, the table's stream being KEYS_ONLY. */
export function addPush(scope: Construct, props: PushProps): ArbiterPush {
  return new ArbiterPush(scope, 'Push', props);
}
