import { Tracer } from '@aws-lambda-powertools/tracer';
import { METRICS } from '../http/observe';

/**
 * X-Ray subsegments for every AWS call of the functions' clients (awsClients.ts) and of the
 * export store (observedS3.ts), under the invocation's segment when Lambda traces it (the
 * stack's `-c tracing=active`; by default nothing is traced, infra/operations.ts): a slow
 * command shows which call it waited on. The functions' answers are never recorded (they
 * hold tokens), nor are the calls' contents; outside Lambda the tracer is off.
 */
export const tracer = new Tracer({ serviceName: METRICS.service, captureHTTPsRequests: false });
