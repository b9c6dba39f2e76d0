import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { join } from 'node:path';
import { functionBundling } from './bundling';

const ROOT = join(import.meta.dirname, '..');

export interface SideFunctionProps {
  /** The entry point, from the project's root. */
  entry: string;
  /** What its role is for, in the IAM console. */
  description: string;
  /** Its POWERTOOLS_SERVICE_NAME. */
  serviceName: string;
  timeout: Duration;
  /** MB; 256 by default. */
  memorySize?: number;
  retention: RetentionDays;
  environment?: Record<string, string>;
}

/**
 * A function beside the API's (push, the sweep of abandoned games), built as the stack's own:
 * `<name>Logs` kept on deletion, `<name>Role` with no managed policy that may write those logs
 * (the caller grants the rest), `<name>Function` on nodejs24.x arm64, traced, bundled with the
 * project's settings (infra/bundling.ts).
 */
export function sideFunction(scope: Construct, name: string, props: SideFunctionProps): NodejsFunction {
  const logGroup = new LogGroup(scope, `${name}Logs`, { retention: props.retention, removalPolicy: RemovalPolicy.RETAIN });
  const role = new Role(scope, `${name}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description: props.description });
  logGroup.grantWrite(role);
  return new NodejsFunction(scope, `${name}Function`, {
    entry: join(ROOT, props.entry),
    handler: 'handler',
    projectRoot: ROOT,
    depsLockFilePath: join(ROOT, 'package-lock.json'),
    runtime: Runtime.NODEJS_24_X,
    architecture: Architecture.ARM_64,
    memorySize: props.memorySize ?? 256,
    timeout: props.timeout,
    role,
    logGroup,
    tracing: Tracing.ACTIVE,
    environment: {
      ...props.environment,
      POWERTOOLS_SERVICE_NAME: props.serviceName,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      NODE_OPTIONS: '--enable-source-maps',
    },
    bundling: functionBundling(props.entry),
  });
}
