import { ArnFormat, CfnOutput, Duration, RemovalPolicy, Stack, Token, Validations, type StackProps } from 'aws-cdk-lib';
import type { IHttpApi, IWebSocketApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { AllowedMethods, CachePolicy, Distribution, HttpVersion, OriginProtocolPolicy, OriginRequestPolicy, OriginSslPolicy, ViewerProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { settingName } from '../functions/config/settingNames';

/**
 * The edge's limits per client (docs/deploy.md#limits-per-client), each counted by AWS WAF over
 * a sliding window, for every request that reaches CloudFront (the HTTP API and the push
 * socket's connections together: one web ACL serves both distributions).
 */
export const EDGE_LIMITS = {
  /** Requests from one address in 5 minutes (≈ 10 a second): a venue's players behind one NAT, each long-polling, stay well under it. */
  perClient: { limit: 3000, windowSeconds: 300 },
  /** POSTs and DELETEs with one Authorization header (one token) in 5 minutes (1 a second): commands, reissues, links. */
  perTokenWrites: { limit: 300, windowSeconds: 300 },
  /** POST /games and POST /tournaments from one address in 10 minutes (the in-app quota is 60 an hour). */
  creationsPerClient: { limit: 60, windowSeconds: 600 },
} as const;

/** How long a refused client is told to wait: WAF lifts the block once the client's rate in the window falls under the limit. */
const RETRY_AFTER_SECONDS = 60;
/** A web ACL of CloudFront (scope CLOUDFRONT) exists only in us-east-1. */
export const EDGE_REGION = 'us-east-1';
/** `arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>`: a CloudFront web ACL. */
const WEB_ACL_ARN = /^arn:aws[a-z-]*:wafv2:us-east-1:[0-9]{12}:global\/webacl\/[A-Za-z0-9_-]{1,128}\/[0-9a-f-]{36}$/;

const RATE_LIMITED_BODY = JSON.stringify({
  error: { code: 'rate_limited', message: `Too many requests from this client or with this token. Wait ${RETRY_AFTER_SECONDS} seconds and try again.` },
});

const exactly = (field: CfnWebACL.FieldToMatchProperty, value: string): CfnWebACL.StatementProperty => ({
  byteMatchStatement: { fieldToMatch: field, positionalConstraint: 'EXACTLY', searchString: value, textTransformations: [{ priority: 0, type: 'NONE' }] },
});
const method = (name: string) => exactly({ method: {} }, name);
/**
 * The creation routes, whatever way a client spells them: decoded (`/%67ames`), with repeated
 * slashes or `./` folded (`//games`), in any case, with or without a trailing slash. A path
 * that only matches after LOWERCASE is not routed by the API (its routes are case-sensitive):
 * counting it too costs nothing.
 */
export const CREATION_PATHS = '^/(games|tournaments)/?$';
const creationPath: CfnWebACL.StatementProperty = {
  regexMatchStatement: {
    fieldToMatch: { uriPath: {} },
    regexString: CREATION_PATHS,
    textTransformations: [
      { priority: 0, type: 'URL_DECODE' },
      { priority: 1, type: 'NORMALIZE_PATH' },
      { priority: 2, type: 'LOWERCASE' },
    ],
  },
};

function rateRule(name: string, priority: number, rate: { limit: number; windowSeconds: number }, statement: Partial<CfnWebACL.RateBasedStatementProperty>): CfnWebACL.RuleProperty {
  return {
    name,
    priority,
    action: {
      block: {
        customResponse: {
          responseCode: 429,
          customResponseBodyKey: 'rateLimited',
          // The web app reads a 429 across origins: the answer says so, as the API's own answers do.
          responseHeaders: [
            { name: 'retry-after', value: String(RETRY_AFTER_SECONDS) },
            { name: 'access-control-allow-origin', value: '*' },
            { name: 'access-control-expose-headers', value: 'retry-after' },
          ],
        },
      },
    },
    statement: { rateBasedStatement: { limit: rate.limit, evaluationWindowSec: rate.windowSeconds, aggregateKeyType: 'IP', ...statement } },
    visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: `Arbiter${name}`, sampledRequestsEnabled: true },
  };
}

/**
 * The web ACL of the edge, in a stack of its own in us-east-1 (the only region where a
 * CloudFront web ACL can be): rate-based rules per client address, per token for writes, and
 * for creations. Its log keeps only the requests it blocked, with the Authorization header
 * redacted: no token is ever logged.
 */
export class ArbiterEdgeFirewall extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: StackProps = {}) {
    super(scope, id, { description: 'Arbiter: the rate limits per client in front of the APIs (AWS WAF for CloudFront, us-east-1)', ...props, env: { ...props.env, region: EDGE_REGION } });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'Arbiter: limits per client address and per token, docs/deploy.md#limits-per-client',
      defaultAction: { allow: {} },
      customResponseBodies: { rateLimited: { contentType: 'APPLICATION_JSON', content: RATE_LIMITED_BODY } },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: 'ArbiterEdge', sampledRequestsEnabled: true },
      rules: [
        rateRule('CreationsPerClient', 0, EDGE_LIMITS.creationsPerClient, {
          scopeDownStatement: { andStatement: { statements: [method('POST'), creationPath] } },
        }),
        rateRule('PerTokenWrites', 1, EDGE_LIMITS.perTokenWrites, {
          aggregateKeyType: 'CUSTOM_KEYS',
          // Requests without the header are not counted by this rule (WAF skips a request missing its key): the per-client rule still counts them.
          customKeys: [{ header: { name: 'authorization', textTransformations: [{ priority: 0, type: 'NONE' }] } }],
          scopeDownStatement: { orStatement: { statements: [method('POST'), method('DELETE')] } },
        }),
        rateRule('PerClient', 2, EDGE_LIMITS.perClient, {}),
      ],
    });
    // WAF's log group must be named aws-waf-logs-…; WAF gives itself the right to write it.
    const logs = new LogGroup(this, 'BlockedRequests', { logGroupName: `aws-waf-logs-${this.stackName}`, retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    new CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: this.webAcl.attrArn,
      logDestinationConfigs: [this.formatArn({ service: 'logs', resource: 'log-group', resourceName: logs.logGroupName, arnFormat: ArnFormat.COLON_RESOURCE_NAME })],
      redactedFields: [{ singleHeader: { Name: 'authorization' } }],
      loggingFilter: {
        DefaultBehavior: 'DROP',
        Filters: [{ Behavior: 'KEEP', Requirement: 'MEETS_ANY', Conditions: [{ ActionCondition: { Action: 'BLOCK' } }] }],
      },
    });
    new CfnOutput(this, 'WebAclArn', { value: this.webAcl.attrArn, description: 'Deploy the Arbiter stack with -c edgeWebAclArn=<this> (docs/deploy.md#limits-per-client)' });
  }
}

