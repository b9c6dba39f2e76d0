import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { CorsHttpMethod, HttpApi, HttpMethod, type CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, BillingMode, Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { join } from 'node:path';
import { ROUTES } from '../functions/http/routes';
import { ROUTE_GROUPS } from '../functions/lambda/routeGroups';
import { BUNDLE, LAMBDA_ENTRIES, type LambdaName } from './bundling';

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
/** Who reads the signing secret: the signers, and the reads that publish its public key. */
const READS_SIGNING_SECRET: Record<LambdaName, boolean> = { commands: true, reads: true, catalogue: false, verifier: false, web: false, docs: false };
/** Who may open server seeds: only the function that creates games, rolls and seals. */
const READS_SEED_KEY: Record<LambdaName, boolean> = { commands: true, reads: false, catalogue: false, verifier: false, web: false, docs: false };

/** What a function's bundle embeds is written first, by these scripts. */
const BEFORE_BUNDLING: Record<LambdaName, string[]> = {
  commands: [],
  reads: [],
  catalogue: [],
  verifier: ['infra/verifierFiles.ts'],
  web: ['infra/webFiles.ts'],
  docs: ['infra/apiDocsFiles.ts'],
};

export interface ArbiterStackProps extends StackProps {
  /** Origins whose web pages may call the API (CORS); default `*`: tokens are bearer headers, never cookies. */
  corsOrigins?: string[];
  /** Requests per second across the API, and the burst above it. */
  throttle?: { rateLimit: number; burstLimit: number };
}

export class ArbiterStack extends Stack {
  constructor(scope: Construct, id: string, props: ArbiterStackProps = {}) {
    super(scope, id, props);

    const table = new Table(this, 'Commits', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.NUMBER },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Secrets Manager makes text, not Ed25519 keys: the key is derived from this text (signer.ts).
    const signingSecret = new Secret(this, 'SigningKeySecret', {
      description: 'Arbiter: the text the Ed25519 signing key of commits is derived from',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Seeds are stored encrypted under a key derived from this text (seedVault.ts).
    const seedKeySecret = new Secret(this, 'SeedKeySecret', {
      description: 'Arbiter: the text the key that encrypts server seeds at rest is derived from',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const functions = {} as Record<LambdaName, NodejsFunction>;
    for (const name of Object.keys(LAMBDA_ENTRIES) as LambdaName[]) {
      const fn = new NodejsFunction(this, `${name[0].toUpperCase()}${name.slice(1)}Function`, {
        entry: join(ROOT, LAMBDA_ENTRIES[name]),
        handler: 'handler',
        projectRoot: ROOT,
        depsLockFilePath: join(ROOT, 'package-lock.json'),
        runtime: Runtime.NODEJS_22_X,
        architecture: Architecture.ARM_64,
        memorySize: 512,
        timeout: name === 'reads' ? READ_TIMEOUT : Duration.seconds(10),
        logGroup: new LogGroup(this, `${name}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
        environment: {
          ...(TABLE_ACTIONS[name].length ? { TABLE_NAME: table.tableName } : {}),
          ...(READS_SIGNING_SECRET[name] ? { SIGNING_KEY_SECRET_ARN: signingSecret.secretArn } : {}),
          ...(READS_SEED_KEY[name] ? { SEED_KEY_SECRET_ARN: seedKeySecret.secretArn } : {}),
          POWERTOOLS_SERVICE_NAME: 'arbiter',
          POWERTOOLS_METRICS_NAMESPACE: 'Arbiter',
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          NODE_OPTIONS: '--enable-source-maps',
        },
        bundling: {
          minify: BUNDLE.minify,
          sourceMap: BUNDLE.sourceMap,
          target: BUNDLE.target,
          format: OutputFormat.ESM,
          mainFields: BUNDLE.mainFields,
          banner: BUNDLE.banner,
          externalModules: BUNDLE.externalModules,
          bundleAwsSDK: true,
          // One argument per alias (`--alias:from=to`): a repeated `--alias` key would keep only the last.
          esbuildArgs: Object.fromEntries(Object.entries(BUNDLE.alias).map(([from, to]) => [`--alias:${from}`, to])),
          // The verifier's text and the web app's files are built first, for the aliases above to find them.
          commandHooks: {
            beforeBundling: (inputDir) => BEFORE_BUNDLING[name].map((script) => `cd "${inputDir}" && node --import tsx ${script}`),
            beforeInstall: () => [],
            afterBundling: () => [],
          },
        },
      });
      if (TABLE_ACTIONS[name].length) {
        fn.addToRolePolicy(new PolicyStatement({ actions: TABLE_ACTIONS[name], resources: [table.tableArn] }));
      }
      if (READS_SIGNING_SECRET[name]) {
        fn.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [signingSecret.secretArn] }));
      }
      if (READS_SEED_KEY[name]) {
        fn.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [seedKeySecret.secretArn] }));
      }
      functions[name] = fn;
    }

    const api = new HttpApi(this, 'Api', {
      description: 'Arbiter: verifiable combat resolution',
      corsPreflight: {
        allowOrigins: props.corsOrigins?.length ? props.corsOrigins : ['*'],
        allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.DELETE, CorsHttpMethod.OPTIONS],
        allowHeaders: ['authorization', 'content-type', 'accept', 'if-none-match'],
        exposeHeaders: ['etag', 'retry-after'],
        maxAge: Duration.hours(1),
      },
    });
    const throttle = props.throttle ?? { rateLimit: 200, burstLimit: 400 };
    const stage = api.defaultStage!.node.defaultChild as CfnStage;
    stage.defaultRouteSettings = { throttlingRateLimit: throttle.rateLimit, throttlingBurstLimit: throttle.burstLimit };

    const integrations = {} as Record<LambdaName, HttpLambdaIntegration>;
    for (const name of Object.keys(functions) as LambdaName[]) {
      integrations[name] = new HttpLambdaIntegration(`${name}Integration`, functions[name], {
        timeout: name === 'reads' ? Duration.seconds(29) : Duration.seconds(15),
      });
    }
    for (const route of ROUTES) {
      const group = (Object.keys(ROUTE_GROUPS) as LambdaName[]).find((g) => (ROUTE_GROUPS[g] as readonly string[]).includes(route.handler));
      if (!group) throw new Error(`route ${route.method} ${route.path} belongs to no function`);
      api.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration: integrations[group] });
    }

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint, description: 'Point clients here' });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'SigningKeySecretArn', { value: signingSecret.secretArn, description: 'npm run rotate-key:aws -- <this> rotates the signing key' });
    // The key is derived from a secret generated at deploy time: its fingerprint is known only then.
    new CfnOutput(this, 'KeysUrl', { value: `${api.apiEndpoint}/keys`, description: 'GET it for the signing key fingerprint to publish and pin (docs/fairness.md §9)' });
    new CfnOutput(this, 'WebUrl', { value: `${api.apiEndpoint}/`, description: 'The web app: create games, follow timelines, verify exports' });
    new CfnOutput(this, 'DocsUrl', { value: `${api.apiEndpoint}/docs`, description: 'The API reference, rendered from /openapi.json' });
    new CfnOutput(this, 'VerifierUrl', { value: `${api.apiEndpoint}/verifier.mjs`, description: 'The standalone verifier: node verifier.mjs game.json --trust ed25519:…' });
  }
}
