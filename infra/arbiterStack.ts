import { Aspects, CfnCondition, CfnOutput, CfnParameter, Duration, Fn, RemovalPolicy, Stack, Validations, type IAspect, type StackProps } from 'aws-cdk-lib';
import { CorsHttpMethod, HttpApi, HttpMethod, type CfnStage, type HttpRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData, type IAlarmAction, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { AttributeType, BillingMode, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Architecture, Function as LambdaFunction, Runtime, Tracing, type CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { addSigning } from './signing';
import { addSeedTable } from './seedTable';
import { watchKeyUse } from './keyUseWatch';
import { addPush, PUSH_STAGE } from './push';
import { addExportStorage } from './exportStorage';
import { addExportJob } from './exportJob';
import { GameExpiry } from './gameExpiry';
import { addEdge } from './edge';
import { BeaconReveals, DRAND_PUBLIC_RELAYS } from './beaconReveals';
import { Notifications } from './notifications';
import { addOperations, type OperationsProps } from './operations';
import { CfnSubscription, Topic } from 'aws-cdk-lib/aws-sns';
import { Construct, type IConstruct } from 'constructs';
import { join } from 'node:path';
import { METRICS } from '../functions/http/observe';
import { isPublic, OPERATIONS } from '../functions/http/operations';
import type { Dependency } from '../functions/lambda/powertools';
import { functionBundling, LAMBDA_ENTRIES, type LambdaName } from './bundling';
import { settingName } from '../functions/config/settingNames';

const ROOT = join(import.meta.dirname, '..');

/** The long-poll `wait` is at most 20 s (http-api.md); the gateway gives up at 30 s. */
export const READ_TIMEOUT = Duration.seconds(25);

/** What each function may do on the table: no `*` action anywhere. */
const TABLE_ACTIONS: Record<LambdaName, string[]> = {
  commands: ['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:Query'],
  reads: ['dynamodb:GetItem', 'dynamodb:Query'],
  catalogue: [],
  verifier: [],
  web: [],
  docs: [],
};

/** What a function's bundle embeds is written first, by these scripts. */
const BEFORE_BUNDLING: Record<LambdaName, string[]> = {
  commands: [],
  reads: [],
  catalogue: [],
  verifier: ['infra/verifierFiles.ts'],
  web: ['infra/webFiles.ts'],
  docs: ['infra/apiDocsFiles.ts'],
};

/** The defaults of the stack props below; docs/deploy.md explains each. */
export const DEFAULTS = {
  throttle: { rateLimit: 200, burstLimit: 400 },
  /** Concurrent executions reserved for `commands`: players are never starved by watchers. */
  commandsConcurrency: 50,
  /** At most this many `reads` at once: long polls cannot take the account's whole pool. */
  readsConcurrency: 100,
  /** The account's concurrency quota in the region (AWS's default; new accounts may have less). */
  accountConcurrency: 1000,
  logRetention: RetentionDays.ONE_MONTH,
  /** API 5xx answers in 5 minutes that raise the alarm. */
  api5xxPer5Minutes: 5,
  /** Days without a command after which an unsealed game of no tournament is deleted. */
  abandonedGameDays: 90,
  /** Games and tournaments one address may create in an hour without a tournament's token. */
  creationQuotaPerHour: 60,
  /** The longest a long poll holds a `reads` function: pushed timelines are the way to wait (docs/push.md). */
  longPollMaxSeconds: 10,
  /** Of the `reads` concurrency, the share long polls may hold at once; the rest always answers reads that do not wait (docs/push.md#a-crowd-on-aws). */
  longPollShare: 0.6,
  /** Creations per second across the API (POST /games, POST /tournaments), and the burst above it. */
  creationThrottle: { rateLimit: 10, burstLimit: 20 },
  /** Where the reveal function fetches drand rounds (ARBITER_DRAND_RELAYS): drand's public relays. */
  drandRelays: DRAND_PUBLIC_RELAYS,
} as const;

/** Lambda keeps at least this many concurrent executions unreserved in every account. */
export const MIN_UNRESERVED_CONCURRENCY = 100;

export interface ArbiterStackProps extends StackProps, OperationsProps {
  /** Origins whose web pages may call the API (CORS); default `*`: tokens are bearer headers, never cookies. */
  corsOrigins?: string[];
  /** Requests per second across the API, and the burst above it. */
  throttle?: { rateLimit: number; burstLimit: number };
  /** Default of the `AlarmEmail` parameter: an address subscribed to the stack's alarm topic (it must confirm). */
  alarmEmail?: string;
  /** An existing SNS topic that gets every alarm too (`-c alarmTopicArn=…`); it must let CloudWatch publish to it. */
  alarmTopicArn?: string;
  /** Reserved concurrency of `commands` (DEFAULTS.commandsConcurrency); `null` reserves none. */
  commandsConcurrency?: number | null;
  /** Reserved concurrency, and so the cap, of `reads` (DEFAULTS.readsConcurrency); `null` for no cap. */
  readsConcurrency?: number | null;
  /** The account's concurrency quota in the region, for the check below and the unreserved-concurrency alarm. */
  accountConcurrency?: number;
  /** How long the functions' logs and the API access logs are kept. */
  logRetention?: RetentionDays;
  /** API 5xx answers in 5 minutes that raise the alarm. */
  api5xxPer5Minutes?: number;
  /** How many KMS signing keys the stack holds (default 1): one more before each rotation (docs/deploy.md). */
  signingKeys?: number;
  /** How many signing keys, from the first, rotations have retired (default 0): the commands function may no longer sign with them (docs/deploy.md). */
  retiredSigningKeys?: number;
  /** Days without a command after which an unsealed game of no tournament is deleted (DEFAULTS.abandonedGameDays); 0 = never. */
  abandonedGameDays?: number;
  /** Creations per address per hour without a tournament's token (DEFAULTS.creationQuotaPerHour); 0 = no quota. */
  creationQuotaPerHour?: number;
  /** Base URLs of drand relays for beacon games (DEFAULTS.drandRelays); empty: no reveal function, and beacon games are refused. */
  drandRelays?: readonly string[];
  /** The From address of notification mail, an identity verified in SES; unset: e-mail subscriptions are refused (docs/deploy.md#notifications). */
  notificationMailFrom?: string;
  /** The CloudFront web ACL of the ArbiterEdge stack (infra/edgeApp.ts): CloudFront with rate limits per client in front of both APIs (docs/deploy.md#limits-per-client). */
  edgeWebAclArn?: string;
}

export class ArbiterStack extends Stack {
  /** The commits table: the constructs added later (signing, exports, push) take it from here. */
  readonly table: Table;
  /** Notifications of new commits: their queue, dead-letter queue and delivery function. */
  readonly notifications: Notifications;
  /** The function that reveals beacon rolls; absent when the stack has no relays (drandRelays empty). */
  readonly revealFunction?: NodejsFunction;
  /** Every function, by name; each gets its alarms (see monitorFunction), those added later too. */
  readonly functions: Record<LambdaName, NodejsFunction>;
  readonly api: HttpApi;
  /** Where every alarm goes: the stack's topic, and the `alarmTopicArn` prop's topic when it is set. */
  readonly alarmTopic: Topic;
  private readonly alarmActions: IAlarmAction[];
  private readonly alarmScope: Construct;
  private readonly monitored = new WeakSet<LambdaFunction>();

  constructor(scope: Construct, id: string, props: ArbiterStackProps = {}) {
    super(scope, id, props);

    const logRetention = props.logRetention ?? DEFAULTS.logRetention;
    const reserved: Partial<Record<LambdaName, number>> = {};
    const commandsConcurrency = props.commandsConcurrency === undefined ? DEFAULTS.commandsConcurrency : props.commandsConcurrency;
    const readsConcurrency = props.readsConcurrency === undefined ? DEFAULTS.readsConcurrency : props.readsConcurrency;
    if (commandsConcurrency !== null) reserved.commands = commandsConcurrency;
    if (readsConcurrency !== null) reserved.reads = readsConcurrency;
    const accountConcurrency = props.accountConcurrency ?? DEFAULTS.accountConcurrency;
    const reservedTotal = Object.values(reserved).reduce((sum, n) => sum + n, 0);
    for (const [name, n] of Object.entries(reserved)) {
      if (!Number.isInteger(n) || n < 1) throw new Error(`${name}Concurrency must be a whole number of at least 1 (or none): got ${n}`);
    }
    if (accountConcurrency - reservedTotal < MIN_UNRESERVED_CONCURRENCY) {
      throw new Error(
        `Reserving ${reservedTotal} concurrent executions leaves ${accountConcurrency - reservedTotal} of the account's ${accountConcurrency}: Lambda keeps at least ${MIN_UNRESERVED_CONCURRENCY} unreserved. Lower commandsConcurrency/readsConcurrency, or set accountConcurrency to the account's quota (docs/deploy.md).`,
      );
    }

    const table = new Table(this, 'Commits', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.NUMBER },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      // Keys only: the push function reads each new commit itself, so no item's content (a seed, a token hash) enters the stream.
      stream: StreamViewType.KEYS_ONLY,
      // Idempotency records, creation counts and the leases of expiring games end by themselves.
      timeToLiveAttribute: 'expiresAt',
    });
    this.table = table;

    // ---- alarms go to the stack's topic (the AlarmEmail parameter subscribes to it), and to the alarmTopicArn prop's topic ----
    const alarmEmail = new CfnParameter(this, 'AlarmEmail', {
      type: 'String',
      default: props.alarmEmail ?? '',
      allowedPattern: '^$|^[^@\\s]+@[^@\\s]+$',
      description: 'An email address to subscribe to the alarm topic (it receives a confirmation link); empty for none',
    });
    const hasEmail = new CfnCondition(this, 'HasAlarmEmail', { expression: Fn.conditionNot(Fn.conditionEquals(alarmEmail.valueAsString, '')) });

    // CloudWatch publishes to an encrypted topic only with a customer key that lets it use the key.
    const alarmKey = new Key(this, 'AlarmTopicKey', {
      description: 'Arbiter: encrypts the alarm notifications at rest',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    alarmKey.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
      }),
    );
    this.alarmTopic = new Topic(this, 'AlarmTopic', { displayName: 'Arbiter alarms', masterKey: alarmKey, enforceSSL: true });
    // A topic policy replaces SNS's default one: CloudWatch may publish, for this account's alarms only.
    this.alarmTopic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.alarmTopic.topicArn],
        conditions: {
          ArnLike: { 'aws:SourceArn': `arn:${this.partition}:cloudwatch:${this.region}:${this.account}:alarm:*` },
          StringEquals: { 'aws:SourceAccount': this.account },
        },
      }),
    );
    new CfnSubscription(this, 'AlarmEmailSubscription', { topicArn: this.alarmTopic.topicArn, protocol: 'email', endpoint: alarmEmail.valueAsString }).cfnOptions.condition = hasEmail;
    if (props.alarmTopicArn && !/^arn:aws[a-z-]*:sns:[a-z0-9-]+:[0-9]{12}:[A-Za-z0-9_-]{1,256}$/.test(props.alarmTopicArn)) {
      throw new Error(`alarmTopicArn is not an SNS topic ARN: ${JSON.stringify(props.alarmTopicArn)}`);
    }
    const topics = [this.alarmTopic.topicArn, ...(props.alarmTopicArn ? [props.alarmTopicArn] : [])];
    this.alarmActions = topics.map((arn) => ({ bind: () => ({ alarmActionArn: arn }) }));
    this.alarmScope = new Construct(this, 'Alarms');

    const functions = {} as Record<LambdaName, NodejsFunction>;
    for (const name of Object.keys(LAMBDA_ENTRIES) as LambdaName[]) {
      const id = `${name[0].toUpperCase()}${name.slice(1)}Function`;
      const logGroup = new LogGroup(this, `${name}Logs`, { retention: logRetention, removalPolicy: RemovalPolicy.RETAIN });
      // A role of its own with exactly what the function does: no managed policy (cdk-nag IAM4).
      const role = new Role(this, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description: `Arbiter: the ${name} function` });
      logGroup.grantWrite(role);
      const fn = new NodejsFunction(this, id, {
        entry: join(ROOT, LAMBDA_ENTRIES[name]),
        handler: 'handler',
        projectRoot: ROOT,
        depsLockFilePath: join(ROOT, 'package-lock.json'),
        runtime: Runtime.NODEJS_24_X,
        architecture: Architecture.ARM_64,
        memorySize: 512,
        timeout: name === 'reads' ? READ_TIMEOUT : Duration.seconds(10),
        role,
        logGroup,
        // X-Ray traces of each invocation (its start-up included); the HTTP API itself is not traced by X-Ray.
        tracing: Tracing.ACTIVE,
        ...(reserved[name] !== undefined ? { reservedConcurrentExecutions: reserved[name] } : {}),
        environment: {
          ...(TABLE_ACTIONS[name].length ? { [settingName('tableName')]: table.tableName } : {}),
          POWERTOOLS_SERVICE_NAME: METRICS.service,
          POWERTOOLS_METRICS_NAMESPACE: METRICS.namespace,
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          NODE_OPTIONS: '--enable-source-maps',
        },
        bundling: functionBundling(LAMBDA_ENTRIES[name], BEFORE_BUNDLING[name]),
      });
      if (TABLE_ACTIONS[name].length) {
        fn.addToRolePolicy(new PolicyStatement({ actions: TABLE_ACTIONS[name], resources: [table.tableArn] }));
      }
      Validations.of(role.node.findChild('DefaultPolicy').node.defaultChild!).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'Only X-Ray tracing (xray:PutTraceSegments, xray:PutTelemetryRecords): these actions have no resource to name. Every other statement names its resource.',
      });
      functions[name] = fn;
    }
    this.functions = functions;

    // ---- beacon games: the commands function accepts their rolls, a reveal function beside it reveals them (docs/deploy.md#beacon-games) ----
    const drandRelays = props.drandRelays ?? DEFAULTS.drandRelays;
    const beacons = drandRelays.length > 0 ? new BeaconReveals(this, 'BeaconReveals', { table, commands: functions.commands, relays: drandRelays, logRetention }) : undefined;
    this.revealFunction = beacons?.revealFunction;

    // ---- keys that never leave KMS: only the commands side (commands, and the reveal function) signs and opens seeds; reads publishes the public keys ----
    const { seedKey, signingKeys, tokenKey, keyUsers } = addSigning(this, {
      table,
      signer: functions.commands,
      revealers: beacons ? [beacons.revealFunction] : [],
      publishers: [functions.reads],
      generations: props.signingKeys,
      retired: props.retiredSigningKeys,
    });
    if (beacons) {
      this.addAlarm('BeaconRevealLate', {
        metric: new Metric({ namespace: METRICS.namespace, metricName: METRICS.beaconRevealLate, dimensionsMap: { service: METRICS.service }, statistic: 'Sum', period: Duration.minutes(5) }),
        threshold: 1,
        description: 'A beacon roll was still not revealed long after its drand round (5 periods and at least 15 s): every relay failing, or the reveal function. docs/deploy.md#beaconreveallate',
      });
    }

    // ---- timelines pushed over a WebSocket API (docs/push.md); long-poll stays the fallback ----
    const longPollSlots = Math.max(1, Math.floor((readsConcurrency ?? DEFAULTS.readsConcurrency) * DEFAULTS.longPollShare));
    const push = addPush(this, { table, allowedOrigins: props.corsOrigins?.length ? props.corsOrigins : undefined, logRetention, longPolls: { fn: functions.reads, slots: longPollSlots } });
    functions.web.addEnvironment(settingName('pushUrl'), push.url);

    // ---- abandoned games deleted, creations counted (docs/deploy.md#abandoned-games-and-the-creation-quota) ----
    const abandonedGameDays = props.abandonedGameDays ?? DEFAULTS.abandonedGameDays;
    const creationQuotaPerHour = props.creationQuotaPerHour ?? DEFAULTS.creationQuotaPerHour;
    for (const [name, n] of Object.entries({ abandonedGameDays, creationQuotaPerHour })) {
      if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number (0 for none): got ${n}`);
    }
    const expiry = new GameExpiry(this, 'GameExpiry', { table, commands: functions.commands, readers: [functions.reads], abandonedGameDays, creationQuotaPerHour, logRetention, addAlarm: (id, options) => this.addAlarm(id, options) });
    functions.reads.addEnvironment(settingName('longPollMaxSeconds'), String(DEFAULTS.longPollMaxSeconds));

    // ---- exports too large for one response: stored once per version in S3, answered with a time-limited link (docs/exports.md) ----
    // Tournament exports are made by a function of their own, started by commands (docs/deploy.md#tournament-exports).
    const exportJob = addExportJob(this, { table, starter: functions.commands, signingKeys, retired: props.retiredSigningKeys, logRetention });
    // The key policy names it for kms:Sign too (infra/signing.ts): it signs tournament heads.
    keyUsers.permit('signing', 'kms:Sign', exportJob.role!);
    const exportStorage = addExportStorage(this, { writers: [functions.reads, functions.commands], jobs: [exportJob], allowedOrigins: props.corsOrigins?.length ? props.corsOrigins : undefined });
    functions.web.addEnvironment(settingName('exportOrigin'), exportStorage.origin);
    this.addAlarm('PushStreamIteratorAge', {
      metric: push.streamFunction.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 60_000,
      description: 'New commits reach WebSocket subscribers more than a minute late (the stream function is behind or failing); clients still catch up over HTTP. docs/deploy.md#pushstreamiteratorage',
    });

    this.addAlarm('PushFanOutDeadLetters', {
      metric: push.fanOutDeadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 1,
      description: 'Fan-out messages failed 3 times and wait in the dead-letter queue: their subscribers missed pushes and catch up over HTTP. docs/deploy.md#pushfanoutdeadletters',
    });

    // ---- the API, with JSON access logs ----
    const api = new HttpApi(this, 'Api', {
      description: 'Arbiter: verifiable combat resolution',
      corsPreflight: {
        allowOrigins: props.corsOrigins?.length ? props.corsOrigins : ['*'],
        allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.DELETE, CorsHttpMethod.OPTIONS],
        allowHeaders: ['authorization', 'content-type', 'accept', 'if-none-match', 'idempotency-key'],
        exposeHeaders: ['etag', 'retry-after'],
        maxAge: Duration.hours(1),
      },
    });
    this.api = api;
    // ---- CloudFront and AWS WAF's limits per client in front of both APIs, when the edge's web ACL is given (docs/deploy.md#limits-per-client) ----
    const edge = props.edgeWebAclArn ? addEdge(this, { httpApi: api, pushApi: push.api, pushStage: PUSH_STAGE, webAclArn: props.edgeWebAclArn, web: functions.web }) : undefined;
    // ---- notifications of new commits: the push stream function enqueues, a delivery function delivers (docs/deploy.md#notifications) ----
    this.notifications = new Notifications(this, 'Notifications', {
      table,
      enqueuer: push.streamFunction,
      subscriber: functions.commands,
      seedKey,
      publicUrl: edge?.url ?? api.apiEndpoint,
      mailFrom: props.notificationMailFrom,
      logRetention,
    });
    this.addAlarm('NotificationDeadLetters', {
      metric: this.notifications.deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 1,
      description: 'Notifications of some game failed 5 times and wait in the dead-letter queue: a subscriber\'s endpoint, SES or the engine. docs/deploy.md#notificationdeadletters',
    });
    // ---- keys only Arbiter can use, seeds in a table of their own (docs/deploy.md#keys-and-who-can-use-them) ----
    keyUsers.permit('seed', 'kms:Decrypt', this.notifications.deliveryFunction.role!);
    addSeedTable(this, { commands: functions.commands, readers: beacons ? [beacons.revealFunction] : [], sweeper: expiry.sweepFunction });
    const keyUse = watchKeyUse(this, { keys: [...signingKeys, seedKey, tokenKey], users: keyUsers, topic: this.alarmTopic });
    this.addAlarm('KeyUseByOthers', {
      metric: keyUse.matched,
      threshold: 1,
      description: "Someone other than Arbiter's functions and its rotation role used, or tried to use, a signing, seed or token key (CloudTrail). docs/deploy.md#keyusebyothers",
    });
    const throttle = props.throttle ?? DEFAULTS.throttle;
    const stage = api.defaultStage!.node.defaultChild as CfnStage;
    stage.defaultRouteSettings = { throttlingRateLimit: throttle.rateLimit, throttlingBurstLimit: throttle.burstLimit };
    // Creating needs no token: the whole API creates at most this fast, whatever the quota per address allows.
    const creations = { ThrottlingRateLimit: DEFAULTS.creationThrottle.rateLimit, ThrottlingBurstLimit: DEFAULTS.creationThrottle.burstLimit };
    stage.routeSettings = { 'POST /games': creations, 'POST /tournaments': creations };
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: logRetention, removalPolicy: RemovalPolicy.RETAIN });
    stage.accessLogSettings = { destinationArn: accessLogs.logGroupArn, format: JSON.stringify(ACCESS_LOG_FORMAT) };

    const integrations = {} as Record<LambdaName, HttpLambdaIntegration>;
    for (const name of Object.keys(functions) as LambdaName[]) {
      integrations[name] = new HttpLambdaIntegration(`${name}Integration`, functions[name], {
        timeout: name === 'reads' ? Duration.seconds(29) : Duration.seconds(15),
      });
    }
    // API Gateway authorizes none of the routes (cdk-nag APIG4): the public ones by design, the others in the function.
    for (const operation of OPERATIONS) {
      const added: HttpRoute[] = api.addRoutes({ path: operation.path, methods: [HttpMethod[operation.method]], integration: integrations[operation.group] });
      for (const r of added) {
        Validations.of(r.node.defaultChild!).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: isPublic(operation.role)
            ? 'Public by design (http-api.md): anyone may read the catalogue, the keys and the pages, and create a game (bounded by the stage throttle).'
            : "Authorized by the function: it checks the request's bearer token against the game's token hashes in the table, which an API Gateway authorizer would have to read too.",
        });
      }
    }

    // ---- alarms: the API, the table, the dependencies, and every function of the stack ----
    this.addAlarm('Api5xx', {
      metric: api.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: props.api5xxPer5Minutes ?? DEFAULTS.api5xxPer5Minutes,
      description: 'The API answered 5xx (500 faults, 503 unavailable, 504 integration timeouts). docs/deploy.md#api5xx',
    });
    this.addAlarm('TableThrottles', {
      metric: new MathExpression({
        expression: 'reads + writes',
        usingMetrics: { reads: table.metric('ReadThrottleEvents', { statistic: 'Sum' }), writes: table.metric('WriteThrottleEvents', { statistic: 'Sum' }) },
        period: Duration.minutes(5),
        label: 'Throttled read and write events',
      }),
      threshold: 1,
      description: 'DynamoDB throttled reads or writes of the commits table. docs/deploy.md#tablethrottles',
    });
    this.addDependencyAlarm('KMS', 'Calls to KMS failed (Sign, GetPublicKey, Encrypt, Decrypt, GenerateMac): access denied, a disabled key, throttling, timeouts. docs/deploy.md#kmserrors');
    this.addDependencyAlarm('DynamoDB', 'Calls to DynamoDB failed other than by a lost conditional write: access denied, throttling, timeouts. docs/deploy.md#dynamodberrors');
    const unreservedPool = accountConcurrency - reservedTotal;
    this.addAlarm('UnreservedConcurrency', {
      metric: new Metric({ namespace: 'AWS/Lambda', metricName: 'UnreservedConcurrentExecutions', statistic: 'Maximum', period: Duration.minutes(1) }),
      threshold: Math.floor(unreservedPool * 0.8),
      evaluationPeriods: 3,
      description: `The account's unreserved concurrency (shared by every function without a reservation, in this region, in any stack) was at 80% of ${unreservedPool} for 3 minutes. docs/deploy.md#unreservedconcurrency`,
    });
    // ---- tracing, the operations alarms, the dashboard and backups (infra/operations.ts) ----
    addOperations(this, props);
    // Every function of the stack, those others add later included, gets its alarms.
    Aspects.of(this).add(new MonitorFunctions(this));

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint, description: 'Point clients here' });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    // The key is derived from a secret generated at deploy time: its fingerprint is known only then.
    new CfnOutput(this, 'KeysUrl', { value: `${api.apiEndpoint}/keys`, description: 'GET it for the signing key fingerprint to publish and pin (docs/fairness.md §9)' });
    new CfnOutput(this, 'WebUrl', { value: `${api.apiEndpoint}/`, description: 'The web app: create games, follow timelines, verify exports' });
    new CfnOutput(this, 'DocsUrl', { value: `${api.apiEndpoint}/docs`, description: 'The API reference, rendered from /openapi.json' });
    new CfnOutput(this, 'VerifierUrl', { value: `${api.apiEndpoint}/verifier.mjs`, description: 'The standalone verifier: node verifier.mjs game.json --trust ed25519:…' });
    new CfnOutput(this, 'AlarmNotifications', { value: this.alarmTopic.topicArn, description: 'Every alarm notifies this topic: subscribe to it (docs/deploy.md)' });
  }

  /** An alarm, at or above `threshold`, that notifies the alarm topics when it fires and when it clears. */
  addAlarm(id: string, options: { metric: IMetric; threshold: number; description: string; evaluationPeriods?: number }): Alarm {
    const alarm = new Alarm(this.alarmScope, id, {
      metric: options.metric,
      threshold: options.threshold,
      evaluationPeriods: options.evaluationPeriods ?? 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: options.description,
    });
    alarm.addAlarmAction(...this.alarmActions);
    alarm.addOkAction(...this.alarmActions);
    return alarm;
  }

  /** Failed calls to an AWS service, as the functions count them (DependencyErrors, functions/lambda/awsClients.ts). */
  addDependencyAlarm(dependency: Dependency, description: string): Alarm {
    return this.addAlarm(`${dependency}Errors`, {
      metric: new Metric({
        namespace: METRICS.namespace,
        metricName: METRICS.dependencyErrors,
        dimensionsMap: { service: METRICS.service, dependency },
        statistic: 'Sum',
        period: Duration.minutes(5),
      }),
      threshold: 1,
      description,
    });
  }

  /**
   * A function's alarms: errors (an invocation that threw or timed out), throttles, and, when
   * it has reserved concurrency, 80% of it in use for 3 minutes. Called for every function of
   * the stack by an aspect at synthesis; calling it again does nothing.
   */
  monitorFunction(fn: LambdaFunction): void {
    if (this.monitored.has(fn)) return;
    this.monitored.add(fn);
    const path = fn.node.path.slice(this.node.path.length + 1);
    const id = path.replace(/[^A-Za-z0-9]/g, '');
    const fiveMinutes = { period: Duration.minutes(5), statistic: 'Sum' };
    this.addAlarm(`${id}Errors`, {
      metric: fn.metricErrors(fiveMinutes),
      threshold: 1,
      description: `${path}: invocations failed (an unhandled error, a timeout, out of memory). docs/deploy.md#function-errors`,
    });
    this.addAlarm(`${id}Throttles`, {
      metric: fn.metricThrottles(fiveMinutes),
      threshold: 1,
      description: `${path}: invocations were throttled (its reserved concurrency, or the account's, was used up). docs/deploy.md#function-throttles`,
    });
    const reservedConcurrency = (fn.node.defaultChild as CfnFunction).reservedConcurrentExecutions;
    if (typeof reservedConcurrency === 'number' && reservedConcurrency > 0) {
      this.addAlarm(`${id}Concurrency`, {
        metric: fn.metric('ConcurrentExecutions', { statistic: 'Maximum', period: Duration.minutes(1) }),
        threshold: Math.max(1, Math.floor(reservedConcurrency * 0.8)),
        evaluationPeriods: 3,
        description: `${path}: 80% of its ${reservedConcurrency} reserved concurrent executions in use for 3 minutes. docs/deploy.md#function-concurrency`,
      });
    }
  }
}

/** Gives every Lambda function of the stack its alarms, wherever in the stack it was added. */
class MonitorFunctions implements IAspect {
  constructor(private readonly stack: ArbiterStack) {}
  visit(node: IConstruct): void {
    if (node instanceof LambdaFunction && Stack.of(node) === this.stack) this.stack.monitorFunction(node);
  }
}

/**
 * One JSON line per request. No header (Authorization included) and no query string is
 * logged; `path` is the path alone, and tokens never travel in a path.
 */
export const ACCESS_LOG_FORMAT = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  method: '$context.httpMethod',
  routeKey: '$context.routeKey',
  path: '$context.path',
  protocol: '$context.protocol',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
  userAgent: '$context.identity.userAgent',
} as const;