export interface EdgeProps {
  httpApi: IHttpApi;
  pushApi: IWebSocketApi;
  /** The push socket's stage: wss://<edge>/<stage>. */
  pushStage: string;
  /** The CloudFront web ACL of the ArbiterEdge stack (its WebAclArn output). */
  webAclArn: string;
  /** The web app's function: its pages connect to the push socket through the edge. */
  web: IFunction & { addEnvironment(key: string, value: string): unknown };
}

/**
 * CloudFront in front of the HTTP API and of the push socket, each behind the edge's web ACL:
 * nothing cached (every answer depends on the token), every viewer header passed on but the
 * host, HTTPS only. The stage throttles stay as they are, a backstop for everyone together;
 * the APIs' own endpoints stay reachable (docs/deploy.md#limits-per-client says what that means).
 */
export function addEdge(stack: Stack, props: EdgeProps): { url: string; pushUrl: string; http: Distribution; push: Distribution } {
  if (!Token.isUnresolved(props.webAclArn) && !WEB_ACL_ARN.test(props.webAclArn)) {
    throw new Error(`edgeWebAclArn is not the ARN of a CloudFront web ACL (arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>): ${JSON.stringify(props.webAclArn)}`);
  }
  const originOf = (apiId: string) =>
    new HttpOrigin(`${apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      // A long poll holds its answer up to 10 s; the HTTP API gives up at 30.
      readTimeout: Duration.seconds(30),
    });
  const distribution = (id: string, comment: string, apiId: string) => {
    const made = new Distribution(stack, id, {
      comment,
      webAclId: props.webAclArn,
      httpVersion: HttpVersion.HTTP2_AND_3,
      defaultBehavior: {
        origin: originOf(apiId),
        allowedMethods: AllowedMethods.ALLOW_ALL,
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      },
    });
    Validations.of(made).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'Players of a wargame tournament come from anywhere: no country is refused. The web ACL limits every client instead.',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason: "Requests are logged behind it, in the API stage's JSON access logs (ApiAccessLogs, the push stage's AccessLogs), and the web ACL logs every request it blocks (aws-waf-logs-…, Authorization redacted). CloudFront's standard logs would need an S3 bucket with ACLs for little more.",
      },
      {
        id: 'AwsSolutions-CFR4',
        reason: "It answers on its *.cloudfront.net name with CloudFront's default certificate, whose viewer TLS policy cannot be chosen; with a custom domain and an ACM certificate, set TLSv1.2_2021 (docs/deploy.md#limits-per-client). Origins are reached over TLS 1.2 only.",
      },
    );
    return made;
  };
  const http = distribution('EdgeApi', 'Arbiter: the HTTP API behind the rate limits per client', props.httpApi.apiId);
  const push = distribution('EdgePush', 'Arbiter: the push socket behind the rate limits per client', props.pushApi.apiId);
  const url = `https://${http.distributionDomainName}`;
  const pushUrl = `wss://${push.distributionDomainName}/${props.pushStage}`;
  props.web.addEnvironment(settingName('pushUrl'), pushUrl);
  new CfnOutput(stack, 'EdgeUrl', { value: url, description: 'Point clients here: the API and the web app behind the rate limits per client (docs/deploy.md#limits-per-client)' });
  new CfnOutput(stack, 'EdgePushUrl', { value: pushUrl, description: 'The push socket behind the rate limits per client' });
  return { url, pushUrl, http, push };
}
