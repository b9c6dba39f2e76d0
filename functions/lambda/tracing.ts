import { Tracer } from '@aws-lambda-powertools/tracer';
import { METRICS } from '../http/observe';

/**
 * X-Ray subsegments for every AWS call of the functions' clients (awsClients.ts), under the
 * invocation's segment (the functions run with active tracing): a slow command shows which
 * call it waited on. The functions' answers are never recorded (they hold tokens), nor are
 * the calls' contents; outside Lambda the tracer is off.
 */
export const tracer = new Tracer({ serviceName: METRICS.service, captureHTTPsRequests: false });
